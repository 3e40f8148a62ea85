// Runtime configuration, read once from the environment at start-up.
import { isIP } from 'node:net';
import { parseHostsAllow } from './lib/outbound-host';

export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  adminUsername: string;
  adminPassword?: string;
  smtpUrl?: string;
  publicUrl: string;
  jwtSecret?: string;
  /** Requests per minute and client address (0: no limit). See core/rate-limit.ts. */
  rateLimits: RateLimits;
  /** Fastify's trustProxy: false (default), a hop count, or the proxies' addresses (never `true`). */
  trustProxy: false | number | string;
  /** Seconds between two automatic sends of the failed and pending mail (0: only on demand). */
  mailRetrySeconds: number;
  /**
   * IMPORT_JOB_BYTES: an uploaded import file of at least this many bytes runs as a background job
   * (202 and the job; core/jobs.ts); a smaller one answers at once as before. 0: every file a job.
   */
  importJobBytes: number;
  /**
   * EXPORT_JOB_ROWS: a list export of more rows than this runs as a background job (202 and the
   * job; the file from GET /api/jobs/:id/file); a smaller one is streamed at once.
   */
  exportJobRows: number;
  /** FAKE_NOW: the instant the business clock starts from (tests and rehearsals; core/lima). */
  fakeNow?: string;
  /**
   * METRICS_TOKEN: /api/metrics answers a caller that sends it as a bearer token; without it only
   * callers on the loopback interface (the machine itself) may read the metrics.
   */
  metricsToken?: string;
  /**
   * EXTERNAL_HOSTS_ALLOW: internal hosts (names, addresses, CIDR ranges) the external systems' and
   * SMTP settings may reach all the same (lib/outbound-host); none by default.
   */
  externalHostsAllow: string[];
  /**
   * TWO_FACTOR_REQUIRED=false: a NEW database starts with the second factor optional for
   * administrators (test suites, benches, rehearsals); the setting in Preferencias decides after.
   */
  twoFactorRequired?: boolean;
}

export interface RateLimits {
  /** POST /api/auth/login and the own profile (which checks a password). */
  login: number;
  /** The public survey: read by token and answer. */
  survey: number;
  /** File uploads, every upload route together. */
  upload: number;
}

/** ~15,000 sales rows: a file past it takes seconds to read and save, so it runs as a job. */
export const IMPORT_JOB_BYTES = 1024 * 1024;
/** A list's count is exact up to 10,000 (core/resource-query COUNT_CAP): beyond it, a job. */
export const EXPORT_JOB_ROWS = 10_000;

export const DEFAULT_RATE_LIMITS: RateLimits = { login: 30, survey: 60, upload: 10 };

