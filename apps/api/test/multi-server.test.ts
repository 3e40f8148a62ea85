// Two API processes on one PostgreSQL behind a round-robin proxy, as an operator runs N
// instances: they start together on an empty database (migrate and seed in turn), a session
// opened on one works on the other, a logout or a revoked permission on one holds on the other
// within the user cache's 5 s, a renamed catalogue is named anew by the other's next page, the
// login limit and the single answer of a survey hold across both, and an import running on one is seen by the other all at once or not at all.
// Big imports queued as jobs (pg-boss) are shared by both and each runs once.
// PostgreSQL only (TEST_DATABASE_URL): PGlite is one process by nature.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { QUIZ_MESSAGES, SALES_IMPORT_HEADERS } from '@app/contracts';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  answersFor,
  createDealerAt,
  createDealerUserAt,
  createSalesAt,
  importWorkbook,
  surveyTokens,
} from './process/scenario';
import {
  call,
  createDatabase,
  loginAt,
  pgUrl,
  RELIABILITY_PORTS,
  type ServerProcess,
  startRoundRobin,
  startServer,
  stopServer,
  type TestDatabase,
  waitFor,
} from './process/servers';
import { multipart, saleRow } from './sales-fixtures';

const ports = RELIABILITY_PORTS.multiServer;
/** The user cache of core/auth.ts (CACHE_TTL_MS), the documented delay between instances. */
const USER_CACHE_MS = 5000;
const LOGIN_LIMIT = 8;

let db: TestDatabase;
let a: ServerProcess;
let b: ServerProcess;
let proxy: Awaited<ReturnType<typeof startRoundRobin>>;
let admin: string;
let filesDir: string;
/** Uploads from this size on run as jobs; the 3,000-row file of the import test stays below it. */
const JOB_BYTES = 400_000;

/** A workbook of n rows with a 450 KB picture in it (as a logo would be): a "big" file of few rows. */
async function bigWorkbook(dealerCode: string, n: number) {
  const { vins } = await importWorkbook(dealerCode, n);
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Ventas');
  ws.addRow([...SALES_IMPORT_HEADERS]);
  for (const v of vins) ws.addRow(saleRow(dealerCode, v));
  const image = wb.addImage({ buffer: randomBytes(450_000) as never, extension: 'png' });
  ws.addImage(image, 'Q2:R4');
  return Buffer.from(await wb.xlsx.writeBuffer());
}

