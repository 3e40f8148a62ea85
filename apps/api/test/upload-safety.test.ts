// Hostile spreadsheets on POST /api/sales/import: a truncated file and compressed bombs answer
// a 4xx envelope while the server keeps answering (a concurrent login succeeds), its memory stays
// bounded, no transaction is left open and no spool file is left behind. The times are printed
// figures (SUBIDA HOSTIL lines), not checks: on a loaded machine they are the machine's.
// A big file (IMPORT_JOB_BYTES, 1 MB) gets only the bounded checks in its request (the zip's
// directory) and its 202 at once: a hostile one that passes them fails its job instead, with the
// Spanish message, nothing saved.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_PASSWORD,
  ADMIN_USERNAME,
  api,
  createDealerUser,
  createTestApp,
  login,
  type TestContext,
  uniq,
} from './harness';
import { countSales, multipart, saleRow, salesWorkbook, vinFactory } from './sales-fixtures';
import { bombs, streamedWorkbook } from './zip-bombs';

let t: TestContext;
let admin: string;
let dealerToken: string;
let dealerCode: string;
let spoolDir: string;
let files: Record<string, Buffer>;
const vin = vinFactory();

beforeAll(async () => {
  // Spool folders of this file's process land here, so the test can see them all removed.
  spoolDir = mkdtempSync(path.join(tmpdir(), 'upload-safety-'));
  process.env.TMPDIR = spoolDir;
  t = await createTestApp();
  admin = await login(t.app);
  dealerCode = uniq('UB');
  dealerToken = (await createDealerUser(t.app, admin, dealerCode)).token;
  files = await bombs();
  // A real 2,000-row file (~125 KB) cut off inside its worksheet: the directory is gone and the
  // last compressed entry ends mid-stream.
  const whole = await streamedWorkbook(Array.from({ length: 2000 }, () => saleRow(dealerCode, vin())));
  files.truncated = whole.subarray(0, Math.floor(whole.length * 0.7));
}, 300_000);

afterAll(async () => {
  await t?.close();
  rmSync(spoolDir, { recursive: true, force: true });
});

/** Upload spool folders still present (the harness keeps its database copy here too). */
const spoolFolders = () => readdirSync(spoolDir).filter((f) => f.startsWith('upload-'));

/** Open transactions of this test's database (PostgreSQL; PGlite has one session and none). */
async function openTransactions(): Promise<number> {
  const rows = await t.handle.query<{ n: number }>(
    "select count(*)::int as n from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'",
  );
  return Number(rows[0]?.n ?? 0);
}

async function hostileUpload(file: Buffer) {
  const mp = multipart(file);
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
  }, 10);
  const started = Date.now();
  const upload = t.app.inject({
    method: 'POST',
    url: '/api/sales/import',
    headers: { ...mp.headers, authorization: `Bearer ${dealerToken}` },
    payload: mp.payload,
  });
  // A login sent while the file is being checked.
  await new Promise((r) => setTimeout(r, 30));
  const loginStarted = Date.now();
  const loginRes = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
  });
  const loginMs = Date.now() - loginStarted;
  const res = await upload;
  const ms = Date.now() - started;
  clearInterval(sampler);
  return { res, ms, loginMs, loginStatus: loginRes.statusCode, rssGrowthMb: (rssPeak - rssBefore) / 2 ** 20 };
}

