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
}

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
    throw new Error(`PORT invalido: "${raw}" (se espera un entero entre 0 y 65535)`);
  }
  return port;
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
  };
}
