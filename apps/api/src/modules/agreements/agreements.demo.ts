// Demo agreements (seed/demo.ts calls it): for every demo dealer, the follow-up of the last
// twelve months as a network manager keeps it: most older agreements done (a few cancelled),
// some still open past their due date (a few of them long overdue), the recent ones pending or in
// progress, each with its history (created by the manager, comments and status changes by the
// dealer, the notice mailed to the contacts). Deterministic, written once per dealer.
import { inArray } from 'drizzle-orm';
import { demoDealersWithout, demoDealerUsers } from '../../core/demo-dealers';
import { demoRandom } from '../../core/demo-random';
import { limaToday, nowMs } from '../../core/lima';
import type { DatabaseHandle } from '../../db/client';
import { dealerContacts, users } from '../../db/schema';
import { agreementEvents, agreements } from './agreements.tables';

const TOPICS: { title: string; detail: string; level: 'high' | 'medium' | 'low' }[] = [
  {
    title: 'Reducir el tiempo de entrega de vehículos nuevos',
    detail: 'Entregar en 5 días hábiles desde la facturación; revisar PDI y trámite de placas.',
    level: 'high',
  },
  {
    title: 'Implementar citas en línea para el taller',
    detail: 'Activar el agendamiento web y confirmar cada cita por teléfono el día anterior.',
    level: 'medium',
  },
  {
    title: 'Capacitar a los asesores en el nuevo modelo',
    detail: 'Todos los asesores con la certificación de producto antes del lanzamiento.',
    level: 'medium',
  },
  {
    title: 'Mejorar el índice de satisfacción CEM de ventas',
    detail: 'Plan de acción sobre las encuestas con calificación baja del trimestre.',
    level: 'high',
  },
  {
    title: 'Renovar la señaletica de la marca en el showroom',
    detail: 'Aplicar el manual de identidad vigente en fachada y exhibición.',
    level: 'low',
  },
  {
    title: 'Cumplir la cuota de accesorios del trimestre',
    detail: 'Ofrecer paquetes de accesorios en cada entrega y medir la conversión.',
    level: 'medium',
  },
  {
    title: 'Reducir los reclamos de postventa',
    detail:
      'Analizar los reclamos repetidos y asegurar el control de calidad antes de la entrega del vehículo.',
    level: 'high',
  },
  {
    title: 'Actualizar el stock de repuestos de alta rotación',
    detail: 'Cobertura de 30 días para los 200 códigos de mayor venta.',
    level: 'medium',
  },
  {
    title: 'Asegurar el seguimiento a 72 horas de la entrega',
    detail: 'Llamar a cada cliente a las 72 horas y registrar el resultado.',
    level: 'low',
  },
  {
    title: 'Enviar las cifras del mes dentro del plazo',
    detail: 'Registrar y confirmar las cifras antes del día 10 de cada mes.',
    level: 'medium',
  },
  {
    title: 'Habilitar una bahía adicional de servicio rápido',
    detail: 'Reducir la espera de mantenimientos de 10.000 km a menos de 2 horas.',
    level: 'low',
  },
  {
    title: 'Regularizar garantías pendientes de sustento',
    detail: 'Completar fotos y órdenes de trabajo de las garantías observadas.',
    level: 'high',
  },
];

const COMMENTS = [
  'Se asignó responsable y se presentó el plan de trabajo',
  'Avance del 50%: pendiente la aprobación del presupuesto',
  'Se coordinó con el área de postventa',
  'Se adjunto el sustento en la carpeta compartida',
];

const DAY = 86_400_000;

