// The CEM calls beyond CRUD, declared on the engine (core/action): the import (its template,
// upload and JSON batch: sales.import.ts), the pull from the external sales API, the dealers with sales in a
// period, and the survey invitations and answers of one sale.
import { salesCalls as calls } from '@app/contracts';
import { and, asc, count, eq, lte, type SQL, sql } from 'drizzle-orm';
import { fetchSalesFromApi } from '../../connectors/sales-api';
import { defineAction } from '../../core/action';
import { dealers } from '../../db/schema';
import { withAnswers } from '../quiz/quiz.answers';
import { quizInvitations, quizResponses, quizzes } from '../quiz/quiz.tables';
import { rowsFromObjects, salesImport } from './sales.import';
import { saleResource } from './sales.resources';
import { sales } from './sales.tables';

const tags = ['CEM'];

const pull = defineAction({
  ...calls.pull,
  summary: 'Trae las ventas del sistema externo (URL en Preferencias) y las guarda',
  tags,
  access: { permission: 'Sales.store' },
  audit: { pipeline: 'insertSales: todas las filas y una fila de auditoría (sales-api) en una transacción' },
  async handler({ body, user, scope, db }) {
    // A dealer user pulls its own dealer's sales only (the call's scope: its dealer, by code).
    let dealerCode: string | undefined;
    if (scope.dealerId !== undefined) {
      const [d] = await db.select({ code: dealers.code }).from(dealers).where(eq(dealers.id, scope.dealerId));
      dealerCode = d?.code;
    }
    const objects = await fetchSalesFromApi(db, { ...body, dealer_code: dealerCode });
    if (objects.length === 0) return { saved: 0, total: 0, failed: 0, report: [] };
    return salesImport.run({ db, user, query: {}, source: 'sales-api' }, rowsFromObjects(objects));
  },
});

const saleDealers = defineAction({
  ...calls.dealers,
  summary: 'Concesionarios con ventas en el periodo',
  tags,
  access: { permission: 'Sales.view' },
  async handler({ query, scope, db }) {
    const { year, month } = query;
    const where: (SQL | undefined)[] = [scope.on(sales.dealer_id)];
    if (year) where.push(sql`extract(year from ${sales.sale_date}) = ${year}`);
    if (month) where.push(sql`extract(month from ${sales.sale_date}) = ${month}`);
    return db
      .select({ id: dealers.id, code: dealers.code, name: dealers.name, sales: count() })
      .from(sales)
      .innerJoin(dealers, eq(dealers.id, sales.dealer_id))
      .where(and(...where))
      .groupBy(dealers.id, dealers.code, dealers.name)
      .orderBy(asc(dealers.name));
  },
});

const saleResponses = defineAction({
  ...calls.responses,
  summary: 'Invitaciones y respuestas de encuesta de una venta',
  tags,
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

export const salesActions = [...salesImport.actions, pull, saleDealers, saleResponses];
