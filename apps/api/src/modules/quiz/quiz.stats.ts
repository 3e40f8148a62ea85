// Survey statistics for a period (by sale date), brand and dealer (GET /api/table-stats):
// cobertura per dealer, after-sales results per dealer, and the top-box ranking.
import {
  type CoberturaRow,
  type PostventaRow,
  QUIZ_MESSAGES,
  type RankingRow,
  type TableStats,
} from '@app/contracts';
import type { DatabaseHandle } from '../../db/client';
import { readIntSetting } from '../preferences/settings';

export const DEFAULT_MIN_SAMPLE = 5;

export interface StatsFilter {
  year: number;
  month?: number;
  manufacturerId?: number;
  dealerId?: number;
}

const round4 = (n: number) => Math.round(n * 10_000) / 10_000;
const ratio = (a: number, b: number) => (b > 0 ? round4(a / b) : 0);
const ratioOrNull = (a: number, b: number) => (b > 0 ? round4(a / b) : null);

/** The period as a half-open date range, so the sale_date index serves it. */
export function periodRange(year: number, month?: number): [string, string] {
  const pad = (n: number) => String(n).padStart(2, '0');
  if (!month) return [`${year}-01-01`, `${year + 1}-01-01`];
  const next = month === 12 ? `${year + 1}-01-01` : `${year}-${pad(month + 1)}-01`;
  return [`${year}-${pad(month)}-01`, next];
}

/** `sales s` rows of the filter, as a CTE; params are appended. */
function salesCte(f: StatsFilter, params: unknown[]): string {
  const [from, to] = periodRange(f.year, f.month);
  params.push(from, to);
  const where = [`s.sale_date >= $${params.length - 1}::date`, `s.sale_date < $${params.length}::date`];
  if (f.manufacturerId) {
    params.push(f.manufacturerId);
    where.push(`s.manufacturer_id = $${params.length}`);
  }
  if (f.dealerId) {
    params.push(f.dealerId);
    where.push(`s.dealer_id = $${params.length}`);
  }
  return `with fs as (select s.* from sales s where ${where.join(' and ')})`;
}

const EMAIL_OK = `'^[^[:space:]@]+@[^[:space:]@]+\\.[^[:space:]@]+$'`;

export async function tableStats(handle: DatabaseHandle, f: StatsFilter): Promise<TableStats> {
  const minSample = await readIntSetting(handle.db, 'SURVEY_MIN_SAMPLE', DEFAULT_MIN_SAMPLE);

  const p1: unknown[] = [];
  const cob = await handle.query<{
    dealer_id: number;
    dealer_name: string;
    sales: number;
    invitations: number;
    responses: number;
    invalid_contacts: number;
  }>(
    `${salesCte(f, p1)}
     select d.id as dealer_id, d.name as dealer_name, count(*)::int as sales,
       count(*) filter (where exists (select 1 from quiz_invitations i join quizzes q on q.id = i.quiz_id
         where i.sale_id = fs.id and q.kind = 'sales'))::int as invitations,
       count(*) filter (where exists (select 1 from quiz_responses r join quizzes q on q.id = r.quiz_id
         where r.sale_id = fs.id and q.kind = 'sales'))::int as responses,
       count(*) filter (where fs.email is null or fs.email !~ ${EMAIL_OK}
         or exists (select 1 from quiz_invitations i where i.sale_id = fs.id and i.email_status = 'failed'))::int
         as invalid_contacts
     from fs join dealers d on d.id = fs.dealer_id
     group by d.id, d.name order by d.name, d.id`,
    p1,
  );
  const cobertura: CoberturaRow[] = cob.map((r) => ({
    ...r,
    response_rate: ratio(r.responses, r.sales),
    invalid_contact_rate: ratio(r.invalid_contacts, r.sales),
  }));

  // Ratings of the answered questionnaires of the period's sales, per dealer and kind.
  const p2: unknown[] = [];
  const perDealer = await handle.query<{
    dealer_id: number;
    kind: string;
    responses: number;
    rating_answers: number;
    top: number;
    rating_sum: number;
  }>(
    `${salesCte(f, p2)}
     select fs.dealer_id, q.kind, count(distinct r.id)::int as responses,
       count(a.rating)::int as rating_answers,
       count(*) filter (where a.rating = 4)::int as top,
       coalesce(sum(a.rating), 0)::int as rating_sum
     from fs join quiz_responses r on r.sale_id = fs.id
     join quizzes q on q.id = r.quiz_id
     left join quiz_answers a on a.response_id = r.id
     group by fs.dealer_id, q.kind`,
    p2,
  );
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
  const p3: unknown[] = [];
  const pq = await handle.query<{
    dealer_id: number;
    question: string;
    answers: number;
    rating_answers: number;
    top: number;
    rating_sum: number;
    first_order: number;
  }>(
    `${salesCte(f, p3)}
     select fs.dealer_id, a.question, count(*)::int as answers, count(a.rating)::int as rating_answers,
       count(*) filter (where a.rating = 4)::int as top, coalesce(sum(a.rating), 0)::int as rating_sum,
       min(coalesce(qq."order", 9999))::int as first_order
     from fs join quiz_responses r on r.sale_id = fs.id
     join quizzes q on q.id = r.quiz_id and q.kind = 'postventa'
     join quiz_answers a on a.response_id = r.id
     left join quiz_questions qq on qq.id = a.question_id
     group by fs.dealer_id, a.question
     order by fs.dealer_id, first_order, a.question`,
    p3,
  );
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
