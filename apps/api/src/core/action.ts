// A custom call is declared, not hand-written: an action names its method, path, who may call
// it, its body schema and (for calls on one record) the resource whose record it acts on.
// registerAction() gives every action the engine's guarantees: the permission check, the body
// parsed with zod (422 with Spanish messages), the target record loaded within the caller's
// dealer scope (another dealer's id answers 404), writes only where declared (`audit`: a staff
// write in one transaction with its one audit row; a call that declares none reads only), the
// per-address limit, the download token where declared, and the body in /api/docs.
// Its query string is declared the same way (a zod schema of contracts/query): parsed once with
// Lima's clock, 422 naming the parameter, and a declared `dealer_id` held to a dealer user's own
// dealer (another dealer's id answers 404, as a target of another dealer does); a body's declared
// dealer (contracts' dealerBodyField) is held the same way.
import {
  type AuditAction,
  bodyDealerPath as bodyDealerPathOf,
  DEALER_QUERY_KEY,
  queryShape,
} from '@app/contracts';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Db, Executor, Tx } from '../db/types';
import { writeAudit } from './audit';
import { assertPermission, currentUser, DOWNLOAD_ROUTE, optionalAuth, requireAuth } from './auth';
import type { CurrentUser } from './context';
import { ok } from './envelope';
import { NotFoundError } from './errors';
import { parseBody, parseId, type QueryParams, zodToValidationError } from './http';
import { boundReport } from './import-report';
import { contractOf, IMPORT_REPORT, jsonSchemaOf, queryDocOf, XLSX_TYPE } from './openapi';
import { perAddressLimit, type RateLimitKind } from './rate-limit';
import type { Resource, Row } from './resource';
import { findOne } from './resource-page';
import { resolveScope, type Scope } from './scope';

export type { Db, Executor, Tx } from '../db/types';

/**
 * Who may call: anyone, any signed-in user, or the holders of one permission (`or`: or of any of
 * these others, e.g. the tabs tree serves the tabs screen and the roles screen). A 403 names
 * `permission`.
 */
export type Access = 'public' | 'login' | { permission: string; or?: string[] };

/**
 * What a call writes, declared on the action (the registry test runs every call once and holds
 * it to this):
 * - `{ resource, action }`: a staff write. `ctx.write` runs it in one transaction with exactly one
 *   audit row (who, the action, the entity, and what the handler answers: counts, ids);
 *   `ctx.db` reads only, so nothing is written beside it.
 * - `{ exempt: reason }`: writes that are no staff write (the caller's own session, a read
 *   receipt, a public survey answer): `ctx.write` runs them in one transaction without an audit
 *   row, and `ctx.db` may write (a refused login still counts the attempt).
 * - `{ pipeline: reason }`: an import, batch or pull whose pipeline writes all its rows and its
 *   one audit row in its own transaction (`defineImport`, `insertSales`, ...): `ctx.db` may write.
 * - absent: the call reads only. `ctx.db` refuses insert, update and delete, runs its
 *   transactions READ ONLY, and `ctx.write` throws.
 */
export type AuditDecl = { resource: string; action: AuditAction } | { exempt: string } | { pipeline: string };

/** The audit row an action's `ctx.write` writes, when it is a staff write. */
export function auditedAs(action: Action): { resource: string; action: AuditAction } | undefined {
  return action.audit && 'resource' in action.audit ? action.audit : undefined;
}

