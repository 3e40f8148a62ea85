// Audit trail: one row per create/update/delete, written in the same transaction as the change.
import type { AuditAction } from '@app/contracts';
import { auditLogs } from '../db/schema';
import type { Executor } from '../db/types';
import type { CurrentUser } from './context';

/** Never stored in the audit, whatever the resource. */
const SECRET_KEYS = new Set(['password', 'password_hash', 'current_password']);

function clean(row: Record<string, unknown> | null | undefined): Record<string, unknown> | null {
  if (!row) return null;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) if (!SECRET_KEYS.has(k)) out[k] = v;
  return out;
}

export interface AuditEntry {
  user: CurrentUser | null;
  resource: string;
  recordId: number | null;
  /** One of AUDIT_ACTIONS (contracts), so the trail names it in Spanish. */
  action: AuditAction;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

/** `tx` is the transaction (or db) the change runs in. */
export async function writeAudit(tx: Executor, entry: AuditEntry): Promise<void> {
  await tx.insert(auditLogs).values({
    user_id: entry.user?.id ?? null,
    username: entry.user?.username ?? null,
    resource: entry.resource,
    record_id: entry.recordId,
    action: entry.action,
    before: clean(entry.before),
    after: clean(entry.after),
  });
}
