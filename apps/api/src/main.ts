// `npm start`: read the configuration, prepare the database (migrate + seed), serve the API and
// the built web client, print the address and the first login. Stops cleanly on SIGINT/SIGTERM.
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app';
import { buildPgliteTemplate, prepareDatabase } from './bootstrap';
import { type AppConfig, loadConfig } from './config';
import { folderStorageFor } from './core/storage';
import { BackupError, backup, defaultBackupFolder, PID_FILE, restore } from './ops/backup';
import { describeDemo, seedDemo } from './seed/demo';

/** apps/web/dist, found from the bundle (apps/api/dist/main.js) and from src/main.ts alike. */
function webDistFolder(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  return path.resolve(here, '../../web/dist');
}

/** After a stop signal: requests in flight have this long to finish; the process ends by the limit. */
const SHUTDOWN_GRACE_MS = 8500;
const SHUTDOWN_LIMIT_MS = 9700;

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
  if (argv[0] === '--backup' || argv[0] === '--restore') return backupCommand(config, argv);
  const prepared = await prepareDatabase(config);
  const { handle } = prepared;

  // The demo network: `--seed-demo` loads it and exits; DEMO=1 loads it and serves.
  const demoOnly = argv.includes('--seed-demo');
  if (demoOnly || process.env.DEMO === '1') {
    try {
      const demo = await seedDemo(handle, {
        password: process.env.DEMO_PASSWORD,
        storage: folderStorageFor(config.dataDir),
      });
      for (const line of describeDemo(demo)) console.log(line);
    } catch (err) {
      await handle.close().catch(() => {});
      throw err;
    }
    if (demoOnly) {
      await handle.close();
      return;
    }
  }

  const app = await buildApp({ handle, config, jwtSecret: prepared.jwtSecret, webDist: webDistFolder() });

  let closing = false;
  let pidFile: string | undefined;
  // SIGTERM/SIGINT: no new connection is accepted and new requests on open connections answer
  // 503; the requests in flight finish. What is still open after SHUTDOWN_GRACE_MS is cut, and
  // the process ends within SHUTDOWN_LIMIT_MS whatever happens (a balancer's usual 10 s).
  const shutdown = async (signal: string) => {
    if (closing) {
      console.error('Cierre forzado.');
      process.exit(1);
    }
    closing = true;
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
      if (pidFile) rmSync(pidFile, { force: true });
      console.log('Servidor cerrado.');
      process.exit(0);
    } catch (err) {
      console.error('Error al cerrar:', err instanceof Error ? err.message : err);
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
    await handle.close().catch(() => {});
    throw err;
  }

  // PGlite: the data folder is this process's alone; backup and restore check this file.
  if (handle.kind === 'pglite') {
    pidFile = path.join(path.resolve(config.dataDir), PID_FILE);
    writeFileSync(pidFile, String(process.pid));
  }

  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url =
    config.publicUrl === `http://localhost:${config.port}` ? `http://localhost:${port}` : config.publicUrl;
  console.log(`Aplicación lista en ${url}`);
  console.log(loginLine(config, prepared.generatedAdminPassword, prepared.adminCreated));
  if (prepared.generatedAdminPassword) {
    console.log('Guarde esta contraseña: no se volverá a mostrar (cámbiela desde Perfil).');
  }
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
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
}

main(process.argv.slice(2)).catch((err) => {
  console.error('No se pudo iniciar la aplicación:', err instanceof Error ? err.message : err);
  if (process.env.DEBUG) console.error(err);
  process.exit(1);
});
