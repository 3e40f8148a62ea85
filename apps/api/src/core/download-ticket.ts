// Download tickets: a link the browser opens (an <a href> to an export, a document's file) carries
// `?ticket=`, never the session. The signed-in client asks for one ticket for one path
// (POST /api/auth/download-ticket); it serves that path once, within a minute, for that user while
// the session it came from lasts (token_version). The session token in a query string is refused.
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, lt } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { downloadTickets } from '../db/schema';
import type { Db } from '../db/types';
import { UnauthorizedError, ValidationError } from './errors';
import { nowMs } from './lima';

/** How long a ticket serves, in seconds. */
export const TICKET_SECONDS = 60;
/** Expired tickets are swept this long after they expired. */
const SWEEP_AFTER_MS = 3_600_000;

/** The answer to a ticket that is unknown, used, expired, for another path, or to a session in the URL. */
export const TICKET_REFUSED =
  'El enlace de descarga no es válido o ya venció. Vuelva a descargar el archivo desde la aplicación.';

/** Query parameters that would carry the session itself: refused on downloads. */
export const SESSION_QUERY_KEYS = ['enc_auth_token', 'token', 'access_token'];

const downloadPatterns = new WeakMap<FastifyInstance, RegExp[]>();

/** Records the GET routes declared as downloads (config.allowQueryToken), before any is added. */
export function watchDownloadRoutes(app: FastifyInstance): void {
  const patterns: RegExp[] = [];
  downloadPatterns.set(app, patterns);
  app.addHook('onRoute', (route) => {
    if (!route.config?.allowQueryToken || ![route.method].flat().includes('GET')) return;
    const source = route.url
      .split('/')
      .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    patterns.push(new RegExp(`^${source}/?$`));
  });
}

const hashOf = (ticket: string) => createHash('sha256').update(ticket).digest('hex');

/** The path part of an address (what a ticket is bound to). */
export const pathOf = (url: string) => url.split('?')[0] ?? '';

/** Issues a ticket for `url` (a download of this API, with or without its query string). */
export async function issueTicket(
  app: FastifyInstance,
  db: Db,
  user: { id: number; tokenVersion: number },
  url: string,
): Promise<{ ticket: string; url: string; expires_in_seconds: number }> {
  const path = pathOf(url);
  const patterns = downloadPatterns.get(app) ?? [];
  if (!path.startsWith('/api/') || !patterns.some((p) => p.test(path)))
    throw ValidationError.field('path', 'Ruta no es una descarga de esta aplicación');
  const ticket = randomBytes(32).toString('base64url');
  const now = nowMs();
  await db.delete(downloadTickets).where(lt(downloadTickets.expires_at, new Date(now - SWEEP_AFTER_MS)));
  await db.insert(downloadTickets).values({
    hash: hashOf(ticket),
    user_id: user.id,
    token_version: user.tokenVersion,
    path,
    expires_at: new Date(now + TICKET_SECONDS * 1000),
  });
  const sep = url.includes('?') ? '&' : '?';
  return { ticket, url: `${url}${sep}ticket=${ticket}`, expires_in_seconds: TICKET_SECONDS };
}

/**
 * Uses a ticket on the request's path: deleted as it is read, so it serves once whichever
 * instance answers. Unknown, used, expired or for another path: 401.
 */
export async function redeemTicket(
  db: Db,
  ticket: string,
  url: string,
): Promise<{ userId: number; tokenVersion: number }> {
  if (ticket.length > 100) throw new UnauthorizedError(TICKET_REFUSED);
  const [row] = await db
    .delete(downloadTickets)
    .where(
      and(
        eq(downloadTickets.hash, hashOf(ticket)),
        eq(downloadTickets.path, pathOf(url)),
        gt(downloadTickets.expires_at, new Date(nowMs())),
      ),
    )
    .returning({ userId: downloadTickets.user_id, tokenVersion: downloadTickets.token_version });
  if (!row) throw new UnauthorizedError(TICKET_REFUSED);
  return row;
}
