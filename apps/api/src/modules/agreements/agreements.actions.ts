// The Seguimiento calls beyond CRUD, declared on the engine: the fixed lists of levels and
// statuses, an agreement's history, a comment (with a status change), and the notice mailed to
// the dealer's contacts (agreements-noty).
import { AGREEMENT_LEVELS, AGREEMENT_STATUSES, agreementCalls as calls } from '@app/contracts';
import { defineAction } from '../../core/action';
import { NotFoundError } from '../../core/errors';
import { findOne } from '../../core/resource-page';
import { mailContext } from '../mail/mail.service';
import { addComment, agreementHistory, notifyAgreement } from './agreements.history';
import { agreementResource } from './agreements.resources';
import { agreementsByAge } from './agreements.summary';

const tags = ['Seguimiento'];

const levels = defineAction({
  ...calls.levels,
  summary: 'Niveles de un acuerdo (Alto, Medio, Bajo)',
  tags,
  access: 'login',
  async handler() {
    return AGREEMENT_LEVELS;
  },
});

const statuses = defineAction({
  ...calls.statuses,
  summary: 'Estados de un acuerdo (Pendiente, En proceso, Cumplido, Anulado)',
  tags,
  access: 'login',
  async handler() {
    return AGREEMENT_STATUSES;
  },
});

const history = defineAction({
  ...calls.history,
  summary: 'Historial de un acuerdo: creación, comentarios, cambios de estado y envíos (quién, cuando)',
  tags,
  access: { permission: 'Agreements.view' },
  target: agreementResource,
  async handler({ id, db }) {
    return agreementHistory(db, id);
  },
});

const comment = defineAction({
  ...calls.comment,
  summary: 'Agrega un comentario al historial (y opcionalmente cambia el estado)',
  tags,
  access: { permission: 'Agreements.update' },
  target: agreementResource,
  audit: { resource: 'agreements', action: 'comment' },
  async handler({ id, body, user, target, db, write }) {
    await write(
      (tx) => addComment(tx, user, target, body.comment, body.status),
      () => ({
        before: { status: target.status },
        after: { comment: body.comment, status: body.status ?? target.status },
      }),
    );
    return {
      agreement: await findOne(db, agreementResource, id, user),
      history: await agreementHistory(db, id),
    };
  },
});

const notify = defineAction({
  ...calls.notify,
  summary: 'Envía el acuerdo por correo a los contactos del concesionario; el historial registra a quién',
  tags,
  access: { permission: 'Agreements.store' },
  audit: { resource: 'agreements', action: 'notify' },
  async handler({ app, body, user, db, write }) {
    // The agreement within the caller's dealer scope: another dealer's id is not found.
    const agreement = await findOne(db, agreementResource, body.agreement_id, user);
    if (!agreement) throw new NotFoundError('El acuerdo no existe');
    return notifyAgreement(
      mailContext(app),
      user,
      agreement,
      {
        contactIds: body.contact_ids,
        message: body.message,
        link: `${app.ctx.config.publicUrl}/agreement?record=${agreement.id}`,
      },
      (fn) =>
        write(fn, (r) => ({
          recordId: agreement.id,
          after: { recipients: r.recipients.map((x) => x.email), sent: r.sent, pending: r.pending },
        })),
    );
  },
});

const summary = defineAction({
  ...calls.summary,
  summary: 'Acuerdos abiertos por antigüedad (en plazo, 1-30, 31-60, 61-90, más de 90 días) y por estado',
  tags,
  access: { permission: 'Agreements.view' },
  // The year is optional here: without it, every agreement (the screen's summary above its list).
  async handler({ query, scope, db }) {
    return agreementsByAge(db, scope, {
      zoneId: query.zone_id,
      year: query.year,
      month: query.month,
    });
  },
});

export const agreementActions = [levels, statuses, history, comment, notify, summary];
