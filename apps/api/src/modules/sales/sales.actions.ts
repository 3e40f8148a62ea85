// The CEM calls beyond CRUD, declared on the engine (core/action): the import (its template,
// upload and JSON batch: sales.import.ts), the pull from the external sales API and the dealers with sales in a
// period. A sale's survey invitations and answers are the quiz module's (quiz/quiz.sale.ts).
import { salesCalls as calls } from '@app/contracts';
import { and, asc, count, eq, type SQL, sql } from 'drizzle-orm';
import { fetchSalesFromApi } from '../../connectors/sales-api';
import { defineAction } from '../../core/action';
import { dealers } from '../../db/schema';
import { rowsFromObjects, salesImport } from './sales.import';
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

export const salesActions = [...salesImport.actions, pull, saleDealers];
