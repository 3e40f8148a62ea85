// The settings that name a server this one connects to (the external systems and SMTP) may not
// point inside (lib/outbound-host): checked when saved, on either way of saving them.

import { ValidationError } from '../../core/errors';
import { hostOf, internalHostMessage, internalHostReason } from '../../lib/outbound-host';

export const OUTBOUND_URL_KEYS = new Set(['SALES_API_URL', 'CASIS_API_URL', 'SIMA_API_URL', 'SMTP_URL']);

/** 422 on `field` when `key` is an outbound URL whose host is internal (and not allowed). */
export async function assertOutboundUrl(key: string, value: unknown, field = key): Promise<void> {
  if (!OUTBOUND_URL_KEYS.has(key) || typeof value !== 'string' || !value.trim()) return;
  let host: string;
  try {
    host = hostOf(new URL(value.trim()));
  } catch {
    return;
  }
  if (!host) return;
  const where = await internalHostReason(host);
  if (where) throw ValidationError.field(field, internalHostMessage(key, where));
}
