// Making notifications and reading them. `notify` writes one in the caller's transaction (the
// event's: a survey alert, a month enabled, a document saved, a job that ended); the daily sweep
// writes the date-driven ones (agreements due in 7 days or overdue, documents whose publication
// day arrived). Each notification has a unique key, so an event or a sweep run twice (or by two
// servers at once) writes it once.

import type { NotificationKind } from '@app/contracts';
import { and, eq, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { CurrentUser } from '../../core/current-user';
import type { JobFinished } from '../../core/jobs';
import { limaToday } from '../../core/lima';
import type { Db, Executor, Tx } from '../../db/types';
import { notificationReads, notificationSweeps, notifications } from './notifications.tables';

export type Audience = 'staff' | 'dealer' | 'all';

export interface NotificationInput {
  kind: NotificationKind;
  /** Unique: a second notify with the same key writes nothing. */
  key: string;
  title: string;
  body?: string | null;
  link?: string | null;
  /** Who sees it (ignored when userId is set: only that user). */
  audience?: Audience;
  dealerId?: number | null;
  userId?: number | null;
  permission?: string | null;
}

const cut = (s: string | null | undefined, n: number) =>
  s == null ? null : s.length > n ? `${s.slice(0, n - 1)}…` : s;

/** Writes one notification (in the caller's transaction); answers its id, or null if it existed. */
export async function notify(tx: Executor, n: NotificationInput): Promise<number | null> {
  const [row] = await tx
    .insert(notifications)
    .values({
      kind: n.kind,
      key: n.key.slice(0, 200),
      title: cut(n.title, 300)!,
      body: cut(n.body, 2000),
      link: n.link ?? null,
      audience: n.userId ? 'user' : (n.audience ?? 'all'),
      dealer_id: n.dealerId ?? null,
      user_id: n.userId ?? null,
      permission: n.permission ?? null,
    })
    .onConflictDoNothing({ target: notifications.key })
    .returning({ id: notifications.id });
  return row?.id ?? null;
}

/** An import or export run as a job ended: its user is told, in the job's last transaction. */
export function notifyJobFinished(tx: Executor, job: JobFinished): Promise<number | null> {
  const what = job.type === 'import' ? 'La importación' : 'La exportación';
  return notify(tx, {
    kind: 'job',
    key: `job:${job.jobId}`,
    title: `${what} de ${job.name} ${job.ok ? 'terminó' : 'falló'}`,
    body: job.detail ?? null,
    link: job.link ?? null,
    userId: job.userId,
  });
}

/** The notifications `user` may see: its own, and those of its side (and dealer) it has the permission for. */
export function visibleTo(user: CurrentUser): SQL {
  const perms = [...user.permissions];
  const side = user.isDealer
    ? and(
        inArray(notifications.audience, ['dealer', 'all']),
        or(isNull(notifications.dealer_id), eq(notifications.dealer_id, user.dealerId ?? -1)),
      )
    : inArray(notifications.audience, ['staff', 'all']);
  return or(
    eq(notifications.user_id, user.id),
    and(
      isNull(notifications.user_id),
      perms.length
        ? or(isNull(notifications.permission), inArray(notifications.permission, perms))
        : isNull(notifications.permission),
      side,
    ),
  )!;
}

/** The user's unread count. */
export async function unreadCount(db: Executor, user: CurrentUser): Promise<number> {
  const [{ n }] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(notifications)
    .where(
      and(
        visibleTo(user),
        sql`not exists (select 1 from notification_reads r where r.notification_id = ${notifications.id} and r.user_id = ${user.id})`,
      ),
    );
  return n;
}

export async function listNotifications(
  db: Executor,
  user: CurrentUser,
  q: { kind?: NotificationKind; status?: 'read' | 'unread'; page: number; perPage: number },
) {
  const read = sql`exists (select 1 from notification_reads r where r.notification_id = ${notifications.id} and r.user_id = ${user.id})`;
  const where = and(
    visibleTo(user),
    q.kind ? eq(notifications.kind, q.kind) : undefined,
    q.status === 'read' ? read : q.status === 'unread' ? sql`not ${read}` : undefined,
  );
  const rows = await db
    .select({
      id: notifications.id,
      kind: notifications.kind,
      title: notifications.title,
      body: notifications.body,
      link: notifications.link,
      dealer_id: notifications.dealer_id,
      created_at: notifications.created_at,
      read_at: sql<
        string | null
      >`(select r.read_at from notification_reads r where r.notification_id = ${notifications.id} and r.user_id = ${user.id})`,
    })
    .from(notifications)
    .where(where)
    .orderBy(sql`${notifications.id} desc`)
    .limit(q.perPage)
    .offset((q.page - 1) * q.perPage);
  const [{ n }] = await db.select({ n: sql<number>`count(*)::int` }).from(notifications).where(where);
  return {
    data: rows.map((r) => ({
      ...r,
      created_at: new Date(r.created_at).toISOString(),
      read_at: r.read_at ? new Date(r.read_at).toISOString() : null,
    })),
    total: n,
    unread: await unreadCount(db, user),
  };
}

/** Marks one notification read (it must be visible to the user); answers false when not found. */
export async function markRead(tx: Tx, user: CurrentUser, id: number): Promise<boolean> {
  const [found] = await tx
    .select({ id: notifications.id })
    .from(notifications)
    .where(and(eq(notifications.id, id), visibleTo(user)));
  if (!found) return false;
  await tx.insert(notificationReads).values({ notification_id: id, user_id: user.id }).onConflictDoNothing();
  return true;
}

/** Marks every unread notification of the user read (those of a kind only, when given). */
export async function markAllRead(tx: Tx, user: CurrentUser, kind?: NotificationKind): Promise<number> {
  const res = await tx.execute(sql`
    insert into notification_reads (notification_id, user_id)
    select ${notifications.id}, ${user.id} from ${notifications}
    where ${and(visibleTo(user), kind ? eq(notifications.kind, kind) : undefined)}
    on conflict do nothing
    returning notification_id`);
  return (res as unknown as { rows: unknown[] }).rows.length;
}

/** A list of ids as SQL parameters, for `x in (...)` (never empty: `null` matches nothing). */
const idList = (ids: number[]) =>
  ids.length
    ? sql.join(
        ids.map((i) => sql`${Number(i)}`),
        sql`, `,
      )
    : sql`null`;

// --- What makes notifications -------------------------------------------------------------

const OPEN_AGREEMENT = sql`a.status in ('pending', 'in_progress')`;

/**
 * Agreements due within 7 days (today included) or overdue, still open: one notification per
 * agreement, due date and state (a new due date is told again). `ids`: only those agreements.
 */
export async function agreementNotices(tx: Executor, today = limaToday(), ids?: number[]): Promise<void> {
  const only = ids ? sql`and a.id in (${idList(ids)})` : sql``;
  await tx.execute(sql`
    insert into notifications (kind, key, title, body, link, audience, dealer_id, permission)
    select case when a.due_date < ${today}::date then 'agreement_overdue' else 'agreement_due' end,
      (case when a.due_date < ${today}::date then 'agreement_overdue:' else 'agreement_due:' end) || a.id || ':' || a.due_date,
      (case when a.due_date < ${today}::date then 'Acuerdo vencido: ' else 'Acuerdo por vencer: ' end) || left(a.title, 250),
      d.name || ' · ' || (case when a.due_date < ${today}::date then 'venció el ' else 'vence el ' end) || to_char(a.due_date, 'DD/MM/YYYY'),
      '/agreement',
      'all', a.dealer_id, 'Agreements.view'
    from agreements a join dealers d on d.id = a.dealer_id
    where ${OPEN_AGREEMENT} and a.due_date <= ${today}::date + 7 ${only}
    on conflict (key) do nothing`);
}

/**
 * Documents whose publication day has come (today or in the last 7 days), active and not
 * expired: one notification for every dealer's users, or one per chosen dealer.
 */
export async function documentNotices(tx: Executor, today = limaToday(), ids?: number[]): Promise<void> {
  const only = ids ? sql`and doc.id in (${idList(ids)})` : sql``;
  const recent = sql`doc.active and doc.published_at <= ${today}::date and doc.published_at > ${today}::date - 7
    and (doc.expires_at is null or doc.expires_at >= ${today}::date) ${only}`;
  await tx.execute(sql`
    insert into notifications (kind, key, title, body, link, audience, dealer_id, permission)
    select 'document', 'document:' || doc.id, 'Documento publicado: ' || left(doc.title, 250),
      left(doc.description, 500), '/extranet', 'dealer', null, 'Documents.view'
    from documents doc where doc.all_dealers and ${recent}
    on conflict (key) do nothing`);
  await tx.execute(sql`
    insert into notifications (kind, key, title, body, link, audience, dealer_id, permission)
    select 'document', 'document:' || doc.id || ':' || dd.dealer_id, 'Documento publicado: ' || left(doc.title, 250),
      left(doc.description, 500), '/extranet', 'dealer', dd.dealer_id, 'Documents.view'
    from documents doc join document_dealers dd on dd.document_id = doc.id where not doc.all_dealers and ${recent}
    on conflict (key) do nothing`);
}

/**
 * Months enabled and not confirmed: the dealer's users are told once per enabling (a reopened
 * month is told again). `ids`: only those periods.
 */
export async function figuresNotices(tx: Executor, ids?: number[]): Promise<void> {
  const only = ids ? sql`and p.id in (${idList(ids)})` : sql``;
  await tx.execute(sql`
    insert into notifications (kind, key, title, body, link, audience, dealer_id, permission)
    select 'figures_pending',
      'figures_pending:' || p.id || ':' || floor(extract(epoch from coalesce(p.reopened_at, p.enabled_at, p.updated_at))),
      'Cifras por confirmar: ' || lpad(p.month::text, 2, '0') || '/' || p.year,
      d.name || ' · el mes está habilitado: registre y confirme sus cifras'
        || case when p.reopen_reason is not null and p.reopened_at is not null then ' (reabierto: ' || left(p.reopen_reason, 200) || ')' else '' end,
      '/main/figure?year=' || p.year || '&month=' || p.month, 'dealer', p.dealer_id, 'Figures.view'
    from figure_periods p join dealers d on d.id = p.dealer_id
    where p.status = 'enabled' ${only}
    on conflict (key) do nothing`);
}

/** A survey answered at the lowest level opened these alerts: the dealer and the staff are told. */
export async function quizAlertNotices(tx: Executor, alertIds: number[]): Promise<void> {
  if (!alertIds.length) return;
  await tx.execute(sql`
    insert into notifications (kind, key, title, body, link, audience, dealer_id, permission)
    select 'quiz_alert', 'quiz_alert:' || al.id,
      'Alerta de encuesta: ' || coalesce(left(s.buyer_name, 150), 'cliente'),
      d.name || ' · calificación mínima en: ' || left(replace(coalesce(al.detail, ''), E'\n', '; '), 400),
      '/quiz', 'all', al.dealer_id, 'Quizzes.view'
    from quiz_alerts al join dealers d on d.id = al.dealer_id left join sales s on s.id = al.sale_id
    where al.id in (${idList(alertIds)})
    on conflict (key) do nothing`);
}

/**
 * The daily sweep: the first server to claim Lima's day writes the date-driven notifications, in
 * the claim's transaction (a failed sweep leaves the day unclaimed). Answers whether it swept.
 */
export async function sweepNotifications(db: Db, today = limaToday()): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [claimed] = await tx
      .insert(notificationSweeps)
      .values({ day: today })
      .onConflictDoNothing()
      .returning({ day: notificationSweeps.day });
    if (!claimed) return false;
    await agreementNotices(tx, today);
    await documentNotices(tx, today);
    await figuresNotices(tx);
    return true;
  });
}