describe.skipIf(!pgUrl())('two instances on one PostgreSQL', () => {
  beforeAll(async () => {
    // An empty database: both instances migrate and seed it at the same moment.
    db = await createDatabase('multi');
    // Behind the proxy each client is told by X-Forwarded-For, as behind a real balancer.
    // One file store for both (what an object store is in production): a job's file is read by
    // whichever instance runs it. A file of JOB_BYTES or more is imported as a job.
    filesDir = mkdtempSync(path.join(tmpdir(), 'multi-files-'));
    const env = {
      DATABASE_URL: db.url,
      DATA_DIR: filesDir,
      IMPORT_JOB_BYTES: String(JOB_BYTES),
      TRUST_PROXY: '127.0.0.1',
      RATE_LIMIT_LOGIN: String(LOGIN_LIMIT),
      RATE_LIMIT_SURVEY: '1000',
    };
    [a, b] = await Promise.all([startServer(ports.a, env), startServer(ports.b, env)]);
    proxy = await startRoundRobin(ports.proxy, [ports.a, ports.b]);
    admin = await loginAt(a.url);
  }, 180_000);

  afterAll(async () => {
    await proxy?.close();
    await Promise.all([stopServer(a), stopServer(b)]);
    await db?.drop();
    if (filesDir) rmSync(filesDir, { recursive: true, force: true });
  });

  it('both started together on an empty database: one migration run, one administrator, one secret', async () => {
    const [{ n: migrations }] = await db.query('select count(*)::int as n from drizzle.__drizzle_migrations');
    const [{ n: admins }] = await db.query("select count(*)::int as n from users where username = 'admin'");
    const [{ n: secrets }] = await db.query('select count(*)::int as n from server_secrets');
    const [{ n: districts }] = await db.query('select count(*)::int as n from districts');
    expect({ migrations, admins, secrets, districts }).toEqual({
      migrations: expect.any(Number),
      admins: 1,
      secrets: 1,
      districts: 1892,
    });
    expect(migrations).toBeGreaterThanOrEqual(4);
    for (const s of [a, b]) expect(s.lines.join('\n')).not.toMatch(/error|already exists/i);
  });

  it('a session opened on one instance works on the other', async () => {
    const token = await loginAt(a.url);
    const onB = await call(b.url, 'GET', '/api/auth/getCurrentLoginInformations', { token });
    expect(onB.status).toBe(200);
    expect(onB.body.result.user.username).toBe('admin');
    const viaProxy = await Promise.all(
      [1, 2, 3, 4].map(() => call(proxy.url, 'GET', '/api/dealers?perPage=5', { token })),
    );
    expect(viaProxy.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(viaProxy.map((r) => r.headers.get('x-instancia')))).toEqual(new Set(['0', '1']));
  });

  it("a zone renamed on one instance is named anew by the other's very next page", async () => {
    const zone = await call(a.url, 'POST', '/api/zones', {
      token: admin,
      body: { name: 'Zona Dos Servidores' },
    });
    const dealer = await call(a.url, 'POST', '/api/dealers', {
      token: admin,
      body: { code: 'MSZ01', name: 'Concesionario Dos Servidores', zone_id: zone.body.result.id },
    });
    expect(dealer.status).toBe(200);
    const zoneOnB = async () =>
      (await call(b.url, 'GET', '/api/dealers?query=MSZ01', { token: admin })).body.result.data[0].zone_name;
    // B reads the zone once, so its copy of the catalogue holds the first name.
    expect(await zoneOnB()).toBe('Zona Dos Servidores');
    const renamed = await call(a.url, 'PUT', `/api/zones/${zone.body.result.id}`, {
      token: admin,
      body: { name: 'Zona Renombrada en A' },
    });
    expect(renamed.status).toBe(200);
    expect(await zoneOnB()).toBe('Zona Renombrada en A');
  });

  it('a logout on one instance ends the session on the other within the 5 s of the user cache', async () => {
    const dealer = await createDealerAt(a.url, admin);
    const user = await createDealerUserAt(a.url, admin, dealer.id);
    const token = await loginAt(a.url, user.username, user.password);
    expect((await call(b.url, 'GET', '/api/dealer-contacts?perPage=1', { token })).status).toBe(200);
    const out = await call(a.url, 'POST', '/api/auth/logout', { token });
    expect(out.status).toBe(200);
    expect((await call(a.url, 'GET', '/api/dealer-contacts?perPage=1', { token })).status).toBe(401);
    const took = await waitFor(
      async () => (await call(b.url, 'GET', '/api/dealer-contacts?perPage=1', { token })).status === 401,
      USER_CACHE_MS + 2000,
    );
    console.log(`MULTI logout en A rechazado en B tras ${Math.round(took)} ms`);
    expect(took).toBeGreaterThanOrEqual(0);
    expect(took).toBeLessThanOrEqual(USER_CACHE_MS + 500);
  });

  it('a permission revoked on one instance is refused on the other within the 5 s', async () => {
    const dealer = await createDealerAt(a.url, admin);
    const user = await createDealerUserAt(a.url, admin, dealer.id);
    const token = await loginAt(b.url, user.username, user.password);
    expect((await call(b.url, 'GET', '/api/dealer-contacts?perPage=1', { token })).status).toBe(200);
    const revoke = await call(a.url, 'PUT', '/api/revoke-permission', {
      token: admin,
      body: { role_id: user.roleId, permissions: ['Admin.DealerContacts.view'] },
    });
    expect(revoke.status).toBe(200);
    try {
      const took = await waitFor(
        async () => (await call(b.url, 'GET', '/api/dealer-contacts?perPage=1', { token })).status === 403,
        USER_CACHE_MS + 2000,
      );
      console.log(`MULTI permiso retirado en A negado en B tras ${Math.round(took)} ms`);
      expect(took).toBeGreaterThanOrEqual(0);
      expect(took).toBeLessThanOrEqual(USER_CACHE_MS + 500);
      const refused = await call(b.url, 'GET', '/api/dealer-contacts?perPage=1', { token });
      expect(refused.body.error.message).toMatch(/^No tiene permiso para \S+ Contactos/);
    } finally {
      await call(a.url, 'PUT', '/api/save-permission', {
        token: admin,
        body: { role_id: user.roleId, permissions: ['Admin.DealerContacts.view'] },
      });
    }
  });

  it(`the login limit (${LOGIN_LIMIT} a minute per address) is counted once across both instances`, async () => {
    const answers = [];
    // One client address (a documentation address, only ever written in the header).
    const client = { 'x-forwarded-for': '203.0.113.7' };
    for (let i = 0; i < LOGIN_LIMIT + 4; i++) {
      const res = await call(proxy.url, 'POST', '/api/auth/login', {
        body: { username: `nadie${i}.${process.pid}`, password: 'x' },
        headers: client,
      });
      answers.push({
        status: res.status,
        instance: res.headers.get('x-instancia'),
        message: res.body.error?.message,
      });
    }
    expect(answers.slice(0, LOGIN_LIMIT).map((r) => r.status)).toEqual(Array(LOGIN_LIMIT).fill(401));
    const limited = answers.slice(LOGIN_LIMIT);
    expect(limited.map((r) => r.status)).toEqual([429, 429, 429, 429]);
    // Both instances refuse: the count is shared, not one per process.
    expect(new Set(limited.map((r) => r.instance))).toEqual(new Set(['0', '1']));
    expect(limited[0].message).toMatch(
      /^Demasiadas solicitudes desde su dirección\. Intente nuevamente en \d+ segundos\.$/,
    );
    // Another address is not affected.
    const other = await call(proxy.url, 'POST', '/api/auth/login', {
      body: { username: 'nadie', password: 'x' },
      headers: { 'x-forwarded-for': '203.0.113.8' },
    });
    expect(other.status).toBe(401);
  });

  it('a survey is answered once even when both instances receive the answer at the same moment', async () => {
    const dealer = await createDealerAt(a.url, admin);
    const vins = await createSalesAt(a.url, admin, dealer.code, 3, `multi${process.pid}`);
    const tokens = await surveyTokens(b.url, admin, db, vins);
    expect(tokens).toHaveLength(3);
    for (const surveyToken of tokens) {
      const body = await answersFor(proxy.url, surveyToken);
      const sent = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          call(i % 2 ? a.url : b.url, 'POST', `/api/public/quiz/${surveyToken}`, { body }),
        ),
      );
      const statuses = sent.map((r) => r.status).sort();
      expect(statuses).toEqual([200, ...Array(9).fill(409)]);
      expect(sent.find((r) => r.status === 409)!.body.error.message).toBe(QUIZ_MESSAGES.alreadyAnswered);
    }
    const [{ responses, answered }] = await db.query(
      `select count(distinct r.id)::int as responses, count(distinct i.id) filter (where i.answered_at is not null)::int as answered
         from quiz_invitations i join sales s on s.id = i.sale_id left join quiz_responses r on r.invitation_id = i.id
        where s.vin = any($1)`,
      [vins],
    );
    expect({ responses, answered }).toEqual({ responses: 3, answered: 3 });
  });

  it('an import running on one instance is seen by the other all at once, never in part', async () => {
    const dealer = await createDealerAt(a.url, admin);
    const rows = 3000;
    const { file } = await importWorkbook(dealer.code, rows);
    const mp = multipart(file);
    const count = async () =>
      (await call(b.url, 'GET', `/api/sales?perPage=1&filter[dealer_id]=${dealer.id}`, { token: admin })).body
        .result.total as number;
    expect(await count()).toBe(0);
    let done = false;
    const seen: number[] = [];
    const polling = (async () => {
      while (!done) {
        seen.push(await count());
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const imported = await call(a.url, 'POST', '/api/sales/import', {
      token: admin,
      raw: mp.payload,
      headers: mp.headers,
    });
    done = true;
    await polling;
    expect(imported.status).toBe(200);
    expect(imported.body.result.saved).toBe(rows);
    // Right after the answer the other instance sees every row.
    expect(await count()).toBe(rows);
    console.log(
      `MULTI importación de ${rows} filas en A (${Math.round(imported.ms)} ms); B consulto ${seen.length} veces: ${[...new Set(seen)].join(', ')}`,
    );
    expect(seen.length).toBeGreaterThan(3);
    expect(seen.every((n) => n === 0 || n === rows)).toBe(true);
  });

  it('big imports queued as jobs are shared by both instances and each runs once', async () => {
    const dealers = await Promise.all([1, 2, 3, 4].map(() => createDealerAt(a.url, admin)));
    // Through the balancer: the uploads land on both instances, and so do the status calls.
    const jobs: string[] = [];
    for (const d of dealers) {
      const file = await bigWorkbook(d.code, 40);
      expect(file.length).toBeGreaterThan(JOB_BYTES);
      const mp = multipart(file);
      const res = await call(proxy.url, 'POST', '/api/sales/import', {
        token: admin,
        raw: mp.payload,
        headers: mp.headers,
      });
      expect(res.status).toBe(202);
      jobs.push(res.body.result.id);
    }
    let ended: { status: string; result: unknown }[] = [];
    const ms = await waitFor(async () => {
      ended = await Promise.all(
        jobs.map(
          async (id) => (await call(proxy.url, 'GET', `/api/jobs/${id}`, { token: admin })).body.result,
        ),
      );
      return ended.every((v) => v.status === 'done' || v.status === 'failed');
    }, 180_000);
    expect(ms).toBeGreaterThanOrEqual(0);
    for (const v of ended) expect(v).toMatchObject({ status: 'done', result: { saved: 40, failed: 0 } });
    const attempts = await db.query<{ attempts: number }>(
      'select attempts from background_jobs where id = any($1::uuid[])',
      [jobs],
    );
    expect(attempts.map((r) => r.attempts)).toEqual([1, 1, 1, 1]);
    for (const d of dealers) {
      const [{ n }] = await db.query<{ n: number }>(
        'select count(*)::int as n from sales where dealer_id = $1',
        [d.id],
      );
      expect(n).toBe(40);
    }
    const [{ n: completed }] = await db.query<{ n: number }>(
      "select count(*)::int as n from pgboss.job where id = any($1::uuid[]) and state = 'completed'",
      [jobs],
    );
    expect(completed).toBe(4);
    expect(a.lines.concat(b.lines).join('\n')).not.toMatch(/Trabajo sales-import .* falló/);
  });
});
