// One clock: the server reads "today" and "now" of business dates from core/lima only. The
// database's current_date is UTC's day (Lima's tomorrow from 19:00), and a Date's local getters
// read the machine's time zone; neither may decide a period, a default or an age.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(__dirname, '../src');
const PACKAGES = path.resolve(__dirname, '../../../packages/contracts/src');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return files(full);
    return full.endsWith('.ts') && !full.endsWith('.test.ts') ? [full] : [];
  });
}

/** What reads a clock of its own: SQL's today, a Date's local fields, today from the machine. */
const FORBIDDEN: [RegExp, string][] = [
  [/\bcurrent_date\b|\bcurrent_timestamp\b|\blocaltimestamp\b|\bnow\(\)::date/i, "SQL's own today"],
  [/\.get(FullYear|Month|Date|Day|Hours)\(\)/, "a Date's local fields (the machine's time zone)"],
  [/new Date\(\)\.(getUTC\w+\(|toISOString\(\)\.slice\(0, ?10\))/, "the machine's clock as a business date"],
  [/Date\.now\(\)\)\.toISOString\(\)\.slice\(0, 10\)/, "the machine's clock as a business date"],
];

/** The clock itself and the comments that name what it replaces. */
const ALLOWED = new Set([path.join(SRC, 'core/lima.ts'), path.join(PACKAGES, 'clock.ts')]);

describe('one clock', () => {
  it('no server or contract file reads a business date from another clock than core/lima', () => {
    const found: string[] = [];
    for (const file of [...files(SRC), ...files(PACKAGES)]) {
      if (ALLOWED.has(file)) continue;
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          const code = line.replace(/\/\/.*$/, '');
          for (const [re, what] of FORBIDDEN)
            if (re.test(code)) found.push(`${path.relative(SRC, file)}:${i + 1}: ${what}: ${line.trim()}`);
        });
    }
    expect(found).toEqual([]);
  });
});
