// Runtime configuration, read once from the environment at start-up.

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
  /** Fastify's trustProxy: false (default), true, or the proxies' addresses. */
  trustProxy: boolean | string;
  /** Seconds between two automatic sends of the failed and pending mail (0: only on demand). */
  mailRetrySeconds: number;
}

export interface RateLimits {
  /** POST /api/auth/login and the own profile (which checks a password). */
  login: number;
  /** The public survey: read by token and answer. */
  survey: number;
  /** File uploads (sales import). */
  upload: number;
}

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

/**
 * TRUST_PROXY: unset/false → false (the client is the connection's address); true; or the
 * proxies' addresses/ranges, comma-separated (e.g. `127.0.0.1`, `10.0.0.0/8`, `loopback`).
 */
function readTrustProxy(env: NodeJS.ProcessEnv): boolean | string {
  const raw = read(env, 'TRUST_PROXY');
  if (raw === undefined || /^(false|0|no)$/i.test(raw)) return false;
  if (/^(true|1|yes)$/i.test(raw)) return true;
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
  };
}
