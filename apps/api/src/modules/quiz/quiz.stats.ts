// Survey statistics for a period (by sale date), brand and dealer (GET /api/table-stats):
// cobertura per dealer, after-sales results per dealer, and the top-box ranking.
import {
  type CoberturaRow,
  type PostventaRow,
  QUIZ_MESSAGES,
  type RankingRow,
  type TableStats,
} from '@app/contracts';
import { and, asc, eq, gte, lt, lte, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '../../core/action';
import type { Scope } from '../../core/scope';
import { dealers } from '../../db/schema';
import { readIntSetting } from '../preferences/settings';
import { sales } from '../sales/sales.tables';
import { quizAnswers, quizInvitations, quizQuestions, quizResponses, quizzes } from './quiz.tables';

export const DEFAULT_MIN_SAMPLE = 5;

export interface StatsFilter {
  year: number;
  month?: number;
  manufacturerId?: number;
  /** The call's dealer scope (core/scope: a dealer user's own, the dealer asked for, or all). */
  scope: Scope;
  /** The last sale date counted (the dashboard's year to date). */
  until?: string;
}

const round4 = (n: number) => Math.round(n * 10_000) / 10_000;

/** The period as a half-open date range, so the sale_date index serves it. */
export function periodRange(year: number, month?: number): [string, string] {
  const pad = (n: number) => String(n).padStart(2, '0');
  if (!month) return [`${year}-01-01`, `${year + 1}-01-01`];
  const next = month === 12 ? `${year + 1}-01-01` : `${year}-${pad(month + 1)}-01`;
  return [`${year}-${pad(month)}-01`, next];
}

/** The sales of the filter (period by sale date, brand, dealer or the caller's dealer scope). */
function filteredSales(db: Executor, f: StatsFilter) {
  const [from, to] = periodRange(f.year, f.month);
  return db.$with('fs').as(
    db
      .select({ id: sales.id, dealer_id: sales.dealer_id, email: sales.email, sale_date: sales.sale_date })
      .from(sales)
      .where(
        and(
          gte(sales.sale_date, from),
          lt(sales.sale_date, to),
          f.until ? lte(sales.sale_date, f.until) : undefined,
          f.manufacturerId ? eq(sales.manufacturer_id, f.manufacturerId) : undefined,
          f.scope.on(sales.dealer_id),
        ),
      ),
  );
}

const EMAIL_OK = '^[^[:space:]@]+@[^[:space:]@]+\\.[^[:space:]@]+$';

/**
 * The conditions that keep, of a survey table with the sale's copies (quiz_responses,
 * quiz_answers: sale_date, manufacturer_id and, for answers, dealer_id), the rows of the sales
 * of `fs`: the same period and brand, and a dealer of those sales (so the caller's scope and the
 * dealer asked for, which `fs` applies, hold too). Read over the stats index of the period alone.
 */
function ofFilteredSales(f: StatsFilter, t: { sale_date: PgColumn; manufacturer_id: PgColumn }) {
  const [from, to] = periodRange(f.year, f.month);
  return and(
    gte(t.sale_date, from),
    lt(t.sale_date, to),
    f.until ? lte(t.sale_date, f.until) : undefined,
    f.manufacturerId ? eq(t.manufacturer_id, f.manufacturerId) : undefined,
  );
}
const int = (expr: SQL) => sql<number>`${expr}::int`;

/**
 * The statistics of a period. Ratios are rounded to 4 decimals for the screen; `exact` keeps the
 * exact fraction (the export formats it itself: 7/13 is 53,8 %, not 53,9 % from 0.5385).
 */
export async function tableStats(
  db: Executor,
  f: StatsFilter,
  opts: { exact?: boolean } = {},
): Promise<TableStats> {
  const round = opts.exact ? (n: number) => n : round4;
  const ratio = (a: number, b: number) => (b > 0 ? round(a / b) : 0);
  const ratioOrNull = (a: number, b: number) => (b > 0 ? round(a / b) : null);
  const minSample = await readIntSetting(db, 'SURVEY_MIN_SAMPLE', DEFAULT_MIN_SAMPLE);
  const fs = filteredSales(db, f);

  const salesInvited = sql`exists (select 1 from ${quizInvitations} join ${quizzes} on ${quizzes.id} = ${quizInvitations.quiz_id}
    where ${quizInvitations.sale_id} = ${fs.id} and ${quizzes.kind} = 'sales')`;
  const salesAnswered = sql`exists (select 1 from ${quizResponses}
    where ${quizResponses.sale_id} = ${fs.id} and ${quizResponses.kind} = 'sales')`;
  const invalidContact = sql`(${fs.email} is null or ${fs.email} !~ ${EMAIL_OK}
    or exists (select 1 from ${quizInvitations} where ${quizInvitations.sale_id} = ${fs.id} and ${quizInvitations.email_status} = 'failed'))`;
  const cob = await db
    .with(fs)
    .select({
      dealer_id: dealers.id,
      dealer_name: dealers.name,
      sales: int(sql`count(*)`),
      invitations: int(sql`count(*) filter (where ${salesInvited})`),
      responses: int(sql`count(*) filter (where ${salesAnswered})`),
      invalid_contacts: int(sql`count(*) filter (where ${invalidContact})`),
    })
    .from(fs)
    .innerJoin(dealers, eq(dealers.id, fs.dealer_id))
    .groupBy(dealers.id, dealers.name)
    .orderBy(asc(dealers.name), asc(dealers.id));
  const cobertura: CoberturaRow[] = cob.map((r) => ({
    ...r,
    response_rate: ratio(r.responses, r.sales),
    invalid_contact_rate: ratio(r.invalid_contacts, r.sales),
  }));

  // Ratings of the answered questionnaires of the period's sales, per dealer and kind: the
  // responses (those of the period's sales), and their answers' ratings.
  const fsDealers = sql`${quizAnswers.dealer_id} in (select ${fs.dealer_id} from ${fs})`;
  const [responsesOf, ratingsOf] = await Promise.all([
    db
      .with(fs)
      .select({ dealer_id: fs.dealer_id, kind: quizResponses.kind, responses: int(sql`count(*)`) })
      .from(fs)
      .innerJoin(quizResponses, and(eq(quizResponses.sale_id, fs.id), ofFilteredSales(f, quizResponses)))
      .groupBy(fs.dealer_id, quizResponses.kind),
    db
      .with(fs)
      .select({
        dealer_id: quizAnswers.dealer_id,
        kind: quizAnswers.kind,
        rating_answers: int(sql`count(${quizAnswers.rating})`),
        top: int(sql`count(*) filter (where ${quizAnswers.rating} = 4)`),
        rating_sum: int(sql`coalesce(sum(${quizAnswers.rating}), 0)`),
      })
      .from(quizAnswers)
      .where(and(ofFilteredSales(f, quizAnswers), fsDealers))
      .groupBy(quizAnswers.dealer_id, quizAnswers.kind),
  ]);
  const perDealer = responsesOf.map((r) => {
    const a = ratingsOf.find((x) => x.dealer_id === r.dealer_id && x.kind === r.kind);
    return { ...r, rating_answers: a?.rating_answers ?? 0, top: a?.top ?? 0, rating_sum: a?.rating_sum ?? 0 };
  });
  const names = new Map(cob.map((r) => [r.dealer_id, r.dealer_name]));

  const ranked: RankingRow[] = [];
  const insufficient: RankingRow[] = [];
  for (const c of cob) {
    const s = perDealer.find((r) => r.dealer_id === c.dealer_id && r.kind === 'sales');
    const row: RankingRow = {
      dealer_id: c.dealer_id,
      dealer_name: c.dealer_name,
      responses: s?.responses ?? 0,
      rating_answers: s?.rating_answers ?? 0,
      top_box: s ? ratioOrNull(s.top, s.rating_answers) : null,
      average: s ? ratioOrNull(s.rating_sum, s.rating_answers) : null,
    };
    if (row.responses >= minSample && row.rating_answers > 0) ranked.push(row);
    else insufficient.push({ ...row, label: QUIZ_MESSAGES.insufficientSample });
  }
  ranked.sort(
    (a, b) =>
      (b.top_box ?? 0) - (a.top_box ?? 0) ||
      (b.average ?? 0) - (a.average ?? 0) ||
      b.responses - a.responses ||
      a.dealer_name.localeCompare(b.dealer_name),
  );
  ranked.forEach((r, i) => {
    r.position = i + 1;
  });

  // After-sales questionnaires: totals and per question, per dealer.
  const firstOrder = sql`min(coalesce(${quizQuestions.order}, 9999))`;
  const pq = await db
    .with(fs)
    .select({
      dealer_id: quizAnswers.dealer_id,
      question: quizAnswers.question,
      answers: int(sql`count(*)`),
      rating_answers: int(sql`count(${quizAnswers.rating})`),
      top: int(sql`count(*) filter (where ${quizAnswers.rating} = 4)`),
      rating_sum: int(sql`coalesce(sum(${quizAnswers.rating}), 0)`),
    })
    .from(quizAnswers)
    .leftJoin(quizQuestions, eq(quizQuestions.id, quizAnswers.question_id))
    .where(and(eq(quizAnswers.kind, 'postventa'), ofFilteredSales(f, quizAnswers), fsDealers))
    .groupBy(quizAnswers.dealer_id, quizAnswers.question)
    .orderBy(asc(quizAnswers.dealer_id), asc(firstOrder), asc(quizAnswers.question));
  const postventa: PostventaRow[] = [];
  for (const s of perDealer.filter((r) => r.kind === 'postventa')) {
    postventa.push({
      dealer_id: s.dealer_id,
      dealer_name: names.get(s.dealer_id) ?? '',
      responses: s.responses,
      average: ratioOrNull(s.rating_sum, s.rating_answers),
      top_box: ratioOrNull(s.top, s.rating_answers),
      questions: pq
        .filter((q) => q.dealer_id === s.dealer_id)
        .map((q) => ({
          question: q.question,
          answers: q.answers,
          average: ratioOrNull(q.rating_sum, q.rating_answers),
          top_box: ratioOrNull(q.top, q.rating_answers),
        })),
    });
  }
  postventa.sort((a, b) => a.dealer_name.localeCompare(b.dealer_name));

  return { cobertura, postventa, ranking: { min_sample: minSample, ranked, insufficient } };
}

export interface SurveyMonth {
  month: number;
  sales: number;
  /** Sales whose sales questionnaire was answered. */
  responses: number;
  rating_answers: number;
  /** Ratings at the top level (4). */
  top: number;
}

/**
 * Per month of the filter's year (its month ignored): the sales, those answered and the ratings
 * of the sales questionnaire — the Cobertura and ranking of tableStats, month by month.
 */
export async function surveyTrend(db: Executor, f: StatsFilter): Promise<SurveyMonth[]> {
  const fs = filteredSales(db, { ...f, month: undefined });
  const month = sql<number>`extract(month from ${fs.sale_date})::int`;
  const salesKind = sql`exists (select 1 from ${quizResponses}
    where ${quizResponses.sale_id} = ${fs.id} and ${quizResponses.kind} = 'sales')`;
  const year = { ...f, month: undefined };
  const [counted, rated] = await Promise.all([
    db
      .with(fs)
      .select({ month, sales: int(sql`count(*)`), responses: int(sql`count(*) filter (where ${salesKind})`) })
      .from(fs)
      .groupBy(sql`1`),
    db
      .with(fs)
      .select({
        month: sql<number>`extract(month from ${quizAnswers.sale_date})::int`,
        rating_answers: int(sql`count(${quizAnswers.rating})`),
        top: int(sql`count(*) filter (where ${quizAnswers.rating} = 4)`),
      })
      .from(quizAnswers)
      .where(
        and(
          eq(quizAnswers.kind, 'sales'),
          ofFilteredSales(year, quizAnswers),
          sql`${quizAnswers.dealer_id} in (select ${fs.dealer_id} from ${fs})`,
        ),
      )
      .groupBy(sql`1`),
  ]);
  return Array.from({ length: 12 }, (_, i) => {
    const c = counted.find((r) => r.month === i + 1);
    const r = rated.find((x) => x.month === i + 1);
    return {
      month: i + 1,
      sales: c?.sales ?? 0,
      responses: c?.responses ?? 0,
      rating_answers: r?.rating_answers ?? 0,
      top: r?.top ?? 0,
    };
  });
}
