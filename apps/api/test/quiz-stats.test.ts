// GET /api/table-stats checked against figures computed in the test from what it created
// through the real calls (batch, invitations, public answers), and its .xlsx export.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveScope } from '../src/core/scope';
import { surveyTrend, tableStats } from '../src/modules/quiz/quiz.stats';
import { api, createDealerUser, createTestApp, login, type TestContext, uniq } from './harness';
import {
  createDealer,
  saleObject,
  saleRow,
  salesWorkbook,
  setSetting,
  upload,
  vinFactory,
} from './sales-fixtures';
import { summaryDifferences } from './survey-summary';

let t: TestContext;
let admin: string;
const vin = vinFactory();
const tag = uniq('s').toLowerCase();

interface Planned {
  dealer: string;
  month: number;
  brand: 'V' | 'N';
  email: string;
  invite: boolean;
  /** Ratings given to the rating questions in order; undefined = not answered. */
  ratings?: number[];
  postventa?: number[];
}
interface Quiz {
  id: number;
  kind: string;
  questions: { id: number; type: string; text: string; options: string[] | null }[];
}

const dealers: Record<string, { id: number; code: string; name: string }> = {};
const plan: Planned[] = [];
let salesQuiz: Quiz;
let postQuiz: Quiz;

// A fixed sequence so the run is repeatable.
let seed = 7;
const rnd = () => {
  seed = (seed * 16807) % 2147483647;
  return seed / 2147483647;
};

function answers(quiz: Quiz, ratings: number[]) {
  let r = 0;
  return quiz.questions.map((q) => ({
    question_id: q.id,
    value:
      q.type === 'rating4'
        ? ratings[r++]
        : q.type === 'yesno'
          ? 'No'
          : q.type === 'choice'
            ? q.options![1]
            : 'ok',
  }));
}

