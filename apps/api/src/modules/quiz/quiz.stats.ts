// Survey statistics for a period (by sale date), brand and dealer (GET /api/table-stats):
// cobertura per dealer, after-sales results per dealer, and the top-box ranking.
import {
  type CoberturaRow,
  type PostventaRow,
  QUIZ_MESSAGES,
  type RankingRow,
  type TableStats,
} from '@app/contracts';
import { type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '../../core/action';
import type { Scope } from '../../core/scope';
import { dealers } from '../../db/schema';
import { readIntSetting } from '../preferences/settings';
import { sales } from '../sales/sales.tables';
import {
  quizAnswers,
  quizInvitations,
  quizQuestions,
  quizResponses,
  quizzes,
  surveyAnswerMonths,
  surveySaleMonths,
} from './quiz.tables';

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

const EMAIL_OK = '^[^[:space:]@]+@[^[:space:]@]+\\.[^[:space:]@]+$';

/** Where the statistics read a period: its whole months, its cut month. */
export interface PeriodParts {
  /** The whole months [from, to) read from the monthly summaries, or null. */
  months: [string, string] | null;
  /** The days [from, to) read from the raw rows (the month `until` cuts), or null. */
  rest: [string, string] | null;
}

const nextDay = (d: string) => {
  const t = new Date(`${d}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() + 1);
  return t.toISOString().slice(0, 10);
};

/**
 * The filter's sale dates (its period, up to `until`) as whole months, read from the monthly
 * summaries (survey_sale_months, survey_answer_months: migration 0023, kept by triggers), and the
 * days of the month `until` cuts, read from the raw rows. `raw` reads every day from the raw
 * rows (the definition the summaries are tested against).
 */
export function periodParts(f: StatsFilter, raw = false): PeriodParts {
  const [from, to] = periodRange(f.year, f.month);
  let end = to;
  if (f.until && nextDay(f.until) < end) end = nextDay(f.until);
  if (end <= from) return { months: null, rest: null };
  const cut = raw ? from : end.endsWith('-01') ? end : `${end.slice(0, 8)}01`;
  return {
    months: cut > from ? [from, cut] : null,
    rest: end > cut ? [cut, end] : null,
  };
}

/** The statements of the parts that exist, as one UNION ALL (an empty select when none). */
function union(parts: (SQL | null)[], empty: SQL): SQL {
  const present = parts.filter((p): p is SQL => p !== null);
  return present.length ? sql.join(present, sql` union all `) : empty;
}

const brandOn = (f: StatsFilter, column: PgColumn) =>
  f.manufacturerId ? sql` and ${column} = ${f.manufacturerId}` : sql``;
const scopeOn = (f: StatsFilter, column: PgColumn) => {
  const on = f.scope.on(column);
  return on ? sql` and ${on}` : sql``;
};
/** A summary's months [from, to), brand and dealer scope. */
const summaryWhere = (
  f: StatsFilter,
  [from, to]: [string, string],
  t: typeof surveySaleMonths | typeof surveyAnswerMonths,
) =>
  sql`${t.month} >= ${from} and ${t.month} < ${to}${brandOn(f, t.manufacturer_id)}${scopeOn(f, t.dealer_id)}`;
/** The raw sales of days [from, to), brand and dealer scope. */
const salesWhere = (f: StatsFilter, [from, to]: [string, string]) =>
  sql`${sales.sale_date} >= ${from} and ${sales.sale_date} < ${to}${brandOn(f, sales.manufacturer_id)}${scopeOn(f, sales.dealer_id)}`;
/**
 * The raw answers of days [from, to), brand and dealer scope: the answers of the filter's sales
 * (an answer carries its sale's date, brand and dealer: migration 0018).
 */
const answersWhere = (f: StatsFilter, [from, to]: [string, string]) =>
  sql`${quizAnswers.sale_date} >= ${from} and ${quizAnswers.sale_date} < ${to} and ${quizAnswers.dealer_id} is not null${brandOn(
    f,
    quizAnswers.manufacturer_id,
  )}${scopeOn(f, quizAnswers.dealer_id)}`;

const salesInvited = sql`exists (select 1 from ${quizInvitations} join ${quizzes} on ${quizzes.id} = ${quizInvitations.quiz_id}
    where ${quizInvitations.sale_id} = ${sales.id} and ${quizzes.kind} = 'sales')`;
const salesAnswered = sql`exists (select 1 from ${quizResponses}
    where ${quizResponses.sale_id} = ${sales.id} and ${quizResponses.kind} = 'sales')`;
const invalidContact = sql`(${sales.email} is null or ${sales.email} !~ ${EMAIL_OK}
    or exists (select 1 from ${quizInvitations} where ${quizInvitations.sale_id} = ${sales.id} and ${quizInvitations.email_status} = 'failed'))`;
const responsesOfKind = (kind: string) =>
  sql`(select count(*) from ${quizResponses} where ${quizResponses.sale_id} = ${sales.id} and ${quizResponses.kind} = ${kind})`;

/**
 * Per sale (raw) or per summary row: dealer, month (1..12), sales, invited, answered, invalid
 * contacts, sales and postventa responses.
 */
function saleFacts(f: StatsFilter, parts: PeriodParts): SQL {
  const m = surveySaleMonths;
  return union(
    [
      parts.months &&
        sql`select ${m.dealer_id} as dealer_id, extract(month from ${m.month})::int as m, ${m.sales} as sales,
          ${m.invited} as invited, ${m.answered} as answered, ${m.invalid_contacts} as invalid,
          ${m.sales_responses} as sales_responses, ${m.postventa_responses} as postventa_responses
          from ${m} where ${summaryWhere(f, parts.months, m)}`,
      parts.rest &&
        sql`select ${sales.dealer_id} as dealer_id, extract(month from ${sales.sale_date})::int as m, 1 as sales,
          (${salesInvited})::int as invited, (${salesAnswered})::int as answered, (${invalidContact})::int as invalid,
          ${responsesOfKind('sales')} as sales_responses, ${responsesOfKind('postventa')} as postventa_responses
          from ${sales} where ${salesWhere(f, parts.rest)}`,
    ],
    sql`select 0 as dealer_id, 0 as m, 0 as sales, 0 as invited, 0 as answered, 0 as invalid,
      0 as sales_responses, 0 as postventa_responses where false`,
  );
}

/** Per summary row or raw answers grouped alike: dealer, kind, month, question, its sums. */
function answerFacts(f: StatsFilter, parts: PeriodParts, kind?: string): SQL {
  const m = surveyAnswerMonths;
  const a = quizAnswers;
  return union(
    [
      parts.months &&
        sql`select ${m.dealer_id} as dealer_id, ${m.kind} as kind, extract(month from ${m.month})::int as m,
          ${m.question_id} as question_id, ${m.question} as question, ${m.answers} as answers,
          ${m.rating_answers} as rating_answers, ${m.top} as top, ${m.rating_sum} as rating_sum
          from ${m} where ${summaryWhere(f, parts.months, m)} and ${m.dealer_id} <> 0${kind ? sql` and ${m.kind} = ${kind}` : sql``}`,
      parts.rest &&
        sql`select ${a.dealer_id} as dealer_id, ${a.kind} as kind, extract(month from ${a.sale_date})::int as m,
          ${a.question_id} as question_id, ${a.question} as question, count(*) as answers,
          count(${a.rating}) as rating_answers, count(*) filter (where ${a.rating} = 4) as top,
          coalesce(sum(${a.rating}), 0) as rating_sum
          from ${a} where ${answersWhere(f, parts.rest)}${kind ? sql` and ${a.kind} = ${kind}` : sql``}
          group by 1, 2, 3, 4, 5`,
    ],
    sql`select 0 as dealer_id, '' as kind, 0 as m, 0 as question_id, '' as question, 0 as answers,
      0 as rating_answers, 0 as top, 0 as rating_sum where false`,
  );
}

async function rows<T>(db: Executor, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/**
 * The statistics of a period. Ratios are rounded to 4 decimals for the screen; `exact` keeps the
 * exact fraction (the export formats it itself: 7/13 is 53,8 %, not 53,9 % from 0.5385).
 */
export async function tableStats(
  db: Executor,
  f: StatsFilter,
  opts: { exact?: boolean; raw?: boolean } = {},
): Promise<TableStats> {
  const round = opts.exact ? (n: number) => n : round4;
  const ratio = (a: number, b: number) => (b > 0 ? round(a / b) : 0);
  const ratioOrNull = (a: number, b: number) => (b > 0 ? round(a / b) : null);
  const minSample = await readIntSetting(db, 'SURVEY_MIN_SAMPLE', DEFAULT_MIN_SAMPLE);
  const parts = periodParts(f, opts.raw);

  const [counted, ratingsOf, pq] = await Promise.all([
    // Per dealer: its sales and their survey state, and their responses by kind.
    rows<
      Omit<CoberturaRow, 'response_rate' | 'invalid_contact_rate'> & {
        sales_responses: number;
        postventa_responses: number;
      }
    >(
      db,
      sql`select ${dealers.id} as dealer_id, ${dealers.name} as dealer_name, sum(x.sales)::int as sales,
        sum(x.invited)::int as invitations, sum(x.answered)::int as responses, sum(x.invalid)::int as invalid_contacts,
        sum(x.sales_responses)::int as sales_responses, sum(x.postventa_responses)::int as postventa_responses
        from (${saleFacts(f, parts)}) x join ${dealers} on ${dealers.id} = x.dealer_id
        group by ${dealers.id}, ${dealers.name} order by ${dealers.name} asc, ${dealers.id} asc`,
    ),
    // Their answers' ratings, per dealer and kind.
    rows<{ dealer_id: number; kind: string; rating_answers: number; top: number; rating_sum: number }>(
      db,
      sql`select x.dealer_id, x.kind, sum(x.rating_answers)::int as rating_answers, sum(x.top)::int as top,
        sum(x.rating_sum)::int as rating_sum from (${answerFacts(f, parts)}) x group by x.dealer_id, x.kind`,
    ),
    // After-sales questionnaires: per dealer and question.
    rows<{
      dealer_id: number;
      question: string;
      answers: number;
      rating_answers: number;
      top: number;
      rating_sum: number;
    }>(
      db,
      sql`select x.dealer_id, x.question, sum(x.answers)::int as answers, sum(x.rating_answers)::int as rating_answers,
        sum(x.top)::int as top, sum(x.rating_sum)::int as rating_sum
        from (${answerFacts(f, parts, 'postventa')}) x left join ${quizQuestions} on ${quizQuestions.id} = x.question_id
        group by x.dealer_id, x.question
        order by x.dealer_id asc, min(coalesce(${quizQuestions.order}, 9999)) asc, x.question asc`,
    ),
  ]);
  const cob = counted.map(({ sales_responses, postventa_responses, ...r }) => r);
  const cobertura: CoberturaRow[] = cob.map((r) => ({
    ...r,
    response_rate: ratio(r.responses, r.sales),
    invalid_contact_rate: ratio(r.invalid_contacts, r.sales),
  }));

  // Ratings of the answered questionnaires of the period's sales, per dealer and kind (those with
  // a response).
  const perDealer = counted
    .flatMap((r) => [
      { dealer_id: r.dealer_id, kind: 'sales', responses: r.sales_responses },
      { dealer_id: r.dealer_id, kind: 'postventa', responses: r.postventa_responses },
    ])
    .filter((r) => r.responses > 0)
    .map((r) => {
      const a = ratingsOf.find((x) => x.dealer_id === r.dealer_id && x.kind === r.kind);
      return {
        ...r,
        rating_answers: a?.rating_answers ?? 0,
        top: a?.top ?? 0,
        rating_sum: a?.rating_sum ?? 0,
      };
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
export async function surveyTrend(
  db: Executor,
  f: StatsFilter,
  opts: { raw?: boolean } = {},
): Promise<SurveyMonth[]> {
  const parts = periodParts({ ...f, month: undefined }, opts.raw);
  const [counted, rated] = await Promise.all([
    rows<{ month: number; sales: number; responses: number }>(
      db,
      sql`select x.m as month, sum(x.sales)::int as sales, sum(x.answered)::int as responses
        from (${saleFacts(f, parts)}) x group by x.m`,
    ),
    rows<{ month: number; rating_answers: number; top: number }>(
      db,
      sql`select x.m as month, sum(x.rating_answers)::int as rating_answers, sum(x.top)::int as top
        from (${answerFacts(f, parts, 'sales')}) x group by x.m`,
    ),
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
