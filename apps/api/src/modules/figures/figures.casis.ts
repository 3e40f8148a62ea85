// The CASIS pull of a month: every figure CASIS answers is read and checked before anything is
// written (dealer known and in the caller's scope, concept active, a number); one wrong row and
// nothing is saved, with the report. Figures of a month that is not enabled are skipped and
// reported, never written. The rest goes in one transaction with its audit row.
import { conceptValueError, type GridDealer, type GridImportReport, periodName } from '@app/contracts';
import { fetchCasisFigures } from '../../connectors/casis';
import type { Db } from '../../core/action';
import { writeAudit } from '../../core/audit';
import type { CurrentUser } from '../../core/context';
import type { Scope } from '../../core/scope';
import { assertPeriods, type Cell, writeCells } from './figures.cells';
import { periodStates } from './figures.periods';
import { activeConcepts, scopedDealers } from './figures.scope';

const code = (v: unknown) =>
  typeof v === 'string' || typeof v === 'number' ? String(v).trim().toUpperCase() : '';

function numberOf(v: unknown): number | undefined {
  if (v === null || v === undefined || v === '') return undefined;
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v.replace(/,/g, '')) : Number.NaN;
  return Number.isFinite(n) && Math.abs(n) < 1e14 ? n : undefined;
}

export async function pullCasis(
  db: Db,
  user: CurrentUser,
  scope: Scope,
  year: number,
  month: number,
  dealer: GridDealer | null,
): Promise<GridImportReport> {
  const list = await fetchCasisFigures(
    db,
    { year, month, dealer_code: dealer?.code },
    user.permissions.has('Admin.Preferences.view') ? 'configures' : 'user',
  );
  const reach = dealer ? [dealer] : await scopedDealers(db, scope);
  const byCode = new Map(reach.map((d) => [d.code.toUpperCase(), d]));
  const inScope = new Set(reach.map((d) => d.id));
  // Asked for one dealer (a dealer user's own, held by the engine), rows of others are not this pull's.
  const narrowed = !!dealer;
  const concepts = new Map((await activeConcepts(db)).map((c) => [c.code.toUpperCase(), c]));
  const states = new Map(
    (await periodStates(db, year, [...inScope], month)).map((p) => [p.dealer_id, p.status]),
  );
  const report: GridImportReport['report'] = [];
  const cells = new Map<string, Cell>();
  let skipped = 0;
  list.forEach((r, i) => {
    const row = i + 1;
    const d = byCode.get(code(r.dealer_code));
    if (!d && narrowed && code(r.dealer_code)) {
      skipped++;
      report.push({
        row,
        ok: true,
        message: `Omitida: ${code(r.dealer_code)} no es el concesionario pedido`,
      });
      return;
    }
    const c = concepts.get(code(r.concept_code));
    const value = numberOf(r.value);
    const problems: string[] = [];
    if (!d) problems.push(`El concesionario "${String(r.dealer_code ?? '')}" no existe`);
    if (!c) problems.push(`El concepto "${String(r.concept_code ?? '')}" no existe o no está habilitado`);
    if (value === undefined) problems.push(`El valor "${String(r.value ?? '')}" no es un número`);
    else if (c) {
      const wrong = conceptValueError(c, value);
      if (wrong) problems.push(`${c.name}: ${wrong} (CASIS envió ${value})`);
    }
    if (problems.length) {
      report.push({ row, ok: false, message: problems.join('; ') });
      return;
    }
    const status = states.get(d!.id) ?? 'closed';
    if (status !== 'enabled') {
      skipped++;
      report.push({
        row,
        ok: true,
        message: `Omitida: el periodo ${periodName(year, month, d!.code)} está ${status === 'confirmed' ? 'confirmado' : 'cerrado'}`,
      });
      return;
    }
    cells.set(`${d!.id}:${c!.id}`, { dealer_id: d!.id, concept_id: c!.id, month, value: value! });
  });
  const failed = report.filter((x) => !x.ok).length;
  const total = list.length;
  if (failed) return { saved: 0, total, failed, skipped, report };
  const all = [...cells.values()];
  if (all.length) {
    const byId = new Map(reach.map((d) => [d.id, d]));
    await db.transaction(async (tx) => {
      await assertPeriods(tx, year, all, byId, ['enabled']);
      await writeCells(tx, 'figures', year, all, user.id, 'casis');
      await writeAudit(tx, {
        user,
        resource: 'figure-values',
        recordId: null,
        action: 'casis',
        after: { year, month, cells: all.length, dealers: new Set(all.map((x) => x.dealer_id)).size },
      });
    });
  }
  return { saved: all.length, total, failed: 0, skipped, report };
}