async function tokenOf(address: string): Promise<string> {
  const [m] = await t.handle.query<{ text: string }>(
    'select text from mail_outbox where "to" = $1 order by id desc limit 1',
    [address],
  );
  return /token=([A-Za-z0-9_-]{43})/.exec(m.text)![1];
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app);
  await setSetting(t.app, 'SURVEY_MIN_SAMPLE', '5');
  for (const [key, name] of [
    ['X', 'Xeno Autos'],
    ['Y', 'Yunta Motors'],
    ['Z', 'Zeta Cars'],
  ]) {
    const code = uniq(`S${key}`);
    dealers[key] = { id: await createDealer(t.app, admin, code, name), code, name };
  }
  const quizzes = await api(t.app, 'GET', '/api/quizzes?perPage=50', { token: admin });
  const getQuiz = async (kind: string) =>
    (
      await api(
        t.app,
        'GET',
        `/api/quizzes/get/${quizzes.body.result.data.find((q: Quiz) => q.kind === kind).id}`,
        {
          token: admin,
        },
      )
    ).body.result as Quiz;
  salesQuiz = await getQuiz('sales');
  postQuiz = await getQuiz('postventa');
  const nRating = (q: Quiz) => q.questions.filter((x) => x.type === 'rating4').length;

  // X: 9 sales, 7 answered; Y: 8 sales, 5 answered; Z: 5 sales, 2 answered. Some without email,
  // some invited but not answering, months 3 and 4 of 2023, two brands.
  const layout: [string, number, number][] = [
    ['X', 9, 7],
    ['Y', 8, 5],
    ['Z', 5, 2],
  ];
  let n = 0;
  for (const [d, total, answered] of layout) {
    for (let i = 0; i < total; i++) {
      n++;
      const noEmail = i === total - 1; // the last sale of each dealer has no email
      const p: Planned = {
        dealer: d,
        month: i % 2 ? 3 : 4,
        brand: i % 3 ? 'V' : 'N',
        email: noEmail ? '' : `c${n}.${tag}@example.com`,
        invite: !noEmail,
      };
      if (!noEmail && i < answered) {
        p.ratings = Array.from({ length: nRating(salesQuiz) }, () => 1 + Math.floor(rnd() * 4));
      }
      if (!noEmail && i < 2)
        p.postventa = Array.from({ length: nRating(postQuiz) }, () => 1 + Math.floor(rnd() * 4));
      plan.push(p);
    }
  }
  const vins = plan.map(() => vin());
  const rows = plan.map((p, i) =>
    saleObject(dealers[p.dealer].code, vins[i], {
      sale_date: `2023-0${p.month}-1${i % 9}`,
      brand: p.brand,
      email: p.email,
    }),
  );
  // A sale outside the period must not count.
  rows.push(
    saleObject(dealers.X.code, vin(), { sale_date: '2022-12-31', email: `fuera.${tag}@example.com` }),
  );
  const saved = await api(t.app, 'POST', '/api/sales/batch', { token: admin, body: { rows } });
  expect(saved.body.result.saved).toBe(rows.length);
  const ids = await t.handle.query<{ id: number; vin: string }>(
    'select id, vin from sales where vin = any($1::text[])',
    [vins],
  );
  const idOf = new Map(ids.map((r) => [r.vin, r.id]));
  const all = plan.map((_, i) => idOf.get(vins[i])!);
  const inv = await api(t.app, 'POST', '/api/sales-quiz-request', { token: admin, body: { sale_ids: all } });
  expect(inv.body.result.invited).toBe(plan.filter((p) => p.invite).length);
  for (const p of plan) {
    if (!p.ratings) continue;
    const res = await api(t.app, 'POST', `/api/public/quiz/${await tokenOf(p.email)}`, {
      body: { answers: answers(salesQuiz, p.ratings) },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  const postIds = plan.map((p, i) => (p.postventa ? all[i] : 0)).filter(Boolean);
  const pinv = await api(t.app, 'POST', '/api/sales-quiz-request', {
    token: admin,
    body: { sale_ids: postIds, quiz_id: postQuiz.id },
  });
  expect(pinv.body.result.invited).toBe(postIds.length);
  for (const p of plan) {
    if (!p.postventa) continue;
    const res = await api(t.app, 'POST', `/api/public/quiz/${await tokenOf(p.email)}`, {
      body: { answers: answers(postQuiz, p.postventa) },
    });
    expect(res.status).toBe(200);
  }
}, 300_000);
afterAll(() => t?.close());

/** Expected figures, from the plan only. */
function expected(filter: (p: Planned) => boolean) {
  const out = new Map<
    string,
    {
      sales: number;
      invitations: number;
      responses: number;
      invalid: number;
      ratings: number[];
      post: number[][];
    }
  >();
  for (const p of plan.filter(filter)) {
    const e = out.get(p.dealer) ?? {
      sales: 0,
      invitations: 0,
      responses: 0,
      invalid: 0,
      ratings: [],
      post: [],
    };
    e.sales++;
    if (p.invite) e.invitations++;
    else e.invalid++;
    if (p.ratings) {
      e.responses++;
      e.ratings.push(...p.ratings);
    }
    if (p.postventa) e.post.push(p.postventa);
    out.set(p.dealer, e);
  }
  return out;
}
const r4 = (n: number) => Math.round(n * 10_000) / 10_000;

describe('GET /api/table-stats', () => {
  it('cobertura, ranking and postventa for a year match the figures computed here', async () => {
    const res = await api(t.app, 'GET', '/api/table-stats?year=2023', { token: admin });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { cobertura, ranking, postventa } = res.body.result;
    const exp = expected(() => true);
    const mine = (rows: { dealer_id: number }[]) =>
      rows.filter((r) => Object.values(dealers).some((d) => d.id === r.dealer_id));
    expect(mine(cobertura)).toEqual(
      ['X', 'Y', 'Z'].map((k) => {
        const e = exp.get(k)!;
        return {
          dealer_id: dealers[k].id,
          dealer_name: dealers[k].name,
          sales: e.sales,
          invitations: e.invitations,
          responses: e.responses,
          response_rate: r4(e.responses / e.sales),
          invalid_contacts: e.invalid,
          invalid_contact_rate: r4(e.invalid / e.sales),
        };
      }),
    );
    // Ranking: X (7) and Y (5) reach the minimum sample of 5; Z (2) does not.
    const score = (k: string) => {
      const r = exp.get(k)!.ratings;
      return {
        top_box: r4(r.filter((x) => x === 4).length / r.length),
        average: r4(r.reduce((a, b) => a + b, 0) / r.length),
      };
    };
    const order = ['X', 'Y'].sort(
      (a, b) => score(b).top_box - score(a).top_box || score(b).average - score(a).average,
    );
    expect(ranking.min_sample).toBe(5);
    expect(mine(ranking.ranked)).toEqual(
      order.map((k, i) => ({
        position: i + 1,
        dealer_id: dealers[k].id,
        dealer_name: dealers[k].name,
        responses: exp.get(k)!.responses,
        rating_answers: exp.get(k)!.ratings.length,
        ...score(k),
      })),
    );
    expect(mine(ranking.insufficient)).toEqual([
      {
        dealer_id: dealers.Z.id,
        dealer_name: dealers.Z.name,
        responses: 2,
        rating_answers: exp.get('Z')!.ratings.length,
        ...score('Z'),
        label: 'muestra insuficiente',
      },
    ]);
    // Postventa: 2 answered after-sales questionnaires per dealer.
    for (const k of ['X', 'Y', 'Z']) {
      const row = postventa.find((p: { dealer_id: number }) => p.dealer_id === dealers[k].id);
      const all = exp.get(k)!.post.flat();
      expect(row.responses).toBe(2);
      expect(row.top_box).toBe(r4(all.filter((x) => x === 4).length / all.length));
      expect(row.average).toBe(r4(all.reduce((a, b) => a + b, 0) / all.length));
      const firstRating = postQuiz.questions.find((q) => q.type === 'rating4')!;
      const q1 = row.questions.find((q: { question: string }) => q.question === firstRating.text);
      const firsts = exp.get(k)!.post.map((p) => p[0]);
      expect(q1).toEqual({
        question: firstRating.text,
        answers: 2,
        average: r4((firsts[0] + firsts[1]) / 2),
        top_box: r4(firsts.filter((x) => x === 4).length / 2),
      });
    }
  });

  it('filters by month, brand and dealer', async () => {
    const [n] = await t.handle.query<{ id: number }>(`select id from manufacturers where code = 'N'`);
    const res = await api(t.app, 'GET', `/api/table-stats?year=2023&month=4&manufacturer=${n.id}`, {
      token: admin,
    });
    const exp = expected((p) => p.month === 4 && p.brand === 'N');
    const got = res.body.result.cobertura.filter((r: { dealer_id: number }) =>
      Object.values(dealers).some((d) => d.id === r.dealer_id),
    );
    expect(
      got.map((r: { dealer_name: string; sales: number; responses: number }) => [
        r.dealer_name,
        r.sales,
        r.responses,
      ]),
    ).toEqual(
      ['X', 'Y', 'Z']
        .filter((k) => exp.has(k))
        .map((k) => [dealers[k].name, exp.get(k)!.sales, exp.get(k)!.responses]),
    );
    const byCode = await api(t.app, 'GET', '/api/table-stats?year=2023&month=4&manufacturer=N', {
      token: admin,
    });
    expect(byCode.body.result.cobertura).toEqual(res.body.result.cobertura);
    const one = await api(t.app, 'GET', `/api/table-stats?year=2023&dealer_id=${dealers.Y.id}`, {
      token: admin,
    });
    expect(one.body.result.cobertura.map((r: { dealer_id: number }) => r.dealer_id)).toEqual([dealers.Y.id]);
    const empty = await api(t.app, 'GET', '/api/table-stats?year=2019', { token: admin });
    expect(empty.body.result).toEqual({
      cobertura: [],
      postventa: [],
      ranking: { min_sample: 5, ranked: [], insufficient: [] },
    });
    const bad = await api(t.app, 'GET', '/api/table-stats?year=2023&manufacturer=QQ', { token: admin });
    expect(bad.status).toBe(422);
  });

  it('the minimum sample comes from the configuration', async () => {
    await setSetting(t.app, 'SURVEY_MIN_SAMPLE', '6');
    const res = await api(t.app, 'GET', '/api/table-stats?year=2023', { token: admin });
    const ranked = res.body.result.ranking.ranked.map((r: { dealer_id: number }) => r.dealer_id);
    expect(ranked).toContain(dealers.X.id);
    expect(ranked).not.toContain(dealers.Y.id);
    await setSetting(t.app, 'SURVEY_MIN_SAMPLE', '5');
  });

  it('a dealer user sees only its dealer', async () => {
    const du = await createDealerUser(t.app, admin);
    await api(t.app, 'POST', '/api/sales/batch', {
      token: admin,
      body: {
        rows: [
          saleObject(
            (
              await t.handle.query<{ code: string }>('select code from dealers where id = $1', [du.dealerId])
            )[0].code,
            vin(),
            { sale_date: '2023-05-05' },
          ),
        ],
      },
    });
    const res = await api(t.app, 'GET', '/api/table-stats?year=2023', { token: du.token });
    expect(res.status).toBe(200);
    expect(res.body.result.cobertura.map((r: { dealer_id: number }) => r.dealer_id)).toEqual([du.dealerId]);
    // Another dealer's id is not found, whatever the file or the screen asks for.
    for (const path of ['/api/table-stats', '/api/table-stats/export'])
      expect(
        (await api(t.app, 'GET', `${path}?year=2023&dealer_id=${dealers.X.id}`, { token: du.token })).status,
      ).toBe(404);
  });

  it('the export computes a rate from the exact ratio: 7 answers of 13 sales is 53,8 %', async () => {
    const code = uniq('SW');
    const dealerId = await createDealer(t.app, admin, code, 'Waira Motors');
    const vins = Array.from({ length: 13 }, () => vin());
    const emails = vins.map((_, i) => `w${i}.${tag}@example.com`);
    const rows = vins.map((v, i) => saleObject(code, v, { sale_date: '2021-05-10', email: emails[i] }));
    expect(
      (await api(t.app, 'POST', '/api/sales/batch', { token: admin, body: { rows } })).body.result.saved,
    ).toBe(13);
    const ids = await t.handle.query<{ id: number }>('select id from sales where vin = any($1::text[])', [
      vins,
    ]);
    await api(t.app, 'POST', '/api/sales-quiz-request', {
      token: admin,
      body: { sale_ids: ids.map((r) => r.id) },
    });
    const ratings = salesQuiz.questions.filter((q) => q.type === 'rating4').map(() => 4);
    for (const e of emails.slice(0, 7)) {
      const res = await api(t.app, 'POST', `/api/public/quiz/${await tokenOf(e)}`, {
        body: { answers: answers(salesQuiz, ratings) },
      });
      expect(res.status).toBe(200);
    }
    // The screen keeps its 4-decimal ratio.
    const stats = await api(t.app, 'GET', `/api/table-stats?year=2021&dealer_id=${dealerId}`, {
      token: admin,
    });
    expect(stats.body.result.cobertura[0]).toMatchObject({ sales: 13, responses: 7, response_rate: 0.5385 });
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/table-stats/export?year=2021&dealer_id=${dealerId}`,
      headers: { authorization: `Bearer ${admin}` },
    });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const cell = wb.getWorksheet('Cobertura')!.getRow(2).getCell(5);
    expect(cell.value).toBe(7 / 13);
    expect(cell.numFmt).toBe('0.0 %');
    // What the sheet shows: one decimal of the exact percentage (53.8), not of 0.5385 (53.9).
    expect((Number(cell.value) * 100).toFixed(1)).toBe('53.8');
  });

  it('exports the three tables to .xlsx', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/table-stats/export?year=2023&month=3',
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['content-disposition'])).toContain('Satisfaccion_2023-03.xlsx');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Cobertura', 'Ranking', 'Postventa']);
    const cob = wb.getWorksheet('Cobertura')!;
    expect((cob.getRow(1).values as unknown[]).slice(1, 4)).toEqual([
      'Concesionario',
      'Ventas',
      'Invitaciones',
    ]);
    const exp = expected((p) => p.month === 3);
    const xRow = cob.getSheetValues().find((r) => Array.isArray(r) && r[1] === dealers.X.name) as unknown[];
    expect(xRow[2]).toBe(exp.get('X')!.sales);
    expect(xRow[4]).toBe(exp.get('X')!.responses);
    // The rate is the exact fraction, shown with one decimal by the cell's format (7/13 is
    // 53,8 %; from a ratio rounded to 4 decimals first, 0.5385, it showed 53,9 %).
    expect(xRow[5]).toBe(exp.get('X')!.responses / exp.get('X')!.sales);
    const xAt = cob.getSheetValues().findIndex((r) => Array.isArray(r) && r[1] === dealers.X.name);
    expect(cob.getRow(xAt).getCell(5).numFmt).toBe('0.0 %');
  });
});

// The statistics read the sale's date, brand and dealer and the questionnaire's kind from copies
// on quiz_responses and quiz_answers (migration 0018), kept by the database on every write.
describe('the survey rows carry their sale and questionnaire, always equal to them', () => {
  /** Rows whose copies differ from a recomputation through sales and quizzes. */
  const stale = async () => {
    const [r] = await t.handle.query<{ responses: number; answers: number; copied: number }>(
      `select
        (select count(*)::int from quiz_responses r join sales s on s.id = r.sale_id join quizzes q on q.id = r.quiz_id
          where r.kind is distinct from q.kind or r.sale_date is distinct from s.sale_date
             or r.manufacturer_id is distinct from s.manufacturer_id) as responses,
        (select count(*)::int from quiz_answers a join quiz_responses r on r.id = a.response_id
          join sales s on s.id = r.sale_id join quizzes q on q.id = r.quiz_id
          where a.kind is distinct from q.kind or a.sale_date is distinct from s.sale_date
             or a.manufacturer_id is distinct from s.manufacturer_id or a.dealer_id is distinct from s.dealer_id) as answers,
        (select count(*)::int from quiz_answers where kind is not null and sale_date is not null) as copied`,
    );
    return r;
  };
  const xRow = async () => {
    const res = await api(t.app, 'GET', `/api/table-stats?year=2023&dealer_id=${dealers.X.id}`, {
      token: admin,
    });
    return res.body.result.cobertura[0] as { sales: number; responses: number };
  };

  it('after answers, a sale moved to another day, brand and dealer, a questionnaire changed and a sale deleted', async () => {
    const first = await stale();
    expect(first.copied).toBeGreaterThan(0);
    expect(first).toMatchObject({ responses: 0, answers: 0 });
    const before = await xRow();
    // The first sale of X (answered, both questionnaires) moves to December 2022 and to dealer Y.
    const [sale] = await t.handle.query<{ id: number }>(
      `select s.id from sales s join quiz_responses r on r.sale_id = s.id where s.dealer_id = $1 order by s.id limit 1`,
      [dealers.X.id],
    );
    const [other] = await t.handle.query<{ id: number }>(
      `select id from manufacturers order by id desc limit 1`,
    );
    await t.handle.query(
      'update sales set sale_date = $2, manufacturer_id = $3, dealer_id = $4 where id = $1',
      [sale.id, '2022-12-15', other.id, dealers.Y.id],
    );
    expect(await stale()).toMatchObject({ responses: 0, answers: 0 });
    const after = await xRow();
    expect(after.sales).toBe(before.sales - 1);
    expect(after.responses).toBe(before.responses - 1);
    // A questionnaire's kind changes and changes back; a sale is deleted with its survey rows.
    await t.handle.query(`update quizzes set kind = 'postventa' where id = $1`, [salesQuiz.id]);
    expect(await stale()).toMatchObject({ responses: 0, answers: 0 });
    await t.handle.query(`update quizzes set kind = 'sales' where id = $1`, [salesQuiz.id]);
    await t.handle.query('delete from sales where id = $1', [sale.id]);
    expect(await stale()).toMatchObject({ responses: 0, answers: 0 });
    expect((await xRow()).responses).toBe(before.responses - 1);
  });
});

// The statistics read whole months from monthly summaries (migration 0023) kept by triggers in
// the same transaction as every write; the month `until` cuts is read from the raw rows.
describe('the monthly survey summaries equal a recomputation from the raw rows', () => {
  const expectSame = async (after: string) => {
    const { differing, kept } = await summaryDifferences(t.handle);
    expect(differing, after).toEqual([]);
    return kept;
  };
  const saleId = async (v: string) =>
    (await t.handle.query<{ id: number }>('select id from sales where vin = $1', [v]))[0].id;
  const rawEqual = async (year: number, until?: string) => {
    const scope = resolveScope({ isDealer: false, dealerId: null });
    for (const f of [
      { year, scope, until },
      { year, month: 3, scope, until },
      { year, month: 4, scope, until },
      { year, scope: resolveScope({ isDealer: true, dealerId: dealers.X.id }), until },
    ]) {
      expect(await tableStats(t.handle.db, f)).toEqual(await tableStats(t.handle.db, f, { raw: true }));
      expect(await surveyTrend(t.handle.db, f)).toEqual(await surveyTrend(t.handle.db, f, { raw: true }));
    }
  };

  it('after a batch, invitations and public answers, an import, edits, a failed mail and deletes', async () => {
    const kept = await expectSame('the batch, the invitations and the public answers of the setup');
    expect(kept.sales).toBeGreaterThan(0);
    expect(kept.answers).toBeGreaterThan(0);

    // An .xlsx import of two sales of X in March 2023, then their invitations and one answer.
    const vins = [vin(), vin()];
    const emails = vins.map((_, i) => `imp${i}.${tag}@example.com`);
    const imported = await upload(
      t.app,
      admin,
      await salesWorkbook(
        vins.map((v, i) =>
          saleRow(dealers.X.code, v, { 'Fecha Venta': '2023-03-20', Email: emails[i], Año: 2023 }),
        ),
      ),
    );
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    await expectSame('an import');
    const ids = [await saleId(vins[0]), await saleId(vins[1])];
    await api(t.app, 'POST', '/api/sales-quiz-request', { token: admin, body: { sale_ids: ids } });
    await expectSame('invitations');
    const ratings = salesQuiz.questions.filter((q) => q.type === 'rating4').map(() => 3);
    const answered = await api(t.app, 'POST', `/api/public/quiz/${await tokenOf(emails[0])}`, {
      body: { answers: answers(salesQuiz, ratings) },
    });
    expect(answered.status).toBe(200);
    await expectSame('a public answer');

    // An edit of the answered sale (another month) through the API; an invalid email written to it.
    const put = await api(t.app, 'PUT', `/api/sales/${ids[0]}`, {
      token: admin,
      body: { sale_date: '2023-04-02' },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    await expectSame('a sale edited');
    await t.handle.query(`update sales set email = 'no-es-un-correo' where id = $1`, [ids[0]]);
    await expectSame('an email made invalid');
    // The mailer marks an invitation failed; a response is deleted (its answers go with it).
    await t.handle.query(`update quiz_invitations set email_status = 'failed' where sale_id = $1`, [ids[1]]);
    await expectSame('a failed invitation');
    await t.handle.query('delete from quiz_responses where sale_id = $1', [ids[0]]);
    await expectSame('a response deleted');
    // A sale deleted through the API, with its invitation.
    const del = await api(t.app, 'DELETE', `/api/sales/${ids[1]}`, { token: admin });
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    await expectSame('a sale deleted');
    // A questionnaire's kind changed and back; a question deleted (its answers keep their text).
    await t.handle.query(`update quizzes set kind = 'postventa' where id = $1`, [salesQuiz.id]);
    await expectSame('a questionnaire kind changed');
    await t.handle.query(`update quizzes set kind = 'sales' where id = $1`, [salesQuiz.id]);
    const rating = postQuiz.questions.find((q) => q.type === 'rating4')!;
    await t.handle.query(
      'delete from quiz_answers where id = (select min(id) from quiz_answers where question_id = $1)',
      [rating.id],
    );
    await t.handle.query('update quiz_answers set question_id = null where question_id = $1', [rating.id]);
    await expectSame('answers deleted and edited');
  });

  it('the statistics from the summaries equal those from the raw rows, for whole and cut months', async () => {
    await rawEqual(2023);
    await rawEqual(2023, '2023-04-15');
    await rawEqual(2023, '2023-03-31');
    await rawEqual(2023, '2023-03-01');
    await rawEqual(2022, '2022-12-20');
    const stats = await tableStats(t.handle.db, {
      year: 2023,
      scope: resolveScope({ isDealer: false, dealerId: null }),
      until: '2023-04-15',
    });
    expect(stats.cobertura.length).toBeGreaterThan(0);
    expect(stats.postventa.length).toBeGreaterThan(0);
  });

  it('the check sees a summary a trigger did not keep', async () => {
    await t.handle.query('drop trigger quiz_answers_survey_months_ins on quiz_answers');
    const [a] = await t.handle.query<{ response_id: number }>('select response_id from quiz_answers limit 1');
    await t.handle.query(
      `insert into quiz_answers (response_id, question, question_type, rating) values ($1, 'Extra', 'rating4', 4)`,
      [a.response_id],
    );
    expect((await summaryDifferences(t.handle)).differing).toHaveLength(1);
    await t.handle.query('drop trigger sales_survey_months_ins on sales');
    const saved = await api(t.app, 'POST', '/api/sales/batch', {
      token: admin,
      body: { rows: [saleObject(dealers.Z.code, vin(), { sale_date: '2023-06-01' })] },
    });
    expect(saved.body.result.saved).toBe(1);
    expect((await summaryDifferences(t.handle)).differing).toHaveLength(2);
  });
});
