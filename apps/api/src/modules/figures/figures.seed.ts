// The KPI catalogue a fresh install starts with: what an importer asks its dealers every month
// (sales, after-sales, parts, satisfaction). Written only while the catalogue is empty, so a
// concept the manufacturer removed or renamed is never brought back.
import { type ConceptAggregation, type ConceptUnit, UNIT_DECIMALS } from '@app/contracts';
import { count, sql } from 'drizzle-orm';
import type { Db } from '../../core/action';
import { withoutAccents } from '../../core/text';
import { concepts } from '../../db/schema';

type SeedConcept = {
  code: string;
  name: string;
  unit: ConceptUnit;
  group: string;
  higher_is_better?: boolean;
  /** Default: 'avg' for a '%' concept, else 'sum'. */
  aggregation?: ConceptAggregation;
  /** The plausible range of a dealer's month (the grid warns beyond it). */
  range: [number, number];
};

export const SEED_CONCEPTS: SeedConcept[] = [
  { code: 'VN_UND', name: 'Venta de vehículos nuevos', unit: 'UND', group: 'Ventas', range: [0, 2000] },
  { code: 'VN_FLOTA', name: 'Venta a flotas', unit: 'UND', group: 'Ventas', range: [0, 1000] },
  { code: 'VU_UND', name: 'Venta de vehículos usados', unit: 'UND', group: 'Ventas', range: [0, 1000] },
  {
    code: 'VN_PEN',
    name: 'Facturación de vehículos nuevos',
    unit: 'PEN',
    group: 'Ventas',
    range: [10_000, 500_000_000],
  },
  { code: 'TEST_DRIVE', name: 'Pruebas de manejo', unit: 'UND', group: 'Ventas', range: [0, 5000] },
  {
    code: 'CONV_PCT',
    name: 'Tasa de conversión de prospectos',
    unit: 'PCT',
    group: 'Ventas',
    range: [0, 100],
  },
  { code: 'OT_UND', name: 'Órdenes de trabajo', unit: 'UND', group: 'Postventa', range: [0, 20_000] },
  { code: 'HRS_VEND', name: 'Horas vendidas', unit: 'HRS', group: 'Postventa', range: [0, 50_000] },
  {
    code: 'MO_PEN',
    name: 'Facturación de mano de obra',
    unit: 'PEN',
    group: 'Postventa',
    range: [1000, 20_000_000],
  },
  { code: 'EFIC_PCT', name: 'Eficiencia del taller', unit: 'PCT', group: 'Postventa', range: [0, 200] },
  {
    code: 'PERM_DIAS',
    name: 'Días promedio de permanencia en taller',
    unit: 'DIA',
    group: 'Postventa',
    higher_is_better: false,
    aggregation: 'avg',
    range: [0, 60],
  },
  {
    code: 'REP_MOST',
    name: 'Venta de repuestos en mostrador',
    unit: 'PEN',
    group: 'Repuestos',
    range: [1000, 20_000_000],
  },
  {
    code: 'REP_TALLER',
    name: 'Venta de repuestos en taller',
    unit: 'PEN',
    group: 'Repuestos',
    range: [1000, 20_000_000],
  },
  { code: 'ACC_PEN', name: 'Venta de accesorios', unit: 'PEN', group: 'Repuestos', range: [100, 10_000_000] },
  { code: 'CSI_VTA', name: 'CSI ventas', unit: 'PCT', group: 'Satisfacción', range: [0, 100] },
  { code: 'CSI_PV', name: 'CSI postventa', unit: 'PCT', group: 'Satisfacción', range: [0, 100] },
  {
    code: 'RECLAMOS',
    name: 'Reclamos recibidos',
    unit: 'UND',
    group: 'Satisfacción',
    higher_is_better: false,
    range: [0, 500],
  },
];

export async function seedConcepts(db: Db): Promise<number> {
  const [{ n }] = await db.select({ n: count() }).from(concepts);
  if (n > 0) {
    // Earlier versions wrote these names without accents: a name nobody renamed gets them.
    const renamed = SEED_CONCEPTS.map(({ code, name }) => ({
      code,
      name,
      plain: withoutAccents(name),
    })).filter((c) => c.plain !== c.name);
    if (renamed.length)
      await db.execute(sql`UPDATE concepts c SET name = v.name
        FROM jsonb_to_recordset(${JSON.stringify(renamed)}::jsonb) AS v(code text, name text, plain text)
        WHERE c.code = v.code AND c.name = v.plain`);
    return 0;
  }
  const rows = await db
    .insert(concepts)
    .values(
      SEED_CONCEPTS.map(({ range, ...c }, i) => ({
        ...c,
        decimals: UNIT_DECIMALS[c.unit],
        plausible_min: range[0],
        plausible_max: range[1],
        order: (i + 1) * 10,
        higher_is_better: c.higher_is_better ?? true,
        aggregation: c.aggregation ?? (c.unit === 'PCT' ? 'avg' : 'sum'),
      })),
    )
    .onConflictDoNothing()
    .returning({ id: concepts.id });
  return rows.length;
}
