// The survey calls beyond its resources, declared on the engine (core/action): invitations for
// sales, the public survey (no login, per-address limit), the reply and close of an alert
// (target: the alert within the caller's dealer scope; audited), and the statistics with their
// .xlsx export.
import { quizCalls as calls, excelFormat, QUERY_LABELS, REPORT_QUERIES } from '@app/contracts';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { type Db, defineAction } from '../../core/action';
import { ConflictError, ValidationError } from '../../core/errors';
import type { Scope } from '../../core/scope';
import { contentDisposition, loadExcel, neutralise, textCells, XLSX_TYPE } from '../../core/xlsx';
import { manufacturers } from '../../db/schema';
import { mailContext } from '../mail/mail.service';
import { requestInvitations } from './quiz.invitations';
import { getPublicQuiz, submitPublicAnswers } from './quiz.public';
import { alertResource } from './quiz.resources';
import { type StatsFilter, tableStats } from './quiz.stats';
import { quizAlerts } from './quiz.tables';

const tags = ['Satisfacción'];

const requestSurveys = defineAction({
  ...calls.request,
  summary: 'Envía invitaciones (o recordatorios) de encuesta a las ventas elegidas',
  tags,
  access: { permission: 'Sales.update' },
  // All invitations and reminders in one transaction, with one audit row (how many).
  audit: { resource: 'sales', action: 'invite' },
  // The dealer of its filters is declared (contracts): the engine holds a dealer user to its own.
  async handler({ app, db, body, scope, write }) {
    return requestInvitations(
      { db, mail: mailContext(app), publicUrl: app.ctx.config.publicUrl, write },
      body,
      scope,
    );
  },
});

// ---- public survey (no login) ----

const publicQuiz = defineAction({
  ...calls.publicQuiz,
  summary: 'Encuesta pública por token',
  tags,
  access: 'public',
  rateLimit: 'survey',
  async handler({ db, params }) {
    return getPublicQuiz(db, params.token);
  },
});

const publicAnswer = defineAction({
  ...calls.answer,
  summary: 'Responde la encuesta pública (una sola vez)',
  tags,
  access: 'public',
  audit: { exempt: 'La respuesta del comprador a su encuesta (público, sin usuario del personal)' },
  rateLimit: 'survey',
  async handler({ app, db, params, body }) {
    const out = await submitPublicAnswers(db, mailContext(app), params.token, body);
    return { saved: true, response_id: out.response_id, message: 'Gracias por responder la encuesta' };
  },
});

// ---- alerts: the dealer's reply, then the close ----

const ALREADY_CLOSED = 'La alerta ya está cerrada';

const replyAlert = defineAction({
  ...calls.reply,
  summary: 'Respuesta del concesionario a una alerta',
  tags,
  access: { permission: 'Quizzes.view' },
  target: alertResource,
  audit: { resource: alertResource.name, action: 'reply' },
  async handler({ id, target, body, user, write }) {
    if (target.closed_at) throw new ConflictError(ALREADY_CLOSED);
    return write(async (tx) => {
      const [row] = await tx
        .update(quizAlerts)
        .set({ reply: body.reply, replied_at: sql`now()`, replied_by: user.id })
        .where(and(eq(quizAlerts.id, id), isNull(quizAlerts.closed_at)))
        .returning();
      if (!row) throw new ConflictError(ALREADY_CLOSED);
      return row;
    });
  },
});

const closeAlert = defineAction({
  ...calls.close,
  summary: 'Cierra una alerta respondida',
  tags,
  access: { permission: 'Quizzes.view' },
  target: alertResource,
  audit: { resource: alertResource.name, action: 'close' },
  async handler({ id, user, write }) {
    return write(async (tx) => {
      const [row] = await tx
        .update(quizAlerts)
        .set({ closed_at: sql`now()`, closed_by: user.id })
        .where(and(eq(quizAlerts.id, id), isNull(quizAlerts.closed_at)))
        .returning();
      if (!row) throw new ConflictError(ALREADY_CLOSED);
      // Thrown inside the transaction: the close is undone.
      if (!row.reply) throw ValidationError.field('reply', 'Responda la alerta antes de cerrarla');
      return row;
    });
  },
});

