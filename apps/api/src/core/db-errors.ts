// Maps PostgreSQL errors (PGlite and pg alike, possibly wrapped by drizzle) to AppErrors
// with Spanish messages: 23505 duplicate → 409 naming the field, 23503 → 409 in use or 422
// unknown reference, 22xxx/23502 → 422.
import { type AppError, ConflictError, ServiceUnavailableError, ValidationError } from './errors';
import { columnLabel, tableTitle } from './labels';

interface PgLikeError {
  code?: string;
  detail?: string;
  table?: string;
  column?: string;
  constraint?: string;
  message?: string;
}

export function findPgError(err: unknown): PgLikeError | undefined {
  let e: any = err;
  for (let i = 0; e && i < 5; i++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e as PgLikeError;
    e = e.cause;
  }
  return undefined;
}

/** Socket errors of a lost or refused connection (node), anywhere in the cause chain. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** pg's own words when a connection dies or cannot be had in time. */
const CONNECTION_MESSAGES =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|not queryable|Connection ended|terminating connection/i;

/**
 * SQLSTATEs that say the database cannot serve at all, whatever the query: a connection
 * exception (08xxx), a server shutting down, restarting, starting or its database dropped
 * (57P01-57P04), out of resources (53xxx: too many connections, disk full, out of memory), the
 * database gone or renamed (3D000), the application's login refused (28000, 28P01: a changed
 * password or pg_hba), or a server that only reads (25006: a standby after a failover).
 */
const UNAVAILABLE_SQLSTATE = /^(?:08...|57P0[1-4]|53...|3D000|28000|28P01|25006)$/;
/** 55000 is "object not in prerequisite state" in general; at connection it is ALLOW_CONNECTIONS false. */
const NOT_ACCEPTING = /is not currently accepting connections|is not accepting connections/i;

/**
 * The database cannot be reached or cannot serve: a refused or lost connection, or one of
 * UNAVAILABLE_SQLSTATE, or a database that does not accept connections (55000).
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  let e: any = err;
  for (let i = 0; e && i < 5; i++) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (CONNECTION_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code)) return true;
    if (code === '55000' && typeof e.message === 'string' && NOT_ACCEPTING.test(e.message)) return true;
    if (typeof e.message === 'string' && CONNECTION_MESSAGES.test(e.message) && !/^[0-9A-Z]{5}$/.test(code))
      return true;
    e = e.cause ?? (Array.isArray(e.errors) ? e.errors[0] : undefined);
  }
  return false;
}

export function mapDbError(err: unknown): AppError | undefined {
  if (isDatabaseUnavailable(err)) return new ServiceUnavailableError();
  const pg = findPgError(err);
  if (!pg?.code) return undefined;
  const detail = pg.detail ?? '';
  // "Key (a, b)=(…)" or, for an expression index, "Key (lower(btrim(email::text)))=(…)".
  const keyCols = /Key \((.+?)\)=\(/
    .exec(detail)?.[1]
    ?.split(',')
    .map((c) => c.trim().replace(/"/g, ''));
  switch (pg.code) {
    case '23505': {
      // An expression index names its column inside functions: lower(btrim(email)) → email.
      const cols = (keyCols ?? []).map((c) => c.replace(/^(?:\w+\()*([A-Za-z_]\w*)(?:::\w+)?\)*$/, '$1'));
      const labels = cols.map((c) => columnLabel(pg.table, c));
      if (labels.length === 1) {
        return new ConflictError(`El valor de ${labels[0]} ya existe`);
      }
      if (labels.length > 1)
        return new ConflictError(`Ya existe un registro con el mismo ${labels.join(' y ')}`);
      return new ConflictError('El registro ya existe');
    }
    case '23503': {
      const still = /is still referenced from table "([^"]+)"/.exec(detail);
      if (still) {
        return new ConflictError(`No se puede eliminar: el registro está en uso en ${tableTitle(still[1])}`);
      }
      const missing = /is not present in table "([^"]+)"/.exec(detail);
      const col = keyCols?.[0];
      if (col) {
        const label = columnLabel(pg.table, col);
        return ValidationError.field(col, `${label} no existe`);
      }
      return new ValidationError([
        { field: '', message: `Referencia no válida${missing ? ` a ${missing[1]}` : ''}` },
      ]);
    }
    case '23502': {
      const col = pg.column ?? /column "([^"]+)"/.exec(pg.message ?? '')?.[1] ?? '';
      return ValidationError.field(col, `${columnLabel(pg.table, col)} es obligatorio`);
    }
    case '22001':
      return new ValidationError([{ field: '', message: 'Un valor excede la longitud permitida' }]);
    case '22003':
      return new ValidationError([{ field: '', message: 'Un valor numérico está fuera de rango' }]);
    case '22P02':
    case '22007':
    case '22008':
      return new ValidationError([{ field: '', message: 'Un valor no tiene el formato correcto' }]);
    case '23514':
      return new ValidationError([{ field: '', message: 'Un valor no cumple las reglas del registro' }]);
    default:
      // Any other data exception (class 22, e.g. a NUL character) or integrity violation
      // (class 23) is bad input, never a server fault.
      if (pg.code.startsWith('22') || pg.code.startsWith('54')) {
        return new ValidationError([{ field: '', message: 'Un valor no tiene el formato correcto' }]);
      }
      if (pg.code.startsWith('23')) {
        return new ValidationError([{ field: '', message: 'Los datos no cumplen las reglas del registro' }]);
      }
      return undefined;
  }
}