export async function seedAgreementsDemo(
  handle: DatabaseHandle,
  demoDealers: { code: string }[],
): Promise<{ agreements: number }> {
  const db = handle.db as any;
  const todo = (
    await demoDealersWithout(
      db,
      demoDealers.map((d) => d.code),
      agreements.dealer_id,
    )
  ).filter((d) => d.zone_id);
  if (!todo.length) return { agreements: 0 };
  const [manager] = await db
    .select({ id: users.id })
    .from(users)
    .where(inArray(users.username, ['gerente.red']));
  const dealerUsers = await demoDealerUsers(
    db,
    todo.map((d) => d.id),
  );
  const contacts: { id: number; dealer_id: number; name: string; email: string | null }[] = await db
    .select({
      id: dealerContacts.id,
      dealer_id: dealerContacts.dealer_id,
      name: dealerContacts.name,
      email: dealerContacts.email,
    })
    .from(dealerContacts)
    .where(
      inArray(
        dealerContacts.dealer_id,
        todo.map((d) => d.id),
      ),
    );
  const order = new Map(demoDealers.map((d, i) => [d.code, i]));
  const now = nowMs();
  let count = 0;
  await db.transaction(async (tx: any) => {
    for (const d of todo.sort((x, y) => (order.get(x.code) ?? 0) - (order.get(y.code) ?? 0))) {
      const index = order.get(d.code) ?? 0;
      const rnd = demoRandom(`agr-${d.code}`);
      const own = contacts.filter((c) => c.dealer_id === d.id);
      const dealerUser = dealerUsers.find((u) => u.dealer_id === d.id)?.id ?? manager?.id ?? null;
      // Some dealers keep up, others let agreements slip (more open past due).
      const diligence = [
        0.9, 0.75, 0.55, 0.85, 0.95, 0.45, 0.8, 0.6, 0.9, 0.7, 0.5, 0.85, 0.8, 0.65, 0.9, 0.75,
      ][index % 16];
      const n = 7 + Math.floor(rnd() * 5);
      for (let i = 0; i < n; i++) {
        const topic = TOPICS[(index * 5 + i * 7) % TOPICS.length];
        // Created over the last year, due 3 to 10 weeks later.
        const createdAt = now - Math.floor(((i + rnd() * 0.8) / n) * 330 + 20) * DAY;
        const due = createdAt + (21 + Math.floor(rnd() * 50)) * DAY;
        const past = due < now;
        let status: string;
        if (!past) status = rnd() < 0.35 ? 'in_progress' : 'pending';
        else if (rnd() < diligence) status = rnd() < 0.1 ? 'cancelled' : 'done';
        else status = rnd() < 0.5 ? 'in_progress' : 'pending';
        const contact = own[i % Math.max(own.length, 1)];
        const [row] = await tx
          .insert(agreements)
          .values({
            zone_id: d.zone_id,
            dealer_id: d.id,
            title: topic.title,
            detail: topic.detail,
            level: topic.level,
            status,
            responsible: contact?.name ?? null,
            dealer_contact_id: contact?.id ?? null,
            due_date: limaToday(due),
            created_by: manager?.id ?? null,
            created_at: new Date(createdAt),
            updated_at: new Date(Math.min(now, createdAt + 10 * DAY)),
          })
          .returning({ id: agreements.id });
        count++;
        const events: (typeof agreementEvents.$inferInsert)[] = [
          {
            agreement_id: row.id,
            kind: 'created',
            to_status: 'pending',
            user_id: manager?.id ?? null,
            created_at: new Date(createdAt),
          },
        ];
        const at = (days: number) => new Date(Math.min(now - DAY, createdAt + days * DAY));
        const mailed = own.filter((c) => c.email);
        if (mailed.length && rnd() < 0.7) {
          events.push({
            agreement_id: row.id,
            kind: 'notify',
            recipients: mailed.map((c) => ({ name: c.name, email: c.email, status: 'sent' })),
            user_id: manager?.id ?? null,
            created_at: at(1),
          });
        }
        if (status !== 'pending') {
          const first = status === 'cancelled' ? 'cancelled' : 'in_progress';
          events.push({
            agreement_id: row.id,
            kind: 'comment',
            comment: COMMENTS[(index + i) % COMMENTS.length],
            user_id: dealerUser,
            created_at: at(5),
          });
          events.push({
            agreement_id: row.id,
            kind: 'status',
            from_status: 'pending',
            to_status: first,
            user_id: status === 'cancelled' ? (manager?.id ?? null) : dealerUser,
            created_at: at(6),
          });
          if (status === 'done') {
            events.push({
              agreement_id: row.id,
              kind: 'comment',
              comment: 'Acuerdo cumplido; se adjunto la evidencia',
              user_id: dealerUser,
              created_at: at(18),
            });
            events.push({
              agreement_id: row.id,
              kind: 'status',
              from_status: 'in_progress',
              to_status: 'done',
              user_id: dealerUser,
              created_at: at(18),
            });
          }
        }
        await tx.insert(agreementEvents).values(events);
        const notice = events.find((e) => e.kind === 'notify');
        if (notice)
          await tx
            .update(agreements)
            .set({ notified_at: notice.created_at })
            .where(inArray(agreements.id, [row.id]));
      }
    }
  });
  return { agreements: count };
}