// ---- statistics ----

const statsQuery = REPORT_QUERIES.tableStats;

async function statsFilter(db: Db, q: z.output<typeof statsQuery>, scope: Scope): Promise<StatsFilter> {
  let manufacturerId: number | undefined;
  const m = q.manufacturer;
  if (m) {
    const byId = /^\d{1,10}$/.test(m) && Number(m) <= 2147483647;
    const [row] = await db
      .select({ id: manufacturers.id })
      .from(manufacturers)
      .where(byId ? eq(manufacturers.id, Number(m)) : eq(manufacturers.code, m.toUpperCase()));
    if (!row) throw ValidationError.field('manufacturer', 'Marca no existe');
    manufacturerId = row.id;
  }
  return {
    year: q.year,
    month: q.month ?? undefined,
    manufacturerId,
    scope,
  };
}

const stats = defineAction({
  ...calls.stats,
  summary: 'Cobertura, postventa y ranking',
  tags,
  access: { permission: 'Quizzes.view' },
  async handler({ db, query, scope }) {
    return tableStats(db, await statsFilter(db, query, scope));
  },
});

/** The exact fraction, shown as a percentage with one decimal by the cell's format. */
const PERCENT_FORMAT = excelFormat('percent');

const statsExport = defineAction({
  ...calls.statsExport,
  summary: 'Estadísticas de encuestas en .xlsx',
  tags,
  access: { permission: 'Quizzes.export' },
  download: true,
  raw: true,
  async handler({ db, query, scope, reply }) {
    const f = await statsFilter(db, query, scope);
    const stats = await tableStats(db, f, { exact: true });
    const { Workbook } = await loadExcel();
    const wb = new Workbook();
    const sheet = (name: string, cols: [string, string][], rows: readonly object[]) => {
      const ws = wb.addWorksheet(name);
      ws.columns = cols.map(([key, header]) => ({
        key,
        header,
        width: key.includes('name') ? 32 : 16,
        style:
          key.endsWith('rate') || key === 'top_box'
            ? { numFmt: PERCENT_FORMAT }
            : key === 'average'
              ? { numFmt: '0.00' }
              : {},
      }));
      ws.getRow(1).font = { bold: true };
      for (const r of rows)
        textCells(ws.addRow(cols.map(([k]) => neutralise((r as Record<string, unknown>)[k]))));
    };
    sheet(
      'Cobertura',
      [
        ['dealer_name', QUERY_LABELS.dealer],
        ['sales', 'Ventas'],
        ['invitations', 'Invitaciones'],
        ['responses', 'Respuestas'],
        ['response_rate', '% Respuesta'],
        ['invalid_contacts', 'Contactos inválidos'],
        ['invalid_contact_rate', '% Contactos inválidos'],
      ],
      stats.cobertura,
    );
    sheet(
      'Ranking',
      [
        ['position', 'Puesto'],
        ['dealer_name', QUERY_LABELS.dealer],
        ['responses', 'Respuestas'],
        ['top_box', '% Top box'],
        ['average', 'Promedio (1-4)'],
        ['label', 'Observación'],
      ],
      [...stats.ranking.ranked, ...stats.ranking.insufficient],
    );
    sheet(
      'Postventa',
      [
        ['dealer_name', QUERY_LABELS.dealer],
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
          top_box: p.top_box,
        },
        ...p.questions.map((q) => ({
          dealer_name: p.dealer_name,
          question: q.question,
          responses: q.answers,
          average: q.average,
          top_box: q.top_box,
        })),
      ]),
    );
    const period = `${f.year}${f.month ? `-${String(f.month).padStart(2, '0')}` : ''}`;
    const buf = Buffer.from(await wb.xlsx.writeBuffer());
    return reply
      .header('content-type', XLSX_TYPE)
      .header('content-disposition', contentDisposition(`Satisfaccion_${period}.xlsx`))
      .send(buf);
  },
});

export const quizActions = [
  requestSurveys,
  publicQuiz,
  publicAnswer,
  replyAlert,
  closeAlert,
  stats,
  statsExport,
];
