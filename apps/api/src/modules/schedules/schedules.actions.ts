// The scheduled mails in Preferencias: the two schedules with their last mailings, and saving one
// (on/off, the weekly day and hour in Lima, the recipients), audited.
import {
  preferenceCalls as calls,
  MAIL_SCHEDULE_DESCRIPTIONS,
  MAIL_SCHEDULE_MESSAGES,
  MAIL_SCHEDULE_TITLES,
  type MailScheduleKind,
  type MailScheduleView,
  splitRecipients,
} from '@app/contracts';
import { asc, desc, eq } from 'drizzle-orm';
import { defineAction, type Executor } from '../../core/action';
import { NotFoundError, ValidationError } from '../../core/errors';
import { parseId } from '../../core/http';
import { now } from '../../core/lima';
import { dealers } from '../../db/schema';
import { managerEmails, type ScheduleRow } from './schedules.service';
import { mailScheduleRuns, mailSchedules } from './schedules.tables';

const tags = ['Correos programados'];
const RUNS_SHOWN = 10;

async function view(db: Executor, s: ScheduleRow, managers: string[]): Promise<MailScheduleView> {
  const kind = s.kind as MailScheduleKind;
  const runs = await db
    .select({
      key: mailScheduleRuns.key,
      period: mailScheduleRuns.period,
      dealer_name: dealers.name,
      mails: mailScheduleRuns.mails,
      created_at: mailScheduleRuns.created_at,
    })
    .from(mailScheduleRuns)
    .leftJoin(dealers, eq(dealers.id, mailScheduleRuns.dealer_id))
    .where(eq(mailScheduleRuns.schedule_id, s.id))
    .orderBy(desc(mailScheduleRuns.id))
    .limit(RUNS_SHOWN);
  return {
    id: s.id,
    kind,
    title: MAIL_SCHEDULE_TITLES[kind] ?? s.kind,
    description: MAIL_SCHEDULE_DESCRIPTIONS[kind] ?? '',
    enabled: s.enabled,
    weekday: s.weekday,
    hour: s.hour,
    recipients: s.recipients,
    default_recipients:
      kind === 'resumen_mensual'
        ? 'Los contactos activos con correo del concesionario'
        : `Los usuarios del fabricante con acceso al Tablero (${managers.length}: ${managers.slice(0, 5).join(', ')}${managers.length > 5 ? ', ...' : ''})`,
    updated_at: s.updated_at.toISOString(),
    runs: runs.map((r) => ({ ...r, created_at: r.created_at.toISOString() })),
  };
}

const list = defineAction({
  ...calls.mailSchedules,
  summary: 'Correos programados: el Resumen Comparativo mensual y el resumen semanal del tablero',
  tags,
  access: { permission: 'Admin.Preferences.view' },
  async handler({ db }): Promise<MailScheduleView[]> {
    const rows = await db.select().from(mailSchedules).orderBy(asc(mailSchedules.id));
    const managers = await managerEmails(db);
    return Promise.all(rows.map((r) => view(db, r, managers)));
  },
});

const save = defineAction({
  ...calls.saveMailSchedule,
  summary: 'Guarda un correo programado (activo, día y hora en Lima, destinatarios)',
  tags,
  access: { permission: 'Admin.Preferences.update' },
  audit: { resource: 'mail-schedules', action: 'update' },
  async handler({ db, params, body, user, write }): Promise<MailScheduleView> {
    const id = parseId(params.id);
    const [before] = await db.select().from(mailSchedules).where(eq(mailSchedules.id, id));
    if (!before) throw new NotFoundError('El correo programado no existe');
    const weekly = before.kind === 'tablero_semanal';
    const weekday = weekly ? (body.weekday ?? null) : null;
    const hour = weekly ? (body.hour ?? null) : null;
    if (weekly && weekday === null)
      throw ValidationError.field('weekday', MAIL_SCHEDULE_MESSAGES.weeklyNeedsDay);
    if (weekly && hour === null) throw ValidationError.field('hour', MAIL_SCHEDULE_MESSAGES.weeklyNeedsHour);
    const recipients = weekly ? splitRecipients(body.recipients).join(', ') || null : null;
    const after = await write(
      async (tx) => {
        const [row] = await tx
          .update(mailSchedules)
          .set({ enabled: body.enabled, weekday, hour, recipients, updated_by: user.id, updated_at: now() })
          .where(eq(mailSchedules.id, id))
          .returning();
        return row;
      },
      (row) => ({ recordId: id, before, after: row }),
    );
    return view(db, after, await managerEmails(db));
  },
});

export const scheduleActions = [list, save];
