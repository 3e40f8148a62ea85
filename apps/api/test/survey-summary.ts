// The monthly survey summaries (migration 0023) against a recomputation from the raw rows,
// written here independently of the migration's functions: the rows that differ, expected none.
import type { DatabaseHandle } from '../src/db/client';

const EMAIL_OK = '^[^[:space:]@]+@[^[:space:]@]+\\.[^[:space:]@]+$';

const SALE_MONTHS = `select s.dealer_id, s.manufacturer_id, date_trunc('month', s.sale_date)::date as month,
    count(*)::int as sales,
    count(*) filter (where exists (select 1 from quiz_invitations i join quizzes q on q.id = i.quiz_id
      where i.sale_id = s.id and q.kind = 'sales'))::int as invited,
    count(*) filter (where exists (select 1 from quiz_responses r join quizzes q on q.id = r.quiz_id
      where r.sale_id = s.id and q.kind = 'sales'))::int as answered,
    count(*) filter (where s.email is null or s.email !~ '${EMAIL_OK}'
      or exists (select 1 from quiz_invitations i where i.sale_id = s.id and i.email_status = 'failed'))::int as invalid_contacts,
    coalesce(sum((select count(*) from quiz_responses r join quizzes q on q.id = r.quiz_id
      where r.sale_id = s.id and q.kind = 'sales')), 0)::int as sales_responses,
    coalesce(sum((select count(*) from quiz_responses r join quizzes q on q.id = r.quiz_id
      where r.sale_id = s.id and q.kind = 'postventa')), 0)::int as postventa_responses
  from sales s group by 1, 2, 3`;

// The answers through their response, sale and questionnaire (not through their copies).
const ANSWER_MONTHS = `select s.dealer_id, s.manufacturer_id, q.kind, date_trunc('month', s.sale_date)::date as month,
    coalesce(a.question_id, 0) as question_id, a.question, count(*)::int as answers, count(a.rating)::int as rating_answers,
    count(*) filter (where a.rating = 4)::int as top, coalesce(sum(a.rating), 0)::int as rating_sum
  from quiz_answers a join quiz_responses r on r.id = a.response_id join sales s on s.id = r.sale_id
  join quizzes q on q.id = r.quiz_id group by 1, 2, 3, 4, 5, 6`;

const SALE_COLS =
  'dealer_id, manufacturer_id, month, sales, invited, answered, invalid_contacts, sales_responses, postventa_responses';
const ANSWER_COLS =
  'dealer_id, manufacturer_id, kind, month, question_id, question, answers, rating_answers, top, rating_sum';

/** The summary rows that are not the recomputation's and the recomputation's that are not kept. */
export async function summaryDifferences(handle: DatabaseHandle) {
  const diff = (table: string, cols: string, recomputed: string) =>
    `select '${table}' as t, 'kept' as side, x::text as row from (select ${cols} from ${table} except select ${cols} from (${recomputed}) r) x
     union all
     select '${table}', 'recomputed', x::text from (select ${cols} from (${recomputed}) r except select ${cols} from ${table}) x`;
  const rows = await handle.query<{ t: string; side: string; row: string }>(
    `${diff('survey_sale_months', SALE_COLS, SALE_MONTHS)} union all ${diff('survey_answer_months', ANSWER_COLS, ANSWER_MONTHS)}`,
  );
  const [n] = await handle.query<{ sales: number; answers: number }>(
    'select (select count(*)::int from survey_sale_months) as sales, (select count(*)::int from survey_answer_months) as answers',
  );
  return { differing: rows.map((r) => `${r.t} ${r.side} ${r.row}`), kept: n };
}
