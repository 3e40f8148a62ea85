// The KPI catalogue a fresh install starts with: what an importer asks its dealers every month
// (sales, after-sales, parts, satisfaction). Written only while the catalogue is empty, so a
// concept the manufacturer removed or renamed is never brought back.
import type { ConceptAggregation, ConceptUnit } from '@app/contracts';
import { count } from 'drizzle-orm';
import type { Db } from '../../core/action';
import { concepts } from '../../db/schema';

type SeedConcept = {
  code: string;
  name: string;
  unit: ConceptUnit;
  group: string;
  higher_is_better?: boolean;
  /** Default: 'avg' for a '%' concept, else 'sum'. */
  aggregation?: ConceptAggregation;
};

export const SEED_CONCEPTS: SeedConcept[] = [
  { code: 'VN_UND', name: 'Venta de vehiculos nuevos', unit: 'UND', group: 'Ventas' },
  { code: 'VN_FLOTA', name: 'Venta a flotas', unit: 'UND', group: 'Ventas' },
  { code: 'VU_UND', name: 'Venta de vehiculos usados', unit: 'UND', group: 'Ventas' },
  { code: 'VN_PEN', name: 'Facturacion de vehiculos nuevos', unit: 'PEN', group: 'Ventas' },
  { code: 'TEST_DRIVE', name: 'Pruebas de manejo', unit: 'UND', group: 'Ventas' },
  { code: 'CONV_PCT', name: 'Tasa de conversion de prospectos', unit: 'PCT', group: 'Ventas' },
  { code: 'OT_UND', name: 'Ordenes de trabajo', unit: 'UND', group: 'Postventa' },
  { code: 'HRS_VEND', name: 'Horas vendidas', unit: 'HRS', group: 'Postventa' },
  { code: 'MO_PEN', name: 'Facturacion de mano de obra', unit: 'PEN', group: 'Postventa' },
  { code: 'EFIC_PCT', name: 'Eficiencia del taller', unit: 'PCT', group: 'Postventa' },
  {
    code: 'PERM_DIAS',
    name: 'Dias promedio de permanencia en taller',
    unit: 'UND',
    group: 'Postventa',
    higher_is_better: false,
    aggregation: 'avg',
  },
  { code: 'REP_MOST', name: 'Venta de repuestos en mostrador', unit: 'PEN', group: 'Repuestos' },
  { code: 'REP_TALLER', name: 'Venta de repuestos en taller', unit: 'PEN', group: 'Repuestos' },
  { code: 'ACC_PEN', name: 'Venta de accesorios', unit: 'PEN', group: 'Repuestos' },
  { code: 'CSI_VTA', name: 'CSI ventas', unit: 'PCT', group: 'Satisfaccion' },
  { code: 'CSI_PV', name: 'CSI postventa', unit: 'PCT', group: 'Satisfaccion' },
  {
    code: 'RECLAMOS',
    name: 'Reclamos recibidos',
    unit: 'UND',
    group: 'Satisfaccion',
    higher_is_better: false,
  },
];

export async function seedConcepts(db: Db): Promise<number> {
  const [{ n }] = await db.select({ n: count() }).from(concepts);
  if (n > 0) return 0;
  const rows = await db
    .insert(concepts)
    .values(
      SEED_CONCEPTS.map((c, i) => ({
        ...c,
        order: (i + 1) * 10,
        higher_is_better: c.higher_is_better ?? true,
        aggregation: c.aggregation ?? (c.unit === 'PCT' ? 'avg' : 'sum'),
      })),
    )
    .onConflictDoNothing()
    .returning({ id: concepts.id });
  return rows.length;
}
