// The surveys of one sale, on the sale's side: its invitations and answered responses (a call
// under the sale, declared in the sales contract) and the rule that a sale with an answered
// survey is not deleted. Here, not in sales: the surveys stand on the sales, not the other way.
import { salesCalls } from '@app/contracts';
import { asc, eq, lte, sql } from 'drizzle-orm';
import type { Executor } from '../../core/action';
import { defineAction } from '../../core/action';
import { ConflictError } from '../../core/errors';
import { saleResource } from '../sales/sales.resources';
import { withAnswers } from './quiz.answers';
import { quizInvitations, quizResponses, quizzes } from './quiz.tables';

export const saleResponses = defineAction({
  ...salesCalls.responses,
  summary: 'Invitaciones y respuestas de encuesta de una venta',
  tags: ['CEM'],
  access: { permission: 'Sales.view' },
  target: saleResource,
  async handler({ id, db }) {
    const invitations = await db
      .select({
        id: quizInvitations.id,
        quiz_id: quizInvitations.quiz_id,
        quiz_title: quizzes.title,
        quiz_kind: quizzes.kind,
        email: quizInvitations.email,
        sent_at: quizInvitations.sent_at,
        reminded_at: quizInvitations.reminded_at,
        reminder_count: quizInvitations.reminder_count,
        expires_at: quizInvitations.expires_at,
        answered_at: quizInvitations.answered_at,
        email_status: quizInvitations.email_status,
        expired: sql<boolean>`(${quizInvitations.answered_at} is null and ${lte(quizInvitations.expires_at, sql`now()`)})`,
      })
      .from(quizInvitations)
      .innerJoin(quizzes, eq(quizzes.id, quizInvitations.quiz_id))
      .where(eq(quizInvitations.sale_id, id))
      .orderBy(asc(quizInvitations.id));
    const responses = await db
      .select({
        id: quizResponses.id,
        quiz_id: quizResponses.quiz_id,
        quiz_title: quizzes.title,
        quiz_kind: quizzes.kind,
        rating_labels: quizzes.rating_labels,
        answered_at: quizResponses.answered_at,
      })
      .from(quizResponses)
      .innerJoin(quizzes, eq(quizzes.id, quizResponses.quiz_id))
      .where(eq(quizResponses.sale_id, id))
      .orderBy(asc(quizResponses.id));
    return { sale_id: id, invitations, responses: await withAnswers(db, responses) };
  },
});

/** A sale with an answered survey is not deleted (its answers would go with it). */
export async function refuseAnsweredSale(tx: Executor, saleId: number): Promise<void> {
  const [answered] = await tx
    .select({ id: quizResponses.id })
    .from(quizResponses)
    .where(eq(quizResponses.sale_id, saleId))
    .limit(1);
  if (answered) throw new ConflictError('No se puede eliminar: la venta tiene una encuesta respondida');
}
