// The mail calls beyond the outbox list: sending what waits in the outbox once SMTP is set.
import { preferenceCalls as calls } from '@app/contracts';
import { type Db, defineAction } from '../../core/action';
import { ConflictError } from '../../core/errors';
import { flushOutbox, mailContext, resolveSmtpUrl } from './mail.service';

const tags = ['Correo'];

const flush = defineAction({
  ...calls.flushOutbox,
  summary: 'Envía los correos pendientes (requiere SMTP configurado)',
  tags,
  access: { permission: 'Admin.Preferences.update' },
  // One audit row: how many went out, failed and still wait.
  audit: { resource: 'mail-outbox', action: 'flush' },
  async handler({ app, write }) {
    const ctx = mailContext(app);
    if (!(await resolveSmtpUrl(ctx))) {
      throw new ConflictError(
        'El correo no está configurado: defina SMTP_URL (variable de entorno o configuración) y vuelva a intentar',
      );
    }
    return write((tx) => flushOutbox({ ...ctx, db: tx as unknown as Db }));
  },
});

export const mailActions = [flush];
