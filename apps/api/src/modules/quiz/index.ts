// Satisfaction surveys: questionnaires, questions, responses and alerts (resources), and the
// invitations, public survey, alert reply/close and statistics (actions).
import { inArray } from 'drizzle-orm';
import { defineModule } from '../../core/registry';
import { onMailSent } from '../mail/mail.service';
import { guardSaleDelete } from '../sales';
import { quizActions } from './quiz.actions';
import { alertResource, questionResource, quizResource, responseResource } from './quiz.resources';
import { refuseAnsweredSale, saleResponses } from './quiz.sale';
import { quizInvitations } from './quiz.tables';

// An invitation whose mail failed (SMTP down) and went out on a later retry is sent after all.
onMailSent(async (db, ids) => {
  await db
    .update(quizInvitations)
    .set({ email_status: 'sent' })
    .where(inArray(quizInvitations.mail_outbox_id, ids));
});

// A sale with an answered survey is not deleted.
guardSaleDelete(refuseAnsweredSale);

export const quizModule = defineModule({
  name: 'quiz',
  resources: [quizResource, questionResource, responseResource, alertResource],
  actions: [...quizActions, saleResponses],
});
