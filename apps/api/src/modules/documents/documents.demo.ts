// Demo library of the extranet (seed/demo.ts calls it): the category tree (Comercial, Posventa,
// Marketing, Garantias, Capacitacion, some with subfolders) and 28 documents over the last
// twelve months with small real files (one-page PDFs, small .xlsx price lists and plans): most
// for every dealer, some for chosen dealers (the north, the south, one dealer), three expired,
// two scheduled for the coming days, one disabled; read marks that vary by dealer (the ones
// ahead read almost everything, those behind little). Deterministic, written once: a second
// run finds the demo documents and does nothing.
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { DOCUMENT_FILE_TYPES } from '@app/contracts';
import { eq, inArray } from 'drizzle-orm';
import { demoPast, demoSequence } from '../../core/demo-random';
import { limaToday, nowMs } from '../../core/lima';
import type { FileStorage } from '../../core/storage';
import type { DatabaseHandle } from '../../db/client';
import { categories, dealers, users } from '../../db/schema';
import { samplePdf, sampleXlsx } from './documents.samples';
import { documentDealers, documentFiles, documentReads, documents } from './documents.tables';

const TREE: { name: string; description: string; parent?: string }[] = [
  { name: 'Comercial', description: 'Políticas, precios y condiciones comerciales' },
  { name: 'Listas de precios', description: 'Precios de venta al público por modelo', parent: 'Comercial' },
  { name: 'Políticas comerciales', description: 'Bonos, descuentos y condiciones', parent: 'Comercial' },
  { name: 'Posventa', description: 'Taller, repuestos y servicio' },
  {
    name: 'Boletines técnicos',
    description: 'Boletines de servicio y campañas técnicas',
    parent: 'Posventa',
  },
  {
    name: 'Manuales de servicio',
    description: 'Procedimientos y tiempos de mano de obra',
    parent: 'Posventa',
  },
  { name: 'Marketing', description: 'Campañas, piezas gráficas y lineamientos de marca' },
  { name: 'Garantías', description: 'Política y procedimiento de garantías' },
  { name: 'Capacitación', description: 'Cursos, calendarios y material de entrenamiento' },
];

const NORTH = ['TRU01', 'CHI01', 'PIU01', 'CAJ01'];
const SOUTH = ['AQP01', 'AQP02', 'CUS01', 'TAC01'];

interface DemoDoc {
  title: string;
  category: string;
  /** Days before today it was published (negative: scheduled ahead). */
  ago: number;
  /** Days it stays published (none: no expiry). */
  lasts?: number;
  /** Chosen dealers (none: every dealer). */
  to?: string[];
  files: ('pdf' | 'xlsx')[];
  description?: string;
  active?: boolean;
}

