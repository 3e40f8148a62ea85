// Satisfaction survey calls: invitations, the public survey, alerts, statistics, and the mail
// outbox screen. Questionnaires themselves are declared resources (quiz.resources.ts).

import { alertReplySchema, publicAnswerSchema, salesQuizRequestSchema } from '@app/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { currentUser, DOWNLOAD_ROUTE, requirePermission } from '../../core/auth';
import type { CurrentUser } from '../../core/context';
import { ok } from '../../core/envelope';
import { ConflictError, NotFoundError, ValidationError } from '../../core/errors';
import { parseBody, parseId, type QueryParams, qInt, qs } from '../../core/http';
import { perAddressLimit } from '../../core/rate-limit';
import { defineModule } from '../../core/registry';
import { contentDisposition, loadExcel, neutralise } from '../../core/xlsx';
import { flushOutbox, type MailContext, resolveSmtpUrl } from '../mail/mail.service';
import { withAnswers } from './quiz.answers';
import { requestInvitations } from './quiz.invitations';
import { getPublicQuiz, submitPublicAnswers } from './quiz.public';
import { questionResource, quizResource } from './quiz.resources';
import { periodRange, type StatsFilter, tableStats } from './quiz.stats';

export function mailContext(app: FastifyInstance): MailContext {
  return { handle: app.ctx.handle, smtpUrl: app.ctx.config.smtpUrl, log: app.log };
}

async function statsFilter(
  app: FastifyInstance,
  request: FastifyRequest,
  user: CurrentUser,
): Promise<StatsFilter> {
  const q = request.query as QueryParams;
  const year = qInt(q, 'year', 'Año', 2000, 2100) ?? new Date().getUTCFullYear();
  const month = qInt(q, 'month', 'Mes', 0, 12) || undefined;
  let manufacturerId: number | undefined;
  const m = qs(q, 'manufacturer');
  if (m && m !== '0') {
    const [row] = await app.ctx.handle.query<{ id: number }>(
      /^\d+$/.test(m)
        ? 'select id from manufacturers where id = $1'
        : 'select id from manufacturers where code = upper($1)',
      [/^\d+$/.test(m) ? Number(m) : m],
    );
    if (!row) throw ValidationError.field('manufacturer', 'Marca no existe');
    manufacturerId = row.id;
  }
  const dealer = qInt(q, 'dealer_id', 'Concesionario', 0, 2147483647) || undefined;
  return { year, month, manufacturerId, dealerId: user.dealerId ?? dealer };
}

const pct = (v: number | null) => (v === null ? null : Math.round(v * 1000) / 10);

