// Real server processes for the tests of several instances, faults and shutdown: `node main.js`
// of this run's bundle of the sources (entry.ts: built once per run, never a stale dist/), its
// own PostgreSQL database (rel_*), a TCP proxy in front of PostgreSQL that a test can cut, and a
// round-robin HTTP proxy in front of several instances. Every address is 127.0.0.1, every port
// in RELIABILITY_PORTS.
import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { ADMIN_PASSWORD, databaseUrlFor, dropDatabaseWhenIdle } from '../template';
import { serverArgs, serverBuild } from './entry';

/** The ports these tests may open (two test files at once: each takes its own block). */
export const RELIABILITY_PORTS = {
  multiServer: { proxy: 3370, a: 3371, b: 3372 },
  faults: { server: 3373, dbProxy: 3374, smtp: 3375, second: 3376 },
  backup: { server: 3377 },
  dataLock: { a: 3378, b: 3379 },
  jobsKill: { server: 3380 },
} as const;

const apiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  port: number;
  /** Everything it printed (stdout and stderr), line by line. */
  lines: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * How long a start may take before the test gives up: it resolves as soon as the server prints
 * "Aplicación lista", so this is only a cap for a very busy machine.
 */
const START_BUDGET_MS = 300_000;

/** Starts the API on a port; resolves once it printed "Aplicación lista". */
export async function startServer(port: number, env: Record<string, string>): Promise<ServerProcess> {
  await serverBuild();
  const child = spawn(process.execPath, serverArgs(), {
    cwd: apiDir,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_PASSWORD,
      TWO_FACTOR_REQUIRED: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`sin "Aplicación lista" en ${START_BUDGET_MS / 1000} s:\n${lines.join('\n')}`)),
      START_BUDGET_MS,
    );
    const read = (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) {
        if (!line) continue;
        lines.push(line);
        if (line.includes('Aplicación lista')) {
          clearTimeout(timer);
          resolve();
        }
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    void exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`el servidor terminó (${code}) antes de estar listo:\n${lines.join('\n')}`));
    });
  });
  await ready;
  return { child, url: `http://127.0.0.1:${port}`, port, lines, exited };
}

export async function stopServer(server: ServerProcess | undefined): Promise<void> {
  if (!server || server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.child.kill('SIGTERM');
  await Promise.race([server.exited, new Promise((r) => setTimeout(r, 12_000))]);
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
}

// ---------- HTTP ----------

export interface Reply {
  status: number;
  body: any;
  headers: Headers;
  ms: number;
}

/** One JSON call; a network error answers status 0 with the error's code as body. */
export async function call(
  base: string,
  method: string,
  url: string,
  opts: {
    token?: string;
    body?: unknown;
    raw?: Buffer;
    headers?: Record<string, string>;
    timeoutMs?: number;
  } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let payload: BodyInit | undefined;
  if (opts.raw) payload = new Uint8Array(opts.raw);
  else if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(opts.body);
  }
  const t0 = performance.now();
  try {
    const res = await fetch(`${base}${url}`, {
      method,
      headers,
      body: payload,
      signal: AbortSignal.timeout(opts.timeoutMs ?? 30_000),
    });
    const type = res.headers.get('content-type') ?? '';
    const body = type.includes('json') ? await res.json() : Buffer.from(await res.arrayBuffer());
    return { status: res.status, body, headers: res.headers, ms: performance.now() - t0 };
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause;
    return {
      status: 0,
      body: cause?.code ?? (err as Error).name,
      headers: new Headers(),
      ms: performance.now() - t0,
    };
  }
}

export async function loginAt(base: string, username = 'admin', password = ADMIN_PASSWORD): Promise<string> {
  const res = await call(base, 'POST', '/api/auth/login', { body: { username, password } });
  if (res.status !== 200)
    throw new Error(`login ${username} en ${base}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.result.access_token;
}

// ---------- PostgreSQL ----------

export const pgUrl = () => process.env.TEST_DATABASE_URL ?? '';

/** A new database named rel_<what>_<pid>: empty, or a copy of the suite's seeded template. */
export async function createDatabase(what: string, template?: string) {
  const name = `rel_${what}_${process.pid}`;
  const admin = new pg.Client({ connectionString: pgUrl() });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  const url = databaseUrlFor(pgUrl(), name);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    name,
    url,
    /** A client of the database itself, for the checks a test makes behind the API's back. */
    client,
    async query<T = any>(text: string, params?: unknown[]): Promise<T[]> {
      return (await client.query(text, params as unknown[])).rows as T[];
    },
    async drop() {
      await client.end().catch(() => {});
      await dropDatabaseWhenIdle(admin, name);
    },
  };
}

export type TestDatabase = Awaited<ReturnType<typeof createDatabase>>;

// ---------- proxies ----------

/**
 * A TCP proxy to PostgreSQL that a test can cut (every open connection reset, new ones refused)
 * and restore: the database becomes unreachable for the server without stopping the machine's
 * PostgreSQL server, which others use.
 */
export async function startTcpProxy(port: number, target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>();
  let cut = false;
  const server = net.createServer((client) => {
    if (cut) {
      client.resetAndDestroy();
      return;
    }
    const upstream = net.connect(target.port, target.host);
    sockets.add(client).add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    cut() {
      cut = true;
      for (const s of sockets) s.resetAndDestroy();
      sockets.clear();
    },
    restore() {
      cut = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Round robin over instances; each answer says which one served it (x-instancia: 0, 1, ...). */
export async function startRoundRobin(port: number, upstreams: number[]) {
  let next = 0;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const server = http.createServer((req, res) => {
    const index = next++ % upstreams.length;
    const forward = http.request(
      {
        host: '127.0.0.1',
        port: upstreams[index],
        method: req.method,
        path: req.url,
        headers: req.headers,
        agent,
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, { ...up.headers, 'x-instancia': String(index) });
        up.pipe(res);
      },
    );
    forward.on('error', () => {
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end('{"success":false,"result":null,"error":{"code":502,"message":"instancia no disponible"}}');
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Polls until check() answers true or the time is up; answers the time it took (ms) or -1. */
export async function waitFor(
  check: () => Promise<boolean>,
  timeoutMs: number,
  everyMs = 100,
): Promise<number> {
  const t0 = performance.now();
  while (performance.now() - t0 < timeoutMs) {
    if (await check()) return performance.now() - t0;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return -1;
}