/** What the audit row of a write says beyond who and when. */
export interface AuditDetail {
  recordId?: number | null;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

export interface ActionContext<B, U extends CurrentUser | null = CurrentUser, Q = QueryParams> {
  app: FastifyInstance;
  request: FastifyRequest;
  reply: FastifyReply;
  /** The signed-in caller (null only on public actions called without a session). */
  user: U;
  /** The body, parsed by the action's schema. */
  body: B;
  /** The query string, parsed by the action's query schema (the raw parameters without one). */
  query: Q;
  params: Record<string, string>;
  /** The :id of an action with a target. */
  id: number;
  /** The record of `target`, loaded within the caller's dealer scope (only on actions with a target). */
  target: Row;
  /**
   * The call's dealer scope, resolved once from the caller and the dealer its query or body
   * declares: a dealer user's own dealer, else the dealer asked for, else every dealer. Summaries
   * read with it (`scope.on(table.dealer_id)`), never with the user or the raw parameter.
   */
  scope: Scope;
  /**
   * The database. Read-only unless the action declares `exempt` or `pipeline` writes: a staff
   * write writes only through `write`, and a call that declares nothing reads only.
   */
  db: Db;
  /**
   * Runs the writes in one transaction together with the action's audit row (once per call).
   * The audit detail defaults to the target (before) and the result when it is an object (after).
   */
  write<R>(fn: (tx: Tx) => Promise<R>, detail?: (result: R) => AuditDetail): Promise<R>;
}

/** What a handler's `query` is: the parsed output of a declared schema, else the raw parameters. */
export type QueryOf<Q> = Q extends z.ZodType ? z.output<Q> : QueryParams;

export interface ActionDef<
  S extends z.ZodType | undefined = undefined,
  A extends Access = Access,
  Q extends z.ZodType | undefined = undefined,
> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Full path, e.g. '/api/quiz-alerts/:id/reply'. */
  path: string;
  /** Spanish one-liner for /api/docs. */
  summary: string;
  tags: string[];
  access: A;
  /** Body schema: parsed before the handler, documented in /api/docs. */
  body?: S;
  /**
   * The query string: a zod schema (contracts/query) the engine parses before the handler (422
   * naming the parameter; defaults from Lima's clock; `dealer_id` held to a dealer user's own
   * dealer) and shows in /api/docs.
   */
  query?: Q;
  /**
   * A further check of who may call, run with the permission check before the body is read
   * (e.g. the own profile only: 403 for another user's id whatever the body).
   */
  authorize?(caller: { user: CurrentUser; params: Record<string, string> }): void;
  /** The resource whose record `:id` names; loaded within the dealer scope or 404. */
  target?: Resource;
  /** What the call writes and how it is audited (see AuditDecl); absent: it reads only. */
  audit?: AuditDecl;
  /** A file download: the session may come as ?enc_auth_token=. */
  download?: boolean;
  /** Per-address limit of this call. */
  rateLimit?: RateLimitKind;
  /** Body size limit in bytes (default: the app's). */
  bodyLimit?: number;
  /** The handler's return value is the reply itself (files), not a result to wrap. */
  raw?: boolean;
  /** The envelope's `result` on success, for /api/docs (contracts); a raw answer's file type instead. */
  result?: z.ZodType;
  /**
   * Error statuses the handler itself answers beyond what the engine derives (e.g. 403 when a
   * part of the body needs a further permission), for /api/docs.
   */
  statuses?: number[];
  /** A raw answer's content type in /api/docs (default: .xlsx). */
  produces?: string;
  /** It may answer 202 with a background job (GET /api/jobs/:id follows it), for /api/docs. */
  job?: boolean;
  handler(
    ctx: ActionContext<
      S extends z.ZodType ? z.output<S> : undefined,
      A extends 'public' ? CurrentUser | null : CurrentUser,
      QueryOf<Q>
    >,
  ): Promise<unknown>;
}

export type Action = ActionDef<z.ZodType | undefined, Access, z.ZodType | undefined>;

/** Declares an action; the generic parameters keep the handler's body, query, target and user typed. */
export function defineAction<
  S extends z.ZodType | undefined = undefined,
  A extends Access = Access,
  Q extends z.ZodType | undefined = undefined,
>(def: ActionDef<S, A, Q>): Action {
  return def as unknown as Action;
}

/** The query schema of an action, when it declares one. */
export function actionQuerySchema(action: Action): z.ZodType | undefined {
  return action.query;
}

/** Whether an action's query declares a dealer (so the engine scopes it). */
export function declaresDealer(action: Action): boolean {
  const schema = actionQuerySchema(action);
  return !!schema && DEALER_QUERY_KEY in (queryShape(schema) ?? {});
}

/**
 * The query of a call, parsed by the action's schema (422 naming the parameter), with a declared
 * dealer held to a dealer user's own: absent → its dealer, another dealer's id → 404.
 */
export function parseQuery(action: Action, raw: unknown, user: CurrentUser | null): unknown {
  const schema = actionQuerySchema(action);
  if (!schema) return raw ?? {};
  const res = schema.safeParse(raw ?? {});
  if (!res.success) throw zodToValidationError(res.error);
  const query = res.data as Record<string, unknown>;
  if (user?.isDealer && declaresDealer(action)) {
    const asked = query[DEALER_QUERY_KEY];
    if (asked && asked !== user.dealerId) throw new NotFoundError('El concesionario no existe');
    query[DEALER_QUERY_KEY] = user.dealerId;
  }
  return query;
}

/** The key of an action's body that declares a dealer (dotted when nested: `filters.dealer_id`), if any. */
export function bodyDealer(action: Action): string | undefined {
  return bodyDealerPath(action)?.join('.');
}