export function quizRoutes(app: FastifyInstance): void {
  const handle = () => app.ctx.handle;
  const tags = ['Satisfaccion'];

  app.post(
    '/api/sales-quiz-request',
    {
      preHandler: requirePermission('Sales.update'),
      schema: { tags, summary: 'Envia invitaciones (o recordatorios) de encuesta a las ventas elegidas' },
    },
    async (request) => {
      const user = currentUser(request);
      const body = parseBody(salesQuizRequestSchema, request.body);
      return ok(
        await requestInvitations(
          { handle: handle(), mail: mailContext(app), publicUrl: app.ctx.config.publicUrl },
          body,
          user,
        ),
      );
    },
  );

  // ---- public survey (no login) ----
  app.get(
    '/api/public/quiz/:token',
    {
      config: { rateLimit: perAddressLimit('survey') },
      schema: { tags, summary: 'Encuesta publica por token' },
    },
    async (request) => {
      return ok(await getPublicQuiz(handle(), (request.params as { token: string }).token));
    },
  );

  app.post(
    '/api/public/quiz/:token',
    {
      config: { rateLimit: perAddressLimit('survey') },
      schema: { tags, summary: 'Responde la encuesta publica (una sola vez)' },
    },
    async (request) => {
      const body = parseBody(publicAnswerSchema, request.body);
      const out = await submitPublicAnswers(
        handle(),
        mailContext(app),
        (request.params as { token: string }).token,
        body,
      );
      return ok({ saved: true, response_id: out.response_id, message: 'Gracias por responder la encuesta' });
    },
  );

  // ---- responses, enriched with their questions ----
  app.get(
    '/api/quiz-responses',
    {
      preHandler: requirePermission('Quizzes.view'),
      schema: { tags, summary: 'Respuestas de encuesta con sus preguntas (paginado)' },
    },
    async (request) => {
      const user = currentUser(request);
      const q = request.query as QueryParams;
      const page = qInt(q, 'page', 'Pagina', 1, 1_000_000) ?? 1;
      const perPage = qInt(q, 'perPage', 'Por pagina', 1, 100) ?? 10;
      const params: unknown[] = [];
      const where: string[] = [];
      const add = (cond: string, value: unknown) => {
        params.push(value);
        where.push(cond.replace('?', `$${params.length}`));
      };
      const dealer = user.dealerId ?? (qInt(q, 'dealer_id', 'Concesionario', 0, 2147483647) || undefined);
      if (dealer) add('r.dealer_id = ?', dealer);
      const quizId = qInt(q, 'quiz_id', 'Encuesta', 0, 2147483647);
      if (quizId) add('r.quiz_id = ?', quizId);
      const saleId = qInt(q, 'sale_id', 'Venta', 0, 2147483647);
      if (saleId) add('r.sale_id = ?', saleId);
      const year = qInt(q, 'year', 'Año', 2000, 2100);
      const month = qInt(q, 'month', 'Mes', 0, 12);
      if (year) {
        const [from, to] = periodRange(year, month || undefined);
        add('s.sale_date >= ?::date', from);
        add('s.sale_date < ?::date', to);
      }
      const cond = where.length ? `where ${where.join(' and ')}` : '';
      const from = `from quiz_responses r join sales s on s.id = r.sale_id join dealers d on d.id = r.dealer_id
        join quizzes qz on qz.id = r.quiz_id ${cond}`;
      const [{ total }] = await handle().query<{ total: number }>(
        `select count(*)::int as total ${from}`,
        params,
      );
      const data = await handle().query<{ id: number }>(
        `select r.id, r.quiz_id, qz.title as quiz_title, qz.kind as quiz_kind, r.sale_id, s.vin, s.buyer_name,
           s.model_name, r.dealer_id, d.name as dealer_name, r.answered_at
         ${from} order by r.answered_at desc, r.id desc limit ${perPage} offset ${(page - 1) * perPage}`,
        params,
      );
      return ok({
        total,
        data: await withAnswers(handle().db, data),
      });
    },
  );

  // ---- alerts (a rating at the lowest level) ----
  app.get(
    '/api/quiz-alerts',
    {
      preHandler: requirePermission('Quizzes.view'),
      schema: { tags, summary: 'Alertas de encuesta con su antiguedad' },
    },
    async (request) => {
      const user = currentUser(request);
      const q = request.query as QueryParams;
      const status = qs(q, 'status') ?? 'open';
      if (!['open', 'closed', 'all'].includes(status))
        throw ValidationError.field('status', 'Estado no es valido (open, closed, all)');
      const params: unknown[] = [];
      const where: string[] = [];
      const dealer = user.dealerId ?? (qInt(q, 'dealer_id', 'Concesionario', 0, 2147483647) || undefined);
      if (dealer) {
        params.push(dealer);
        where.push(`a.dealer_id = $${params.length}`);
      }
      if (status === 'open') where.push('a.closed_at is null');
      if (status === 'closed') where.push('a.closed_at is not null');
      const rows = await handle().query(
        `select a.id, a.dealer_id, d.name as dealer_name, a.sale_id, s.vin, s.buyer_name, s.email, s.phone,
           s.model_name, m.name as manufacturer_name, a.response_id, a.detail, a.opened_at, a.reply, a.replied_at,
           a.closed_at, ub.full_name as closed_by_name,
           floor(extract(epoch from (coalesce(a.closed_at, now()) - a.opened_at)) / 86400)::int as age_days
         from quiz_alerts a join dealers d on d.id = a.dealer_id join sales s on s.id = a.sale_id
         join manufacturers m on m.id = s.manufacturer_id left join users ub on ub.id = a.closed_by
         ${where.length ? `where ${where.join(' and ')}` : ''}
         order by a.closed_at is not null, a.opened_at asc limit 1000`,
        params,
      );
      return ok(rows);
    },
  );

  const loadAlert = async (request: FastifyRequest) => {
    const user = currentUser(request);
    const id = parseId((request.params as { id: string }).id);
    const [alert] = await handle().query<{ id: number; dealer_id: number; closed_at: Date | null }>(
      'select id, dealer_id, closed_at from quiz_alerts where id = $1',
      [id],
    );
    if (!alert || (user.dealerId !== null && alert.dealer_id !== user.dealerId)) throw new NotFoundError();
    return { user, alert };
  };

  app.put(
    '/api/quiz-alerts/:id/reply',
    {
      preHandler: requirePermission('Quizzes.view'),
      schema: { tags, summary: 'Respuesta del concesionario a una alerta' },
    },
    async (request) => {
      const { user, alert } = await loadAlert(request);
      const body = parseBody(alertReplySchema, request.body);
      if (alert.closed_at) throw new ConflictError('La alerta ya esta cerrada');
      const [row] = await handle().query(
        'update quiz_alerts set reply = $2, replied_at = now(), replied_by = $3 where id = $1 returning *',
        [alert.id, body.reply, user.id],
      );
      return ok(row);
    },
  );

  app.put(
    '/api/quiz-alerts/:id/close',
    {
      preHandler: requirePermission('Quizzes.view'),
      schema: { tags, summary: 'Cierra una alerta respondida' },
    },
    async (request) => {
      const { user, alert } = await loadAlert(request);
      const [row] = await handle().query<Record<string, unknown>>(
        `update quiz_alerts set closed_at = now(), closed_by = $2 where id = $1 and closed_at is null returning *`,
        [alert.id, user.id],
      );
      if (!row) throw new ConflictError('La alerta ya esta cerrada');
      if (!row.reply) {
        await handle().query('update quiz_alerts set closed_at = null, closed_by = null where id = $1', [
          alert.id,
        ]);
        throw ValidationError.field('reply', 'Responda la alerta antes de cerrarla');
      }
      return ok(row);
    },
  );

  // ---- statistics ----
  app.get(
    '/api/table-stats',
    {
      preHandler: requirePermission('Quizzes.view'),
      schema: { tags, summary: 'Cobertura, postventa y ranking' },
    },
    async (request) => {
      const user = currentUser(request);
      return ok(await tableStats(handle(), await statsFilter(app, request, user)));
    },
  );

  app.get(
    '/api/table-stats/export',
    {
      preHandler: requirePermission('Quizzes.export'),
      config: DOWNLOAD_ROUTE,
      schema: { tags, summary: 'Estadisticas de encuestas en .xlsx' },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const f = await statsFilter(app, request, user);
      const stats = await tableStats(handle(), f);
      const { Workbook } = await loadExcel();
      const wb = new Workbook();
      const sheet = (name: string, cols: [string, string][], rows: Record<string, unknown>[]) => {
        const ws = wb.addWorksheet(name);
        ws.columns = cols.map(([key, header]) => ({ key, header, width: key.includes('name') ? 32 : 16 }));
        ws.getRow(1).font = { bold: true };
        for (const r of rows) ws.addRow(cols.map(([k]) => neutralise(r[k])));
      };
      sheet(
        'Cobertura',
        [
          ['dealer_name', 'Concesionario'],
          ['sales', 'Ventas'],
          ['invitations', 'Invitaciones'],
          ['responses', 'Respuestas'],
          ['response_rate', '% Respuesta'],
          ['invalid_contacts', 'Contactos invalidos'],
          ['invalid_contact_rate', '% Contactos invalidos'],
        ],
        stats.cobertura.map((r) => ({
          ...r,
          response_rate: pct(r.response_rate),
          invalid_contact_rate: pct(r.invalid_contact_rate),
        })),
      );
      sheet(
        'Ranking',
        [
          ['position', 'Puesto'],
          ['dealer_name', 'Concesionario'],
          ['responses', 'Respuestas'],
          ['top_box', '% Top box'],
          ['average', 'Promedio (1-4)'],
          ['label', 'Observacion'],
        ],
        [...stats.ranking.ranked, ...stats.ranking.insufficient].map((r) => ({
          ...r,
          top_box: pct(r.top_box),
        })),
      );
      sheet(
        'Postventa',
        [
          ['dealer_name', 'Concesionario'],
          ['question', 'Pregunta'],
          ['responses', 'Respuestas'],
          ['average', 'Promedio (1-4)'],
          ['top_box', '% Top box'],
        ],
        stats.postventa.flatMap((p) => [
          {
            dealer_name: p.dealer_name,
            question: 'Total',
            responses: p.responses,
            average: p.average,
            top_box: pct(p.top_box),
          },
          ...p.questions.map((q) => ({
            dealer_name: p.dealer_name,
            question: q.question,
            responses: q.answers,
            average: q.average,
            top_box: pct(q.top_box),
          })),
        ]),
      );
      const period = `${f.year}${f.month ? `-${String(f.month).padStart(2, '0')}` : ''}`;
      const buf = Buffer.from(await wb.xlsx.writeBuffer());
      return reply
        .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', contentDisposition(`Satisfaccion_${period}.xlsx`))
        .send(buf);
    },
  );

  // ---- mail outbox (admin) ----
  app.get(
    '/api/mail-outbox',
    {
      preHandler: requirePermission('Admin.Preferences.view'),
      schema: { tags, summary: 'Correos guardados y enviados' },
    },
    async (request) => {
      const q = request.query as QueryParams;
      const page = qInt(q, 'page', 'Pagina', 1, 1_000_000) ?? 1;
      const perPage = qInt(q, 'perPage', 'Por pagina', 1, 100) ?? 10;
      const status = qs(q, 'status');
      if (status && !['pending', 'sent', 'failed'].includes(status))
        throw ValidationError.field('status', 'Estado no es valido (pending, sent, failed)');
      const params: unknown[] = status ? [status] : [];
      const where = status ? 'where status = $1' : '';
      const [{ total }] = await handle().query<{ total: number }>(
        `select count(*)::int as total from mail_outbox ${where}`,
        params,
      );
      const data = await handle().query(
        `select id, "to", subject, text, status, error, sent_at, created_at from mail_outbox ${where}
         order by id desc limit ${perPage} offset ${(page - 1) * perPage}`,
        params,
      );
      return ok({ total, data });
    },
  );

  app.post(
    '/api/mail-outbox/flush',
    {
      preHandler: requirePermission('Admin.Preferences.update'),
      schema: { tags, summary: 'Envia los correos pendientes (requiere SMTP configurado)' },
    },
    async () => {
      const ctx = mailContext(app);
      if (!(await resolveSmtpUrl(ctx))) {
        throw new ConflictError(
          'El correo no esta configurado: defina SMTP_URL (variable de entorno o configuracion) y vuelva a intentar',
        );
      }
      return ok(await flushOutbox(ctx));
    },
  );
}

export const quizModule = defineModule({
  name: 'quiz',
  resources: [quizResource, questionResource],
  routes: quizModuleRoutes,
});

function quizModuleRoutes(app: FastifyInstance): void {
  quizRoutes(app);
  // Mail kept while SMTP was missing goes out once the server starts with SMTP configured.
  app.addHook('onReady', async () => {
    const ctx = mailContext(app);
    if (!(await resolveSmtpUrl(ctx))) return;
    void flushOutbox(ctx).catch((err) => app.log.warn({ err }, 'no se pudo vaciar mail_outbox'));
  });
}