const DOCS: DemoDoc[] = [
  {
    title: 'Política comercial 2026',
    category: 'Políticas comerciales',
    ago: 330,
    files: ['pdf'],
    description: 'Condiciones de venta, márgenes y bonos por cumplimiento del año.',
  },
  {
    title: 'Lista de precios - enero',
    category: 'Listas de precios',
    ago: 325,
    lasts: 60,
    files: ['xlsx', 'pdf'],
  },
  {
    title: 'Manual de garantías (versión 4)',
    category: 'Garantías',
    ago: 310,
    files: ['pdf'],
    description: 'Plazos, coberturas y documentos que se presentan con cada reclamo.',
  },
  {
    title: 'Calendario de capacitación - primer semestre',
    category: 'Capacitación',
    ago: 300,
    files: ['xlsx'],
  },
  {
    title: 'Boletín técnico 01: actualización de software del módulo de motor',
    category: 'Boletines técnicos',
    ago: 280,
    files: ['pdf'],
  },
  {
    title: 'Campaña verano: piezas y lineamientos',
    category: 'Marketing',
    ago: 270,
    lasts: 75,
    files: ['pdf'],
  },
  {
    title: 'Tiempos estándar de mano de obra',
    category: 'Manuales de servicio',
    ago: 250,
    files: ['xlsx'],
    description: 'Horas estándar por operación para facturar mano de obra.',
  },
  { title: 'Lista de precios - abril', category: 'Listas de precios', ago: 235, lasts: 90, files: ['xlsx'] },
  {
    title: 'Bono de cumplimiento zona norte',
    category: 'Políticas comerciales',
    ago: 220,
    to: NORTH,
    files: ['pdf'],
  },
  {
    title: 'Boletín técnico 02: revisión de frenos delanteros',
    category: 'Boletines técnicos',
    ago: 205,
    files: ['pdf'],
  },
  { title: 'Procedimiento de reclamo de garantía en línea', category: 'Garantías', ago: 190, files: ['pdf'] },
  {
    title: 'Campaña Fiestas Patrias',
    category: 'Marketing',
    ago: 150,
    files: ['pdf', 'xlsx'],
    description: 'Precios especiales de julio y materiales para el salon.',
  },
  { title: 'Curso de asesores de servicio - material', category: 'Capacitación', ago: 140, files: ['pdf'] },
  { title: 'Lista de precios - julio', category: 'Listas de precios', ago: 135, files: ['xlsx'] },
  {
    title: 'Feria automotriz del sur: participación',
    category: 'Marketing',
    ago: 120,
    to: SOUTH,
    files: ['pdf'],
  },
  {
    title: 'Boletín técnico 03: campaña de reemplazo de sensor',
    category: 'Boletines técnicos',
    ago: 110,
    files: ['pdf'],
    description: 'Campaña de servicio: reemplazo preventivo del sensor de oxígeno.',
  },
  {
    title: 'Calendario de capacitación - segundo semestre',
    category: 'Capacitación',
    ago: 100,
    files: ['xlsx'],
  },
  { title: 'Plan de incentivos a vendedores', category: 'Políticas comerciales', ago: 80, files: ['pdf'] },
  { title: 'Lista de precios - octubre', category: 'Listas de precios', ago: 45, files: ['xlsx', 'pdf'] },
  {
    title: 'Boletín técnico 04: mantenimiento de aire acondicionado',
    category: 'Boletines técnicos',
    ago: 40,
    files: ['pdf'],
  },
  {
    title: 'Acuerdo de exhibición Lima Centro',
    category: 'Comercial',
    ago: 35,
    to: ['LIM01'],
    files: ['pdf'],
  },
  { title: 'Campaña de fin de año', category: 'Marketing', ago: 20, files: ['pdf'] },
  {
    title: 'Manual de servicio: nuevo SUV compacto',
    category: 'Manuales de servicio',
    ago: 12,
    files: ['pdf'],
  },
  {
    title: 'Metas de posventa del trimestre',
    category: 'Posventa',
    ago: 8,
    to: [...NORTH, ...SOUTH],
    files: ['xlsx'],
  },
  { title: 'Circular: horario de atención en diciembre', category: 'Comercial', ago: 3, files: ['pdf'] },
  { title: 'Lista de precios - enero próximo', category: 'Listas de precios', ago: -7, files: ['xlsx'] },
  { title: 'Campaña verano próximo (borrador)', category: 'Marketing', ago: -14, files: ['pdf'] },
  {
    title: 'Política comercial anterior (reemplazada)',
    category: 'Políticas comerciales',
    ago: 360,
    files: ['pdf'],
    active: false,
  },
];

/** Share of the published documents each dealer's user has read (the rest: 40%). */
const READING: Record<string, number> = {
  LIM01: 0.95,
  LIM02: 0.85,
  AQP01: 0.9,
  CHI01: 0.8,
  LIM05: 0.75,
  LIM03: 0.3,
  LIM06: 0.15,
  CAJ01: 0.1,
  TAC01: 0.2,
};

const DAY = 86_400_000;
const dayOffset = (today: string, days: number) =>
  new Date(Date.parse(`${today}T12:00:00Z`) + days * DAY).toISOString().slice(0, 10);

const MODELS = [
  'Sedan 1.6',
  'Hatchback 1.4',
  'SUV compacto 2.0',
  'SUV 4x4 2.5',
  'Pick-up 2.4 diesel',
  'Van 2.2',
];

async function fileFor(doc: DemoDoc, kind: 'pdf' | 'xlsx', i: number): Promise<Buffer> {
  if (kind === 'pdf')
    return samplePdf(doc.title, [
      doc.category,
      ...(doc.description ? [doc.description] : []),
      'Documento de la red de concesionarios (datos de demostración).',
      `Referencia DOC-${String(i + 1).padStart(3, '0')}`,
    ]);
  const rows = MODELS.map((m, j) => [
    m,
    15_990 + j * 4_500 + (i % 5) * 250,
    j % 2 ? 'Disponible' : 'A pedido',
  ]);
  return sampleXlsx(doc.category, ['Modelo', 'Precio (USD)', 'Estado'], rows);
}

const fileName = (title: string, kind: 'pdf' | 'xlsx') =>
  `${title
    .replace(/[:/\\]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()}.${kind}`;

