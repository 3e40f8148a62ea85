// The mail calls beyond the outbox list: sending what waits in the outbox once SMTP is set.
import { defineAction } from '../../core/action';
import { ConflictError } from '../../core/errors';
import { flushOutbox, mailContext, resolveSmtpUrl } from './mail.service';

const tags = ['Correo'];

const flush = defineAction({
  method: 'POST',
  path: '/api/mail-outbox/flush',
  summary: 'Envía los correos pendientes (requiere SMTP configurado)',
  tags,
  access: { permission: 'Admin.Preferences.update' },
  async handler({ app }) {
    const ctx = mailContext(app);
    if (!(await resolveSmtpUrl(ctx))) {
      throw new ConflictError(
        'El correo no está configurado: defina SMTP_URL (variable de entorno o configuración) y vuelva a intentar',
      );
    }
    return flushOutbox(ctx);
  },
});

export const mailActions = [flush];