describe('hostile spreadsheets on POST /api/sales/import', () => {
  for (const name of ['truncated', 'shared strings', 'empty rows', 'wide row']) {
    it(`${name}: 4xx with a Spanish message, a login answered meanwhile, RSS +< 150 MB, nothing left open`, async () => {
      const before = await countSales(t.app);
      const r = await hostileUpload(files[name]);
      expect(r.res.statusCode, r.res.body).toBeGreaterThanOrEqual(400);
      expect(r.res.statusCode).toBeLessThan(500);
      const body = r.res.json();
      expect(body.success).toBe(false);
      expect(body.error.message).toMatch(/archivo|Excel/i);
      // Times are figures, not checks (the login took 1.07–1.14 s at load 25 on a 2-core machine,
      // the refusal up to 5.2 s at load 27; ~0.1 s idle): `npm run bench` measures them.
      console.log(`SUBIDA HOSTIL ${name}: ${r.res.statusCode} en ${r.ms} ms; login en ${r.loginMs} ms`);
      expect(r.loginStatus).toBe(200);
      expect(r.rssGrowthMb).toBeLessThan(150);
      expect(await openTransactions()).toBe(0);
      expect(await countSales(t.app)).toBe(before);
      expect(spoolFolders()).toEqual([]);
    });
  }

  // Files of more than 1 MB whose zip directory looks honest: only the job's check can refuse them.
  for (const name of ['shared strings, lying sizes', '10 MB shared strings']) {
    it(`${name} (a big file): 202 at once, the job fails with the Spanish message, nothing saved, a login answered meanwhile, RSS +< 150 MB`, async () => {
      const before = await countSales(t.app);
      const r = await hostileUpload(files[name]);
      expect(r.res.statusCode, r.res.body).toBe(202);
      const queued = r.res.json().result;
      expect(queued).toMatchObject({ kind: 'sales-import', status: 'queued' });
      const started = Date.now();
      let job: { status: string; error: string | null; result: unknown } | undefined;
      for (let i = 0; i < 600 && !(job && ['done', 'failed'].includes(job.status)); i++) {
        if (i) await new Promise((done) => setTimeout(done, 100));
        job = (await api(t.app, 'GET', `/api/jobs/${queued.id}`, { token: dealerToken })).body.result;
      }
      console.log(
        `SUBIDA HOSTIL ${name} (${(files[name].length / 2 ** 20).toFixed(1)} MB): 202 en ${r.ms} ms; trabajo fallido ${Date.now() - started} ms después; login en ${r.loginMs} ms`,
      );
      expect(job).toMatchObject({ status: 'failed', result: null });
      expect(job?.error).toMatch(/no es un Excel \(\.xlsx\) válido|sharedStrings\.xml.*supera/);
      expect(r.loginStatus).toBe(200);
      expect(r.rssGrowthMb).toBeLessThan(150);
      expect(await openTransactions()).toBe(0);
      expect(await countSales(t.app)).toBe(before);
      expect(spoolFolders()).toEqual([]);
    });
  }

  it('names the problem: truncated → damaged file; bombs → too big or too many rows/cells', async () => {
    const msg = async (name: string) => (await hostileUpload(files[name])).res.json().error.message as string;
    expect(await msg('truncated')).toContain('dañado o incompleto');
    expect(await msg('shared strings')).toContain('al descomprimirlo');
    expect(await msg('empty rows')).toContain('filas vacías');
    expect(await msg('wide row')).toContain('celdas');
  });

  it('twenty broken uploads in a row leave the server answering and no transaction open', async () => {
    for (let i = 0; i < 20; i++) {
      const mp = multipart(files.truncated);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/sales/import',
        headers: { ...mp.headers, authorization: `Bearer ${dealerToken}` },
        payload: mp.payload,
      });
      expect(res.statusCode).toBe(400);
    }
    expect(await openTransactions()).toBe(0);
    const list = await api(t.app, 'GET', '/api/dealers?perPage=1', { token: admin });
    expect(list.status).toBe(200);
    expect(spoolFolders()).toEqual([]);
  });

  it('a valid file still imports after the hostile ones, and its spool folder is removed', async () => {
    const before = await countSales(t.app);
    const file = await salesWorkbook([saleRow(dealerCode, vin()), saleRow(dealerCode, vin())]);
    const mp = multipart(file);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/sales/import',
      headers: { ...mp.headers, authorization: `Bearer ${dealerToken}` },
      payload: mp.payload,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result.saved).toBe(2);
    expect(await countSales(t.app)).toBe(before + 2);
    expect(spoolFolders()).toEqual([]);
  });
});
