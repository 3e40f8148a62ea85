// The migrations' drizzle-kit metadata: every migration of the journal has its snapshot (a data-only
// or hand-written migration too: `drizzle-kit generate --custom`), the snapshots follow one another
// (each one's prevId is the one before), and the last one is the tables as declared, so
// `drizzle-kit generate` writes nothing until a table changes. The server's migrator reads only the
// journal and the SQL files; the snapshots are what `generate` diffs the tables against.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { generateDrizzleJson, generateMigration } from 'drizzle-kit/api';
import { describe, expect, it } from 'vitest';
import * as tables from '../src/modules/tables';

const meta = path.join(import.meta.dirname, '../drizzle/meta');
const journal = JSON.parse(readFileSync(path.join(meta, '_journal.json'), 'utf8')) as {
  entries: { idx: number; tag: string }[];
};
type Snapshot = Parameters<typeof generateMigration>[0];
const snapshot = (idx: number): Snapshot =>
  JSON.parse(readFileSync(path.join(meta, `${String(idx).padStart(4, '0')}_snapshot.json`), 'utf8'));

describe('the migrations’ snapshots', () => {
  it('every migration has one, each following the one before', () => {
    let prevId = '00000000-0000-0000-0000-000000000000';
    for (const e of journal.entries) {
      const s = snapshot(e.idx);
      expect({ tag: e.tag, prevId: s.prevId }).toEqual({ tag: e.tag, prevId });
      prevId = s.id;
    }
  });

  it('the last one is the declared tables: drizzle-kit generate would write nothing', async () => {
    const last = snapshot(journal.entries.at(-1)!.idx);
    const declared = generateDrizzleJson(tables, last.id);
    expect(await generateMigration(last, declared)).toEqual([]);
  });
});