export async function seedDocumentsDemo(handle: DatabaseHandle, storage: FileStorage, dealerCodes: string[]) {
  const db = handle.db;
  const created = { categories: 0, documents: 0, documentFiles: 0, documentReads: 0 };
  const [already] = await db
    .select({ id: documents.id })
    .from(documents)
    .where(eq(documents.title, DOCS[0].title))
    .limit(1);
  if (already) return created;
  const today = limaToday();
  const clock = nowMs();
  const dealerRows = await db
    .select({ id: dealers.id, code: dealers.code })
    .from(dealers)
    .where(inArray(dealers.code, dealerCodes));
  const dealerId = new Map(dealerRows.map((d) => [d.code, d.id]));
  const userRows = await db
    .select({ id: users.id, dealer_id: users.dealer_id, username: users.username })
    .from(users)
    .where(
      inArray(
        users.username,
        dealerCodes.map((c) => c.toLowerCase()),
      ),
    );
  const mime = (kind: 'pdf' | 'xlsx') => DOCUMENT_FILE_TYPES.find((t) => t.kind === kind)!.mime;

  // The files first (outside the transaction); the rows then in one transaction.
  const stored: { doc: number; key: string; name: string; kind: 'pdf' | 'xlsx'; bytes: number }[] = [];
  for (const [i, doc] of DOCS.entries())
    for (const kind of doc.files) {
      const bytes = await fileFor(doc, kind, i);
      const month = dayOffset(today, -Math.max(doc.ago, 0)).slice(0, 7).replace('-', '/');
      const key = `documents/${month}/demo-${randomUUID()}.${kind}`;
      await storage.put(key, Readable.from(bytes));
      stored.push({ doc: i, key, name: fileName(doc.title, kind), kind, bytes: bytes.length });
    }

  await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(categories)
      .values(TREE.map((c) => ({ name: c.name, description: c.description })))
      .onConflictDoNothing()
      .returning({ id: categories.id });
    created.categories = inserted.length;
    const catRows = await tx
      .select({ id: categories.id, name: categories.name })
      .from(categories)
      .where(
        inArray(
          categories.name,
          TREE.map((c) => c.name),
        ),
      );
    const catId = new Map(catRows.map((c) => [c.name, c.id]));
    for (const c of TREE)
      if (c.parent)
        await tx
          .update(categories)
          .set({ parent_id: catId.get(c.parent)! })
          .where(eq(categories.id, catId.get(c.name)!));

    const rand = demoSequence(20261);
    for (const [i, doc] of DOCS.entries()) {
      const published = dayOffset(today, -doc.ago);
      // Loaded two days before it is published; a scheduled one (published ahead) was loaded in
      // the past all the same, in the days before today.
      const loadedAt = demoPast(
        new Date(Date.parse(`${dayOffset(published, -2)}T15:00:00Z`)),
        new Date(Date.parse(`${dayOffset(today, -3)}T15:00:00Z`)),
        clock,
      );
      const [row] = await tx
        .insert(documents)
        .values({
          title: doc.title,
          description: doc.description ?? null,
          category_id: catId.get(doc.category)!,
          published_at: published,
          expires_at: doc.lasts ? dayOffset(published, doc.lasts) : null,
          all_dealers: !doc.to,
          active: doc.active ?? true,
          created_at: loadedAt,
        })
        .returning({ id: documents.id });
      created.documents++;
      const audience = (doc.to ?? []).map((c) => dealerId.get(c)).filter((id): id is number => !!id);
      if (audience.length)
        await tx
          .insert(documentDealers)
          .values(audience.map((dealer_id) => ({ document_id: row.id, dealer_id })));
      const files = stored.filter((s) => s.doc === i);
      for (const f of files) {
        await tx.insert(documentFiles).values({
          document_id: row.id,
          storage_key: f.key,
          filename: f.name,
          mime: mime(f.kind),
          bytes: f.bytes,
          sha256: '0'.repeat(64),
          created_at: loadedAt,
        });
        created.documentFiles++;
      }
      // Read marks of the dealers' users: only for what they could see (published, not scheduled).
      if (doc.ago <= 0 || doc.active === false) continue;
      for (const u of userRows) {
        if (!u.dealer_id) continue;
        if (doc.to && !audience.includes(u.dealer_id)) continue;
        const code = u.username.toUpperCase();
        const share = READING[code] ?? 0.4;
        // Recent documents are less often read yet.
        if (rand() > (doc.ago < 15 ? share * 0.5 : share)) continue;
        const after = Math.min(doc.ago, 1 + Math.floor(rand() * 10));
        await tx.insert(documentReads).values({
          document_id: row.id,
          user_id: u.id,
          // Read today: in the hours before now, not later in the day.
          read_at: demoPast(
            new Date(
              Date.parse(`${dayOffset(published, after)}T14:00:00Z`) + Math.floor(rand() * 6) * 3_600_000,
            ),
            new Date(Date.parse(`${dayOffset(published, after)}T05:00:00Z`)),
            clock,
          ),
        });
        created.documentReads++;
      }
    }
  });
  return created;
}