/** Empty strings count as "not set", so `PORT= npm start` behaves like no PORT at all. */
function read(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

function readPort(env: NodeJS.ProcessEnv): number {
  const raw = read(env, 'PORT');
  if (raw === undefined) return 3000;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT inválido: "${raw}" (se espera un entero entre 0 y 65535)`);
  }
  return port;
}

function readLimit(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) {
    throw new Error(`${name} inválido: "${raw}" (se espera un entero >= 0; 0 desactiva el límite)`);
  }
  return n;
}

function readTwoFactor(env: NodeJS.ProcessEnv): boolean | undefined {
  const raw = read(env, 'TWO_FACTOR_REQUIRED')?.toLowerCase();
  if (raw === undefined) return undefined;
  if (['true', '1', 'si', 'sí'].includes(raw)) return true;
  if (['false', '0', 'no'].includes(raw)) return false;
  throw new Error(`TWO_FACTOR_REQUIRED inválido: "${raw}" (se espera true o false)`);
}

const TRUST_PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An address, a CIDR range (`10.0.0.0/8`, `fd00::/8`) or one of proxy-addr's names. */
function isProxyAddress(item: string): boolean {
  if (TRUST_PROXY_NAMES.has(item.toLowerCase())) return true;
  const [address, bits, extra] = item.split('/');
  const family = isIP(address ?? '');
  if (!family || extra !== undefined) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d{1,3}$/.test(bits) && n >= 0 && n <= (family === 4 ? 32 : 128);
}

export const TRUST_PROXY_TRUE_MESSAGE =
  'TRUST_PROXY=true no se admite: cualquiera podría elegir su dirección con X-Forwarded-For y evitar el límite de intentos. Indique las direcciones o rangos de sus proxies (por ejemplo 10.0.0.0/8) o el número de proxies delante del servidor (por ejemplo 1)';

/**
 * TRUST_PROXY: unset/false/0 → false (the client is the connection's address); a hop count
 * (the number of proxies in front, e.g. `1`); or the proxies' addresses/ranges, comma-separated
 * (`127.0.0.1`, `10.0.0.0/8`, `loopback`). `true` (trust every hop) is refused: anyone could
 * then pick the address the limits count by.
 */
function readTrustProxy(env: NodeJS.ProcessEnv): false | number | string {
  const raw = read(env, 'TRUST_PROXY');
  if (raw === undefined || /^(false|0|no)$/i.test(raw)) return false;
  if (/^(true|yes|\*)$/i.test(raw)) throw new Error(TRUST_PROXY_TRUE_MESSAGE);
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops > 10) throw new Error(`TRUST_PROXY inválido: "${raw}" (un número de proxies entre 1 y 10)`);
    return hops;
  }
  const items = raw.split(',').map((i) => i.trim());
  const wrong = items.find((i) => !isProxyAddress(i));
  if (wrong !== undefined)
    throw new Error(
      `TRUST_PROXY inválido: "${wrong}" (se espera una lista de direcciones o rangos CIDR separados por comas, por ejemplo 10.0.0.0/8,127.0.0.1, o el número de proxies, por ejemplo 1)`,
    );
  return items.join(',');
}

function readFakeNow(env: NodeJS.ProcessEnv): string | undefined {
  const raw = read(env, 'FAKE_NOW');
  if (raw === undefined) return undefined;
  if (!Number.isFinite(Date.parse(raw)))
    throw new Error(
      `FAKE_NOW inválido: "${raw}" (se espera una fecha y hora ISO, p. ej. 2026-12-31T22:00:00-05:00)`,
    );
  return raw;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const port = readPort(env);
  return {
    port,
    host: read(env, 'HOST') ?? '0.0.0.0',
    dataDir: read(env, 'DATA_DIR') ?? './data',
    databaseUrl: read(env, 'DATABASE_URL'),
    adminUsername: read(env, 'ADMIN_USERNAME') ?? 'admin',
    adminPassword: read(env, 'ADMIN_PASSWORD'),
    smtpUrl: read(env, 'SMTP_URL'),
    publicUrl: (read(env, 'PUBLIC_URL') ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    jwtSecret: read(env, 'JWT_SECRET'),
    rateLimits: {
      login: readLimit(env, 'RATE_LIMIT_LOGIN', DEFAULT_RATE_LIMITS.login),
      survey: readLimit(env, 'RATE_LIMIT_SURVEY', DEFAULT_RATE_LIMITS.survey),
      upload: readLimit(env, 'RATE_LIMIT_UPLOAD', DEFAULT_RATE_LIMITS.upload),
    },
    trustProxy: readTrustProxy(env),
    mailRetrySeconds: readLimit(env, 'MAIL_RETRY_SECONDS', 60),
    importJobBytes: readLimit(env, 'IMPORT_JOB_BYTES', IMPORT_JOB_BYTES),
    exportJobRows: readLimit(env, 'EXPORT_JOB_ROWS', EXPORT_JOB_ROWS),
    fakeNow: readFakeNow(env),
    metricsToken: read(env, 'METRICS_TOKEN'),
    externalHostsAllow: parseHostsAllow(read(env, 'EXTERNAL_HOSTS_ALLOW')),
    twoFactorRequired: readTwoFactor(env),
  };
}
