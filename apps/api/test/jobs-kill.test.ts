// A server killed (SIGKILL) in the middle of a big import's job loses nothing and half-saves
// nothing: after the restart the job either completes (pg-boss retries a job whose server stopped
// beating) with every row saved, or is marked failed with none saved; its owner sees which on the
// job's own call. On a real server process over a PGlite data folder (the default), or its own
// PostgreSQL database when TEST_DATABASE_URL is set.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { JOB_MESSAGES } from '../src/core/jobs';
import { openDatabase } from '../src/db/client';
import { createDealerAt, importWorkbook } from './process/scenario';
import {
  call,
  createDatabase,
  loginAt,
  pgUrl,
  RELIABILITY_PORTS,
  type ServerProcess,
  startServer,
  stopServer,
  type TestDatabase,
  waitFor,
} from './process/servers';
import { multipart } from './sales-fixtures';
import { seedAsTemplate } from './template';

const port = RELIABILITY_PORTS.jobsKill.server;
const work = mkdtempSync(path.join(tmpdir(), 'rel-jobs-'));
let db: TestDatabase | undefined;
let env: Record<string, string>;
let server: ServerProcess | undefined;

beforeAll(async () => {
  // Every upload is a job here.
  const common = { IMPORT_JOB_BYTES: '1', RATE_LIMIT_UPLOAD: '1000' };
  if (pgUrl()) {
    db = await createDatabase('jobs_kill', inject('templateDb'));
    env = { ...common, DATABASE_URL: db.url };
  } else {
    const dataDir = path.join(work, 'datos');
    if (inject('templateDir')) cpSync(inject('templateDir'), dataDir, { recursive: true });
    else {
      const handle = await openDatabase({ dataDir });
      await handle.migrate();
      await seedAsTemplate(handle);
      await handle.close();
    }
    env = { ...common, DATA_DIR: dataDir };
  }
}, 180_000);

afterAll(async () => {
  await stopServer(server);
  await db?.drop();
  rmSync(work, { recursive: true, force: true });
});

describe('a big import job when its server is killed', () => {
  it('after the restart the job is either done with every row saved or failed with none, and its owner sees it', async () => {
    server = await startServer(port, env);
    let admin = await loginAt(server.url);
    const dealer = await createDealerAt(server.url, admin);
    const rows = 20_000;
    const { file, vins } = await importWorkbook(dealer.code, rows);
    const mp = multipart(file);
    const res = await call(server.url, 'POST', '/api/sales/import', {
      token: admin,
      raw: mp.payload,
      headers: mp.headers,
      timeoutMs: 120_000,
    });
    expect(res.status).toBe(202);
    const id: string = res.body.result.id;
    // Killed while the job runs (reading or saving its rows).
    const running = await waitFor(
      async () => {
        const job = await call(server!.url, 'GET', `/api/jobs/${id}`, { token: admin });
        return job.body.result?.status === 'running' && job.body.result.done > 0;
      },
      120_000,
      50,
    );
    expect(running).toBeGreaterThanOrEqual(0);
    server.child.kill('SIGKILL');
    expect((await server.exited).signal).toBe('SIGKILL');

    server = await startServer(port, env);
    admin = await loginAt(server.url);
    // The file's first, middle and last sale (the first and last of its two insert chunks)
    // found by their VIN: all of them, or none.
    const probes = [vins[0], vins[rows / 2 - 1], vins[rows / 2], vins[rows - 1]];
    const count = async () => {
      let n = 0;
      for (const v of probes) {
        const list = await call(server!.url, 'GET', `/api/sales?perPage=5&query=${v}`, { token: admin });
        expect(list.status).toBe(200);
        n += list.body.result.data.filter((s: { vin: string }) => s.vin === v).length;
      }
      return n === probes.length ? rows : n === 0 ? 0 : -n;
    };
    // Nothing in part, at any moment after the kill.
    expect([0, rows]).toContain(await count());
    let ended: { status: string; result: { saved: number } | null; error: string | null } | undefined;
    const settled = await waitFor(
      async () => {
        const job = await call(server!.url, 'GET', `/api/jobs/${id}`, { token: admin });
        expect(job.status).toBe(200);
        expect([0, rows]).toContain(await count());
        const s = job.body.result.status;
        if (s === 'done' || s === 'failed') ended = job.body.result;
        return !!ended;
      },
      300_000,
      1000,
    );
    expect(settled, 'el trabajo no terminó ni falló tras el reinicio').toBeGreaterThanOrEqual(0);
    const saved = await count();
    if (ended!.status === 'done') {
      expect(ended!.result?.saved).toBe(rows);
      expect(saved).toBe(rows);
    } else {
      expect(ended!.error).toBe(JOB_MESSAGES.serverStopped);
      expect(saved).toBe(0);
    }
  }, 600_000);
});