/** The path of an action's body that declares a dealer (contracts' dealerBodyField / declareDealer), if any. */
export function bodyDealerPath(action: Action): string[] | undefined {
  return action.body ? bodyDealerPathOf(action.body) : undefined;
}

/** The object of a body that holds its declared dealer (the body, or one of its objects), if present. */
function dealerHolder(body: unknown, path: string[]): Record<string, unknown> | undefined {
  let o = body;
  for (const k of path.slice(0, -1))
    o = o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined;
  return o && typeof o === 'object' && !Array.isArray(o) ? (o as Record<string, unknown>) : undefined;
}

/**
 * The body of a call, parsed by the action's schema, with a declared dealer held to a dealer
 * user's own as a query's is: absent or 0 → its dealer, another dealer's id → 404. A dealer
 * declared in one of the body's objects (a filter) is held there when the object is sent.
 */
export function parseActionBody(action: Action, raw: unknown, user: CurrentUser | null): unknown {
  if (!action.body) return undefined;
  const path = bodyDealerPath(action);
  const held = !!path && !!user?.isDealer;
  const key = path?.[path.length - 1];
  // Another dealer answers 404 whatever else the body holds, as another dealer's target does.
  if (held) {
    const asked = Number(dealerHolder(raw, path!)?.[key!]);
    if (Number.isInteger(asked) && asked > 0 && asked !== user!.dealerId)
      throw new NotFoundError('El concesionario no existe');
  }
  const body = parseBody(action.body, raw);
  const holder = held ? dealerHolder(body, path!) : undefined;
  if (holder) holder[key!] = user!.dealerId;
  return body;
}

/**
 * Whether a call names records beside its path: a body field or a declared query parameter that is
 * an id (`role_id`, `dealer_id`...). Such a record may be missing or another dealer's: 404.
 */
function namesRecords(action: Action): boolean {
  const keys = [
    ...Object.keys((action.body as { shape?: Record<string, unknown> } | undefined)?.shape ?? {}),
    ...Object.keys((action.query && queryShape(action.query)) ?? {}),
  ];
  return !!bodyDealer(action) || keys.some((k) => k === 'id' || /_id$|_ids$/.test(k));
}

/** The dealer a parsed call declares (its query's `dealer_id`, else its body's dealer field), if any. */
function declaredDealerOf(action: Action, query: unknown, body: unknown): number | null {
  const pick = (o: unknown, k: string) => {
    const v = (o as Record<string, unknown> | null | undefined)?.[k];
    return typeof v === 'number' && v > 0 ? v : null;
  };
  if (declaresDealer(action)) return pick(query, DEALER_QUERY_KEY);
  const path = bodyDealerPath(action);
  return path ? pick(dealerHolder(body, path), path[path.length - 1]!) : null;
}

/** The permission an action needs, or undefined for public and login-only actions. */
export function actionPermission(action: Action): string | undefined {
  return typeof action.access === 'object' ? action.access.permission : undefined;
}

