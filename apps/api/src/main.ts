// `npm start`: read the configuration, prepare the database (migrate + seed), serve the API and
// the built web client, print the address and the first login. Stops cleanly on SIGINT/SIGTERM.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { buildApp } from './app';
import { buildPgliteTemplate, prepareDatabase } from './bootstrap';
import { type AppConfig, loadConfig } from './config';
import { nowMs, pinClock } from './core/lima';
import { folderStorageFor } from './core/storage';
import { errorLine, redactErrorSerializer } from './lib/log-redact';
import { BackupError, backup, defaultBackupFolder, restore } from './ops/backup';
import { DataFolderBusyError, type DataFolderLock, lockDataFolder } from './ops/data-lock';
import { describeDemo, seedDemo } from './seed/demo';

/** apps/web/dist, found from the bundle (apps/api/dist/main.js) and from src/main.ts alike. */
function webDistFolder(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  return path.resolve(here, '../../web/dist');
}

/** After a stop signal: requests in flight have this long to finish; the process ends by the limit. */
const SHUTDOWN_GRACE_MS = 8500;
const SHUTDOWN_LIMIT_MS = 9700;
/** Beyond the limit, a thread of its own ends the process even if the event loop is held. */
const SHUTDOWN_KILL_MS = 9900;

/**
 * PGlite runs each query on the main thread: under CPU load one statement can hold the event
 * loop for seconds, and then the limit's timer fires late (SIGTERM took 14.5 s). This watchdog
 * runs in a worker thread, whose timers do not wait for the main loop; told that a stop began,
 * it ends the process with SIGKILL at SHUTDOWN_KILL_MS unless the process ended before (what
 * was acknowledged is committed: a kill loses no acknowledged write). It cannot print: a worker's
 * output goes through the main thread, which is the one held.
 */
function startShutdownWatchdog(): (() => void) | undefined {
  try {
    const worker = new Worker(
      `const { parentPort } = require('node:worker_threads');
       parentPort.once('message', (ms) => {
         setTimeout(() => process.kill(${process.pid}, 'SIGKILL'), ms);
       });`,
      { eval: true },
    );
    worker.unref();
    worker.on('error', () => {});
    return () => worker.postMessage(SHUTDOWN_KILL_MS);
  } catch {
    return undefined;
  }
}

function loginLine(config: AppConfig, generated: string | undefined, created: boolean): string {
  if (generated) return `Usuario: ${config.adminUsername} / Contraseña: ${generated}`;
  if (created && config.adminPassword)
    return `Usuario: ${config.adminUsername} / Contraseña: (ADMIN_PASSWORD)`;
  return `Usuario: ${config.adminUsername} / Contraseña: (ya definida)`;
}

