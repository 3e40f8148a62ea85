// Writes only through the engine, over the registry: every call that is not a GET says what it
// writes (`audit` on the action: a staff write, an exempt write with its reason, or a pipeline
// that writes its own audit row), and run once with a valid body:
// - a staff write or a pipeline adds exactly one audit row, naming the caller and (staff) the
//   declared resource and action;
// - a call that declares nothing writes nothing at all (no transaction id handed out);
// - an exempt write has its reason.
// A new write without an example body here fails the first test, so none is left out silently.
import { SALES_IMPORT_HEADERS } from '@app/contracts';
import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Action, auditedAs } from '../src/core/action';
import { allActions } from '../src/core/registry';
import { API_MODULES } from '../src/modules';
import { samplePdf } from '../src/modules/documents/documents.samples';
import { changedTables, fingerprint, nextXid } from './fuzz/check';
import { api, createDealerUser, createTestApp, login, type TestContext, testDay, uniq } from './harness';
import { multipart, saleObject, saleRow, salesWorkbook, setSetting, vinFactory } from './sales-fixtures';
import { type SmtpStub, startSmtpStub } from './smtp-stub';

interface Call {
  token: string;
  /** The caller's username (the audit row names it). */
  username: string;
  url: string;
  body?: unknown;
  file?: { payload: Buffer; headers: Record<string, string> };
}

let t: TestContext;
let admin: string;
let smtp: SmtpStub;
let dealer: { dealerId: number; token: string; userId: number; username: string; code: string };
let brandV: number;
let concepts: { id: number; code: string }[];
const vin = vinFactory();
const cid = (code: string) => concepts.find((c) => c.code === code)!.id;
const totp = (secret: string, at = Date.now()) =>
  OTPAuth.TOTP.generate({ secret: OTPAuth.Secret.fromBase32(secret), timestamp: at });
const nextStep = (n = 1) => Date.now() + n * 30_000;
const YEAR = 2025;

