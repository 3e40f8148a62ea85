// Outgoing mail: the outbox (a read-only resource), its flush, and the flush at start-up. The
// sending itself is mail.service.ts, used by every module that mails.
import type { FastifyInstance } from 'fastify';
import { defineModule } from '../../core/registry';
import { mailActions } from './mail.actions';
import { outboxResource } from './mail.resources';
import { flushOutboxOnce, mailContext, retryOutbox } from './mail.service';

const retryTimers = new WeakMap<FastifyInstance, NodeJS.Timeout>();

/**
 * Mail kept while SMTP was missing goes out once the server starts with SMTP configured; mail
 * that failed while the SMTP server was down goes out when it is back (retried every
 * MAIL_RETRY_SECONDS). One instance at a time sends (flushOutboxOnce).
 */
async function flushOnStart(app: FastifyInstance): Promise<void> {
  const seconds = app.ctx.config.mailRetrySeconds ?? 60;
  if (seconds > 0) {
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      retryOutbox(mailContext(app))
        .catch((err) => app.log.warn({ err }, 'no se pudo reintentar mail_outbox'))
        .finally(() => {
          running = false;
        });
    }, seconds * 1000);
    timer.unref();
    retryTimers.set(app, timer);
  }
  void flushOutboxOnce(mailContext(app)).catch((err) =>
    app.log.warn({ err }, 'no se pudo vaciar mail_outbox'),
  );
}

export const mailModule = defineModule({
  name: 'mail',
  resources: [outboxResource],
  actions: mailActions,
  onReady: flushOnStart,
  onClose: async (app) => clearInterval(retryTimers.get(app)),
});
