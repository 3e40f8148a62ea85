// Outgoing mail: the outbox (a read-only resource), its flush, and the flush at start-up. The
// sending itself is mail.service.ts, used by every module that mails.
import type { FastifyInstance } from 'fastify';
import { defineModule } from '../../core/registry';
import { mailActions } from './mail.actions';
import { outboxResource } from './mail.resources';
import { flushOutbox, mailContext, resolveSmtpUrl } from './mail.service';

/** Mail kept while SMTP was missing goes out once the server starts with SMTP configured. */
async function flushOnStart(app: FastifyInstance): Promise<void> {
  const ctx = mailContext(app);
  if (!(await resolveSmtpUrl(ctx))) return;
  void flushOutbox(ctx).catch((err) => app.log.warn({ err }, 'no se pudo vaciar mail_outbox'));
}

export const mailModule = defineModule({
  name: 'mail',
  resources: [outboxResource],
  actions: mailActions,
  onReady: flushOnStart,
});