async function ok(method: 'POST' | 'PUT', url: string, token: string, body?: unknown) {
  const r = await api(t.app, method, url, { token, body });
  if (r.status !== 200) throw new Error(`${method} ${url}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.result;
}

/** A sale of the dealer (buyer with an email), answered by id. */
async function newSale(over: Record<string, unknown> = {}): Promise<number> {
  const v = vin();
  await ok('POST', '/api/sales/batch', admin, {
    rows: [saleObject(dealer.code, v, { email: `c.${v.toLowerCase()}@example.com`, ...over })],
  });
  const [row] = await t.handle.query<{ id: number }>('select id from sales where vin = $1', [v]);
  return row.id;
}

const asAdmin = (url: string, body?: unknown): Call => ({ token: admin, username: 'admin', url, body });
const asDealer = (url: string, body?: unknown): Call => ({
  token: dealer.token,
  username: dealer.username,
  url,
  body,
});

/**
 * One valid call of each write, keyed "METHOD path"; each prepares what it needs (made through
 * the API, before the count starts). Kept in the order they run.
 */
const SAMPLES: Record<string, () => Promise<Call>> = {
  'PUT /api/save-permission': async () => {
    const role = await ok('POST', '/api/roles', admin, { name: uniq('Rol auditado') });
    return asAdmin('/api/save-permission', { role_id: role.id, permissions: ['Admin.Zones.view'] });
  },
  'PUT /api/revoke-permission': async () => {
    const role = await ok('POST', '/api/roles', admin, { name: uniq('Rol retirado') });
    await ok('PUT', '/api/save-permission', admin, { role_id: role.id, permissions: ['Admin.Zones.view'] });
    return asAdmin('/api/revoke-permission', { role_id: role.id, permissions: ['Admin.Zones.view'] });
  },
  'PUT /api/user/:id': async () =>
    asDealer(`/api/user/${dealer.userId}`, { full_name: 'Usuario del concesionario' }),
  'PUT /api/users/:id/reset-password': async () => {
    const other = await createDealerUser(t.app, admin);
    return asAdmin(`/api/users/${other.userId}/reset-password`, { password: 'Otra-Clave-77' });
  },
  'POST /api/user/two-factor/confirm': async () => {
    const { secret } = await ok('POST', '/api/user/two-factor/enable', dealer.token);
    twoFactorSecret = secret;
    return asDealer('/api/user/two-factor/confirm', { code: totp(secret) });
  },
  'POST /api/user/two-factor/recovery-codes': async () =>
    asDealer('/api/user/two-factor/recovery-codes', { code: totp(twoFactorSecret, nextStep()) }),
  'POST /api/users/:id/two-factor/reset': async () => asAdmin(`/api/users/${dealer.userId}/two-factor/reset`),
  'POST /api/user/two-factor/disable': async () => {
    const { secret } = await ok('POST', '/api/user/two-factor/enable', dealer.token);
    await ok('POST', '/api/user/two-factor/confirm', dealer.token, { code: totp(secret) });
    return asDealer('/api/user/two-factor/disable', { code: totp(secret, nextStep()) });
  },
  'PUT /api/configurations/save': async () =>
    asAdmin('/api/configurations/save', { COMPANY_NAME: 'Auditada' }),
  'PUT /api/mail-schedules/:id': async () => {
    const [schedule] = await t.handle.query<{ id: number }>(
      "select id from mail_schedules where kind = 'resumen_mensual'",
    );
    return asAdmin(`/api/mail-schedules/${schedule.id}`, { enabled: false });
  },
  'POST /api/sales/import': async () => {
    const file = await salesWorkbook([saleRow(dealer.code, vin())], SALES_IMPORT_HEADERS);
    return { ...asAdmin('/api/sales/import'), file: multipart(file) };
  },
  'POST /api/sales/batch': async () =>
    asAdmin('/api/sales/batch', { rows: [saleObject(dealer.code, vin())] }),
  'POST /api/sales-quiz-request': async () =>
    asAdmin('/api/sales-quiz-request', { sale_ids: [await newSale()] }),
  'POST /api/mail-outbox/flush': async () => {
    await setSetting(t.app, 'SMTP_URL', smtp.url);
    return asAdmin('/api/mail-outbox/flush');
  },
  'POST /api/notifications/read-all': async () => {
    await ok('POST', '/api/figures/enable', admin, { year: YEAR, month: 1, dealer_ids: [dealer.dealerId] });
    return asDealer('/api/notifications/read-all');
  },
  'POST /api/notifications/:id/read': async () => {
    await ok('POST', '/api/figures/enable', admin, { year: YEAR, month: 2, dealer_ids: [dealer.dealerId] });
    const [n] = await t.handle.query<{ id: number }>(
      `select n.id from notifications n where n.dealer_id = $1
       and not exists (select 1 from notification_reads r where r.notification_id = n.id and r.user_id = $2)
       order by n.id desc limit 1`,
      [dealer.dealerId, dealer.userId],
    );
    return asDealer(`/api/notifications/${n.id}/read`);
  },
  'POST /api/dispatches-objectives': async () =>
    asAdmin('/api/dispatches-objectives', {
      rows: [{ dealer_id: dealer.dealerId, manufacturer_id: brandV, year: YEAR, month: 3, units: 7 }],
    }),
  'POST /api/daily-sales': async () => {
    const model = await ok('POST', '/api/manufacturer-models', admin, {
      manufacturer_id: brandV,
      name: uniq('Polo'),
    });
    return asAdmin('/api/daily-sales', {
      entries: [
        { dealer_id: dealer.dealerId, manufacturer_model_id: model.id, sale_date: testDay(-1), units: 2 },
      ],
    });
  },
  'POST /api/transaction/export-dynamic-report': async () =>
    asAdmin('/api/transaction/export-dynamic-report', {
      rangeFrom: { year: 2024, month: 11 },
      rangeDays: { year: 2025, month: 1 },
    }),
  'POST /api/transaction/export-internal-report': async () =>
    asAdmin('/api/transaction/export-internal-report', { year: 2024, month: 5, manufacturer: 'V' }),
  'POST /api/transaction/export-internal-daily-report': async () =>
    asAdmin('/api/transaction/export-internal-daily-report', { year: 2024, month: 5, manufacturer: brandV }),
  'POST /api/figures/enable': async () =>
    asAdmin('/api/figures/enable', { year: YEAR, month: 4, dealer_ids: [dealer.dealerId] }),
  'PUT /api/figure-batch': async () =>
    asDealer('/api/figure-batch', {
      year: YEAR,
      values: [{ concept_id: cid('VN_FLOTA'), month: 4, value: 3 }],
    }),
  'PUT /api/figure-concept': async () =>
    asAdmin('/api/figure-concept', {
      year: YEAR,
      month: 4,
      concept_id: cid('CSI_PV'),
      values: [{ dealer_id: dealer.dealerId, value: 81.5 }],
    }),
  'POST /api/figures/confirm': async () => asDealer('/api/figures/confirm', { year: YEAR, month: 4 }),
  'POST /api/figure-periods/:id/reopen': async () => {
    const [p] = await t.handle.query<{ id: number }>(
      'select id from figure_periods where dealer_id = $1 and year = $2 and month = 4',
      [dealer.dealerId, YEAR],
    );
    return asAdmin(`/api/figure-periods/${p.id}/reopen`, { reason: 'Corregir las flotas' });
  },
  'POST /api/figure-dealers/remind': async () =>
    asAdmin('/api/figure-dealers/remind', { year: YEAR, month: 4, dealer_ids: [dealer.dealerId] }),
  'PUT /api/fees-batch': async () =>
    asAdmin('/api/fees-batch', {
      year: YEAR,
      dealer_id: dealer.dealerId,
      values: [{ concept_id: cid('VN_UND'), month: 6, value: 12 }],
    }),
  'PUT /api/capacity-batch': async () => {
    const branch = await ok('POST', '/api/dealer-branches', admin, {
      dealer_id: dealer.dealerId,
      name: uniq('Sede'),
    });
    return asAdmin('/api/capacity-batch', {
      year: YEAR,
      month: 5,
      rows: [{ dealer_branch_id: branch.id, bays: 4, technicians: 5 }],
    });
  },
  'POST /api/agreements/:id/comments': async () => {
    agreementId = (
      await ok('POST', '/api/agreements', admin, {
        zone_id: (await ok('POST', '/api/zones', admin, { name: uniq('Zona ') })).id,
        dealer_id: dealer.dealerId,
        title: 'Plan de citas',
        level: 'high',
        due_date: testDay(5),
        responsible: 'Ana Gerente',
      })
    ).id;
    return asDealer(`/api/agreements/${agreementId}/comments`, { comment: 'Avance de la semana' });
  },
  'POST /api/agreements-noty': async () => {
    await ok('POST', '/api/dealer-contacts', admin, {
      dealer_id: dealer.dealerId,
      name: 'Ana Gerente',
      email: 'ana@a.example.com',
    });
    return asAdmin('/api/agreements-noty', { agreement_id: agreementId });
  },
  'POST /api/workshop-infos/batch': async () => {
    const branch = await ok('POST', '/api/dealer-branches', admin, {
      dealer_id: dealer.dealerId,
      name: uniq('Taller'),
    });
    return asAdmin('/api/workshop-infos/batch', {
      rows: [
        {
          dealer_id: dealer.dealerId,
          dealer_branch_id: branch.id,
          year: YEAR,
          month: 3,
          work_orders_opened: 12,
          work_orders_closed: 11,
          hours_sold: 40,
          hours_worked: 44,
          labour_revenue: 4400,
          parts_revenue: 5000,
        },
      ],
    });
  },
  'POST /api/documents/upload': async () => {
    // A file left unlinked for days: the upload sweeps it first (housekeeping, not its audit).
    await t.handle.query(
      `insert into document_files (storage_key, filename, mime, bytes, sha256, created_at)
       values ('huerfano/x.pdf', 'x.pdf', 'application/pdf', 1, repeat('0', 64), now() - interval '10 days')`,
    );
    return {
      ...asAdmin('/api/documents/upload'),
      file: multipart(samplePdf('Circular', ['Línea']), 'Circular.pdf'),
    };
  },
  'POST /api/saved-views': async () =>
    asDealer('/api/saved-views', { screen: '/main/dealer-contact', name: uniq('Vista'), params: '?page=1' }),
  'DELETE /api/saved-views/:id': async () => {
    const view = await ok('POST', '/api/saved-views', dealer.token, {
      screen: '/main/dealer-contact',
      name: uniq('Vista'),
      params: '?page=2',
    });
    return asDealer(`/api/saved-views/${view.id}`);
  },
};

/**
 * Writes not run here yet, each with where its one audit row is asserted instead, or why it cannot
 * run here. Kept short: each entry is a call this test does not prove.
 */
const NOT_RUN: Record<string, string> = {
  'PUT /api/quiz-alerts/:id/reply': 'una alerta nace de una respuesta pública baja: quiz-survey.test.ts',
  'PUT /api/quiz-alerts/:id/close': 'una alerta nace de una respuesta pública baja: quiz-survey.test.ts',
  'POST /api/sales-api': 'necesita el servidor de ventas de prueba: sales-api.test.ts',
  'POST /api/casis-api': 'necesita el servidor CASIS de prueba: figures-files.test.ts',
  'POST /api/dispatches-objectives/import': 'carga de Excel (defineImport)',
  'POST /api/daily-sales/import': 'carga de Excel (defineImport)',
  'POST /api/figures/import': 'carga de Excel (defineImport)',
  'POST /api/fees/import': 'carga de Excel (defineImport)',
  'POST /api/workshop-infos/import': 'carga de Excel (defineImport)',
};

/**
 * The writes that are no staff write (no audit row), pinned here: making a write exempt is a
 * decision this list shows in review, not a quiet way around the audit.
 */
const EXEMPT = [
  'POST /api/auth/login',
  'POST /api/auth/logout',
  'POST /api/auth/download-ticket',
  'POST /api/auth/two-factor',
  'POST /api/auth/two-factor/setup',
  'POST /api/user/two-factor/enable',
  'POST /api/public/quiz/:token',
  'POST /api/documents/:id/read',
];

let twoFactorSecret = '';
let agreementId = 0;
const key = (a: Action) => `${a.method} ${a.path}`;
const writes = allActions(API_MODULES).filter((a) => a.method !== 'GET');

beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app);
  const code = uniq('AUD');
  dealer = { ...(await createDealerUser(t.app, admin, code)), code };
  brandV = (await t.handle.query<{ id: number }>("select id from manufacturers where code = 'V'"))[0].id;
  concepts = (await api(t.app, 'GET', '/api/concepts?perPage=-1', { token: admin })).body.result;
  smtp = await startSmtpStub();
});
afterAll(async () => {
  await smtp?.close();
  await t?.close();
});

const auditCount = async () =>
  (await t.handle.query<{ n: number }>('select count(*)::int as n from audit_logs'))[0].n;

describe('writes only through the engine', () => {
  it('every call that is not a GET declares what it writes, and has its example here', () => {
    const problems: string[] = [];
    for (const a of writes) {
      const k = key(a);
      const d = a.audit;
      if (d && 'exempt' in d && d.exempt.trim().length < 10) problems.push(`${k}: exenta sin motivo`);
      if (d && 'pipeline' in d && d.pipeline.trim().length < 10) problems.push(`${k}: carga sin motivo`);
      const exempt = !!d && 'exempt' in d;
      if (!exempt && !SAMPLES[k] && !NOT_RUN[k]) problems.push(`${k}: sin ejemplo en SAMPLES`);
    }
    const exempt = writes.filter((a) => a.audit && 'exempt' in a.audit).map(key);
    expect(exempt.sort()).toEqual([...EXEMPT].sort());
    for (const k of [...Object.keys(SAMPLES), ...Object.keys(NOT_RUN)])
      if (!writes.some((a) => key(a) === k)) problems.push(`${k}: ya no está en el registro`);
    expect(problems).toEqual([]);
  });

  it('each write, run once, adds exactly one audit row naming the caller; a call that declares none writes nothing', async () => {
    const problems: string[] = [];
    let runs = 0;
    for (const [k, sample] of Object.entries(SAMPLES)) {
      const action = writes.find((a) => key(a) === k);
      if (!action) continue;
      let call: Call;
      try {
        call = await sample();
      } catch (err) {
        problems.push(`${k}: preparación: ${String(err).slice(0, 300)}`);
        continue;
      }
      const before = await auditCount();
      // The tables as they were, for a call that declares no write: the transaction id alone is
      // the whole server's (on CI's shared PostgreSQL another test file's writes move it too).
      const tables = action.audit ? undefined : await fingerprint(t.handle);
      const xid = await nextXid(t.handle);
      const res = await t.app.inject({
        method: action.method,
        url: call.url,
        headers: { authorization: `Bearer ${call.token}`, ...(call.file?.headers ?? {}) },
        ...(call.file
          ? { payload: call.file.payload }
          : call.body !== undefined
            ? { payload: call.body as object }
            : {}),
      });
      runs++;
      if (res.statusCode !== 200) {
        problems.push(`${k}: ${res.statusCode} ${res.body.slice(0, 300)}`);
        continue;
      }
      if (!action.audit) {
        if ((await nextXid(t.handle)) !== xid && tables) {
          const changed = changedTables(tables, await fingerprint(t.handle));
          if (changed.length) problems.push(`${k}: no declara escritura y escribió (${changed.join('; ')})`);
        }
        continue;
      }
      const rows = await t.handle.query<{ username: string; resource: string; action: string }>(
        'select username, resource, action from audit_logs order by id desc limit $1',
        [Math.max(1, (await auditCount()) - before)],
      );
      if (rows.length !== (await auditCount()) - before || rows.length !== 1) {
        problems.push(
          `${k}: ${(await auditCount()) - before} filas de auditoría (se espera 1): ${res.body.slice(0, 200)}`,
        );
        continue;
      }
      const [row] = rows;
      if (row.username !== call.username) problems.push(`${k}: la auditoría nombra a ${row.username}`);
      const staff = auditedAs(action);
      if (staff && (row.resource !== staff.resource || row.action !== staff.action))
        problems.push(
          `${k}: auditó ${row.resource}:${row.action}, declara ${staff.resource}:${staff.action}`,
        );
    }
    expect(problems).toEqual([]);
    expect(runs).toBe(Object.keys(SAMPLES).length);
  }, 300_000);
});