export function registerAction(app: FastifyInstance, action: Action): void {
  const permission = actionPermission(action);
  const anyOf =
    typeof action.access === 'object' ? [action.access.permission, ...(action.access.or ?? [])] : [];
  const config: Record<string, unknown> = {};
  if (action.download) Object.assign(config, DOWNLOAD_ROUTE);
  if (action.rateLimit) config.rateLimit = perAddressLimit(action.rateLimit);
  const querySchema = actionQuerySchema(action);
  // Exempt and pipeline writes run their own transactions on the database; others read only.
  const ownWrites = !!action.audit && !auditedAs(action);
  const schema: Record<string, unknown> = {
    tags: action.tags,
    summary: action.summary,
    ...contractOf({
      access: action.access === 'public' ? 'public' : permission ? 'permission' : 'login',
      result: action.result
        ? jsonSchemaOf(action.result, 'output')
        : action.rateLimit === 'upload'
          ? IMPORT_REPORT
          : undefined,
      file: action.raw ? (action.produces ?? XLSX_TYPE) : undefined,
      upload: action.rateLimit === 'upload',
      record: !!action.target || action.path.includes('/:') || namesRecords(action),
      write: action.method !== 'GET' && !action.raw,
      body: !!action.body,
      query: !!querySchema,
      rateLimited: !!action.rateLimit,
      credentials: action.rateLimit === 'login',
      checksCaller: !!action.authorize,
      statuses: action.statuses,
      job: action.job,
    }),
  };
  if (action.access === 'public') schema.security = [];
  if (action.body) schema.body = jsonSchemaOf(action.body);
  if (querySchema) schema.querystring = queryDocOf(querySchema);
  app.route({
    method: action.method,
    url: action.path,
    config,
    bodyLimit: action.bodyLimit,
    schema,
    preHandler: async (request) => {
      if (action.access === 'public') return optionalAuth(request);
      await requireAuth(request);
      const user = request.auth!;
      if (permission && !anyOf.some((p) => user.permissions.has(p))) assertPermission(user, permission);
      action.authorize?.({ user, params: (request.params ?? {}) as Record<string, string> });
    },
    handler: async (request, reply) => {
      const writeDb = app.ctx.handle.db;
      const db = ownWrites ? writeDb : readOnlyDb(writeDb, `${action.method} ${action.path}`);
      const user = action.access === 'public' ? request.auth : currentUser(request);
      const params = (request.params ?? {}) as Record<string, string>;
      const query = parseQuery(action, request.query, user ?? null);
      const body = parseActionBody(action, request.body, user ?? null);
      const scope = resolveScope(user, declaredDealerOf(action, query, body));
      let id = 0;
      let target: Row | undefined;
      if (action.target) {
        id = parseId(params.id);
        if (!user) throw new NotFoundError();
        target = await findOne(db, action.target, id, user);
        if (!target) throw new NotFoundError();
      }
      const audited = auditedAs(action);
      let writes = 0;
      const write = async <R>(fn: (tx: Tx) => Promise<R>, detail?: (result: R) => AuditDetail) => {
        if (!action.audit) throw new Error(`${action.method} ${action.path}: escribe sin declararlo (audit)`);
        // One write per call, so a staff write leaves exactly one audit row.
        if (writes++) throw new Error(`${action.method} ${action.path}: una sola escritura por llamada`);
        return writeDb.transaction(async (tx) => {
          const result = await fn(tx);
          if (audited) {
            const d = detail?.(result) ?? {
              recordId: action.target ? id : null,
              before: target ?? null,
              after: result && typeof result === 'object' && !Array.isArray(result) ? (result as Row) : null,
            };
            await writeAudit(tx, {
              user: user ?? null,
              resource: audited.resource,
              action: audited.action,
              recordId: d.recordId ?? (action.target ? id : null),
              before: d.before ?? null,
              after: d.after ?? null,
            });
          }
          return result;
        });
      };
      const ctx = {
        app,
        request,
        reply,
        user,
        body,
        query,
        params,
        id,
        target,
        scope,
        db,
        write,
      } as unknown as ActionContext<unknown>;
      const result = await action.handler(ctx as never);
      // An import's per-row report is bounded here for every import and batch (core/import-report).
      return action.raw ? result : ok(boundReport(result));
    },
  });
}

/** What a read-only executor refuses. */
const WRITE_METHODS = new Set(['insert', 'update', 'delete', 'refreshMaterializedView']);
/** A statement that writes, in raw SQL run through `execute`. */
const WRITE_SQL =
  /^\s*(?:with\b[\s\S]*?\b)?(?:insert|update|delete|merge|truncate|create|drop|alter|grant|revoke|copy|lock)\b/i;

/**
 * The database as a call that declares no write sees it: insert, update and delete throw, raw SQL
 * that writes throws, and a transaction runs READ ONLY (PostgreSQL itself then refuses any write
 * in it). Reads, locks for reading and transactions work as usual.
 */
export function readOnlyDb<T extends Executor>(db: T, who: string): T {
  const refuse = (what: string) => () => {
    throw new Error(`${who} lee solamente: no puede ${what} (declare audit en la acción)`);
  };
  return new Proxy(db, {
    get(target, key, receiver) {
      if (typeof key === 'string' && WRITE_METHODS.has(key)) return refuse(key);
      if (key === 'execute')
        return (query: Parameters<Executor['execute']>[0]) => {
          const text =
            typeof query === 'string'
              ? query
              : (
                  target as unknown as { dialect: { sqlToQuery(q: unknown): { sql: string } } }
                ).dialect.sqlToQuery((query as { getSQL(): unknown }).getSQL()).sql;
          if (WRITE_SQL.test(text)) refuse('escribir con SQL')();
          return target.execute(query);
        };
      if (key === 'transaction')
        return <R>(fn: (tx: Tx) => Promise<R>, config?: Parameters<Executor['transaction']>[1]) =>
          target.transaction(async (tx) => {
            await tx.execute(sql`set transaction read only`);
            return fn(readOnlyDb(tx, who));
          }, config);
      return Reflect.get(target, key, receiver);
    },
  });
}
