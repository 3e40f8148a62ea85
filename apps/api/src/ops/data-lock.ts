// One process at a time on a PGlite data folder. PGlite is PostgreSQL in one process without its
// shared memory or file locks: two processes on one folder both write its files and corrupt it.
// A server, a backup, a restore and the demo seed first take this lock, an OS-level one that a
// crash cannot leave behind:
//   - the holder listens on a Unix domain socket inside DATA_DIR (.uso.sock) and answers, to
//     whoever connects, its pid and what it is doing;
//   - a second process finds the socket: it connects, and a live holder accepts (the kernel does,
//     even while the holder's event loop is busy), so it is refused with a message naming that
//     pid; a holder killed with -9 leaves a socket file that refuses connections, which is
//     removed and the lock taken again;
//   - taking a dead holder's place is the one step two processes could race (both remove the
//     stale file, the second removes the first's new socket): on Linux it is done while holding
//     an abstract socket named after the folder (the kernel frees it with its process), so the
//     check and the take are one step.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/** The lock's files in DATA_DIR (hidden, so backups and restores leave them alone). */
export const LOCK_SOCKET = '.uso.sock';
export const LOCK_PID = '.uso.pid';

/** What the holder is doing, in the words of the refusal. */
export type LockRole = 'servidor' | 'respaldo' | 'restauracion' | 'demo';

const HOLDER: Record<LockRole, string> = {
  servidor: 'El servidor',
  respaldo: 'Un respaldo',
  restauracion: 'Una restauracion',
  demo: 'La carga de la red de demostración',
};

export class DataFolderBusyError extends Error {
  constructor(
    message: string,
    readonly pid: number | undefined,
  ) {
    super(message);
  }
}

export interface DataFolderLock {
  release(): Promise<void>;
}

interface Holder {
  pid?: number;
  role?: LockRole;
}

/** Unix socket addresses are at most ~107 bytes: a long DATA_DIR is reached by a relative path. */
function socketAddress(file: string): string {
  if (Buffer.byteLength(file) <= 100) return file;
  const rel = path.relative(process.cwd(), file);
  if (Buffer.byteLength(rel) <= 100) return rel;
  throw new Error(
    `La ruta de DATA_DIR es demasiado larga para su bloqueo (${file}): use una carpeta con una ruta mas corta.`,
  );
}

function listen(address: string, role: LockRole): Promise<net.Server | undefined> {
  return new Promise((resolve, reject) => {
    const server = net.createServer((socket) => {
      socket.on('error', () => {});
      socket.end(`${JSON.stringify({ pid: process.pid, role })}\n`);
    });
    server.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') resolve(undefined);
      else reject(err);
    });
    server.listen(address, () => {
      // The lock must not keep a finished command (backup, restore) alive.
      server.unref();
      resolve(server);
    });
  });
}

/** A live holder (its answer, possibly empty while it is busy), or undefined for none. */
function probe(address: string): Promise<Holder | undefined> {
  return new Promise((resolve) => {
    const socket = net.connect(address);
    let text = '';
    let connected = false;
    const done = (holder: Holder | undefined) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(holder);
    };
    // Connected but no answer in time (a holder whose event loop is busy): alive all the same.
    const timer = setTimeout(() => done(connected ? {} : undefined), 3000);
    socket.on('connect', () => {
      connected = true;
    });
    socket.on('data', (chunk) => {
      text += chunk.toString();
    });
    socket.on('end', () => {
      try {
        done(JSON.parse(text) as Holder);
      } catch {
        done({});
      }
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (connected) return done({});
      // Refused or absent: nobody listens there. Anything else (a full backlog): someone does.
      done(err.code === 'ECONNREFUSED' || err.code === 'ENOENT' ? undefined : {});
    });
  });
}

/** Linux: an abstract socket named after the folder, held while a stale lock is replaced. */
async function takeoverGuard(dir: string): Promise<net.Server | undefined> {
  if (process.platform !== 'linux') return undefined;
  const st = statSync(dir);
  const name = `\0red-concesionarios-datos-${createHash('sha256').update(`${st.dev}:${st.ino}`).digest('hex').slice(0, 32)}`;
  for (let i = 0; i < 100; i++) {
    const server = await listen(name, 'servidor').catch(() => undefined);
    if (server) return server;
    await new Promise((r) => setTimeout(r, 50));
  }
  return undefined;
}

function readPidFile(dir: string): number | undefined {
  try {
    const pid = Number(readFileSync(path.join(dir, LOCK_PID), 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes the lock of a PGlite DATA_DIR for this process, or throws DataFolderBusyError naming the
 * process that holds it: "<holder> (proceso <pid>) está usando <dir>: deténgalo antes de <what>."
 */
export async function lockDataFolder(dataDir: string, role: LockRole, what: string): Promise<DataFolderLock> {
  mkdirSync(path.resolve(dataDir), { recursive: true });
  const dir = realpathSync(path.resolve(dataDir));
  const file = path.join(dir, LOCK_SOCKET);
  const address = socketAddress(file);
  const guard = await takeoverGuard(dir);
  try {
    let server = await listen(address, role);
    if (!server) {
      const holder = await probe(address);
      if (holder) {
        const pid = holder.pid ?? readPidFile(dir);
        const who = HOLDER[holder.role ?? 'servidor'] ?? HOLDER.servidor;
        throw new DataFolderBusyError(
          `${who} (proceso ${pid ?? 'desconocido'}) está usando ${path.resolve(dataDir)}: deténgalo antes de ${what}.`,
          pid,
        );
      }
      // Left by a process that ended without closing it (kill -9, a crash): taken again.
      rmSync(file, { force: true });
      server = await listen(address, role);
      if (!server)
        throw new DataFolderBusyError(`Otro proceso esta tomando ${path.resolve(dataDir)}.`, undefined);
    }
    writeFileSync(path.join(dir, LOCK_PID), String(process.pid));
    const held = server;
    let released = false;
    return {
      async release() {
        if (released) return;
        released = true;
        if (readPidFile(dir) === process.pid) rmSync(path.join(dir, LOCK_PID), { force: true });
        // Closing removes the socket file first, then stops listening: never another's socket.
        await new Promise<void>((resolve) => held.close(() => resolve()));
      },
    };
  } finally {
    if (guard) await new Promise<void>((resolve) => guard.close(() => resolve()));
  }
}