async function main(argv: string[]): Promise<void> {
  if (argv.includes('--build-pglite-template')) {
    // Build step (root `npm run build`): makes the first start on a new DATA_DIR fast.
    const t0 = Date.now();
    const dest = await buildPgliteTemplate();
    console.log(`Plantilla PGlite lista en ${dest} (${Date.now() - t0} ms)`);
    return;
  }
  const config = loadConfig();
  if (config.fakeNow) {
    // Tests and rehearsals only: the business clock starts at that instant and goes on from it.
    pinClock(config.fakeNow);
    console.log(`Reloj fijado (FAKE_NOW): ${new Date(nowMs()).toISOString()}`);
  }
  if (argv[0] === '--backup' || argv[0] === '--restore') return backupCommand(config, argv);
  // The demo network: `--seed-demo` loads it and exits; DEMO=1 loads it and serves.
  const demoOnly = argv.includes('--seed-demo');
  // PGlite: the data folder is this process's alone from its first step (one writer), until it
  // ends; a second server, a backup or a restore is refused meanwhile.
  const folderLock: DataFolderLock | undefined = config.databaseUrl
    ? undefined
    : await lockDataFolder(
        config.dataDir,
        demoOnly ? 'demo' : 'servidor',
        demoOnly
          ? 'cargar la red de demostración'
          : 'iniciar otro servidor sobre la misma carpeta (o use otra DATA_DIR)',
      );
  let prepared: Awaited<ReturnType<typeof prepareDatabase>>;
  try {
    prepared = await prepareDatabase(config);
  } catch (err) {
    await folderLock?.release();
    throw err;
  }
  const { handle } = prepared;
  const closeAll = async () => {
    await handle.close().catch(() => {});
    await folderLock?.release();
  };

  if (demoOnly || process.env.DEMO === '1') {
    try {
      const demo = await seedDemo(handle, {
        password: process.env.DEMO_PASSWORD,
        storage: folderStorageFor(config.dataDir),
      });
      for (const line of describeDemo(demo)) console.log(line);
    } catch (err) {
      await closeAll();
      throw err;
    }
    if (demoOnly) {
      await closeAll();
      return;
    }
  }

  const app = await buildApp({ handle, config, jwtSecret: prepared.jwtSecret, webDist: webDistFolder() });

  let closing = false;
  const watchdog = startShutdownWatchdog();
  // SIGTERM/SIGINT: no new connection is accepted and new requests on open connections answer
  // 503; the requests in flight finish. What is still open after SHUTDOWN_GRACE_MS is cut, and
  // the process ends within SHUTDOWN_LIMIT_MS whatever happens (a balancer's usual 10 s).
  const shutdown = async (signal: string) => {
    if (closing) {
      console.error('Cierre forzado.');
      process.exit(1);
    }
    closing = true;
    watchdog?.();
    console.log(`${signal} recibido: terminando las solicitudes en curso y cerrando el servidor...`);
    const cut = setTimeout(() => {
      console.error('Cierre: se cortan las conexiones que siguen abiertas.');
      app.server.closeAllConnections();
    }, SHUTDOWN_GRACE_MS);
    const limit = setTimeout(() => {
      console.error('Cierre forzado: el servidor no terminó a tiempo.');
      process.exit(1);
    }, SHUTDOWN_LIMIT_MS);
    cut.unref();
    limit.unref();
    try {
      await app.close();
      await handle.close();
      await folderLock?.release();
      console.log('Servidor cerrado.');
      process.exit(0);
    } catch (err) {
      console.error(`Error al cerrar: ${errorLine(err)}`);
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      console.error(`El puerto ${config.port} ya está en uso. Use otro con PORT=...`);
    await closeAll();
    throw err;
  }

  // This server works the shared job queue from now on (big imports and exports; core/jobs.ts).
  await app.ctx.jobs
    .start()
    .catch((err) => console.error(`La cola de trabajos no pudo iniciar: ${errorLine(err)}`));

  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url =
    config.publicUrl === `http://localhost:${config.port}` ? `http://localhost:${port}` : config.publicUrl;
  console.log(`Aplicación lista en ${url}`);
  console.log(loginLine(config, prepared.generatedAdminPassword, prepared.adminCreated));
  if (prepared.generatedAdminPassword) {
    console.log('Guarde esta contraseña: no se volverá a mostrar (cámbiela desde Perfil).');
  }
  if (prepared.adminCreated && config.twoFactorRequired !== false)
    console.log(
      'Al primer inicio de sesión se pide activar la verificación en dos pasos (una aplicación de autenticación en el teléfono).',
    );
  console.log(
    `Base de datos: ${handle.kind === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : path.resolve(config.dataDir)}`,
  );
}

/** `--backup [folder]` and `--restore <folder>` (npm run backup / npm run restore). */
async function backupCommand(config: AppConfig, argv: string[]): Promise<void> {
  const [command, folder] = argv;
  try {
    if (command === '--backup') {
      const target = folder ?? defaultBackupFolder();
      const m = await backup(config, target);
      console.log(
        `Respaldo listo en ${path.resolve(target)}: base ${m.kind === 'postgres' ? 'PostgreSQL (pg_dump)' : 'PGlite'}, ${m.files} archivos (${m.bytes} bytes).`,
      );
      return;
    }
    if (!folder) throw new BackupError('Indique la carpeta del respaldo: npm run restore -- <carpeta>');
    const { manifest, previous } = await restore(config, folder);
    console.log(`Restaurado el respaldo del ${manifest.created_at} (${manifest.files} archivos).`);
    if (previous) console.log(`Lo que había antes quedó respaldado en ${previous}.`);
  } catch (err) {
    if (err instanceof BackupError) {
      console.error(errorLine(err));
      process.exit(2);
    }
    throw err;
  }
}

main(process.argv.slice(2)).catch((err) => {
  if (err instanceof DataFolderBusyError) {
    console.error(`No se pudo iniciar la aplicación: ${err.message}`);
    process.exit(1);
  }
  // One line, the database's own message and code first; never the values of a query.
  console.error(`No se pudo iniciar la aplicación: ${errorLine(err)}`);
  if (process.env.DEBUG) console.error(JSON.stringify(redactErrorSerializer(err), null, 2));
  process.exit(1);
});
