// The server as the process tests spawn it: one tsup bundle of src/ per test run (the same build
// as dist/, plus the data-folder lock as an entry of its own), made by the first test file that
// asks, while the others wait for it. Under `node --import tsx src/main.ts` every spawn loaded
// the sources through tsx's loader (~2.7 s of CPU per start against ~1.1 s for the bundle);
// data-lock and backup start ~15 processes each. The bundle is built from the working tree at
// each run, never a stale dist/, and sits at apps/api/.test-server-<pid>/ (global-setup.ts), one
// level below apps/api like dist/, so it finds what dist/main.js finds (apps/web/dist).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { openDatabase } from '../../src/db/client';
import { seedAsTemplate } from '../template';

const apiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Only a cap for a very busy machine: a waiter polls for the end of the build (or of the seed). */
const BUILD_BUDGET_MS = 300_000;

let building: Promise<string> | undefined;
let builtDir: string | undefined;

/** Builds the bundle (or waits for the test file building it); call it in a beforeAll. */
export function serverBuild(): Promise<string> {
  building ??= buildOnce().then((dir) => {
    builtDir = dir;
    return dir;
  });
  return building;
}

function tsup(outDir: string): Promise<{ code: number | null; out: string }> {
  const cli = createRequire(import.meta.url).resolve('tsup/dist/cli-default.js');
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [cli, 'src/main.ts', 'src/xlsx-worker.ts', 'src/ops/data-lock.ts', '--out-dir', outDir],
      { cwd: apiDir, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
    });
    child.stderr.on('data', (c) => {
      out += c;
    });
    child.on('exit', (code) => resolve({ code, out }));
  });
}

/**
 * make(dir) once per test run, whichever test file asks first (mkdir is the lock); the others
 * wait for its LISTO beside the folder (or its FALLO).
 */
async function oncePerRun(dir: string, what: string, make: (dir: string) => Promise<void>): Promise<string> {
  const done = `${dir}.LISTO`;
  const failed = `${dir}.FALLO`;
  let mine = false;
  try {
    mkdirSync(dir);
    mine = true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  if (mine) {
    try {
      await make(dir);
    } catch (err) {
      writeFileSync(failed, String((err as Error).message));
      throw err;
    }
    writeFileSync(done, '');
    return dir;
  }
  const t0 = performance.now();
  while (!existsSync(done)) {
    if (existsSync(failed)) throw new Error(`no se pudo preparar ${what}:\n${readFileSync(failed, 'utf8')}`);
    if (performance.now() - t0 > BUILD_BUDGET_MS) throw new Error(`${what} no quedó listo en ${dir}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return dir;
}

function buildOnce(): Promise<string> {
  return oncePerRun(inject('serverBuildDir'), 'el servidor de las pruebas', async (dir) => {
    const res = await tsup(dir);
    if (res.code !== 0 || !existsSync(path.join(dir, 'main.js')))
      throw new Error(`no se pudo construir el servidor para las pruebas:\n${res.out}`);
  });
}

let pglite: Promise<string> | undefined;

/**
 * A migrated and seeded PGlite data folder to copy: the suite's template on PGlite; on a run over
 * PostgreSQL (which has none), one made once for the run by the first file that asks, instead of
 * a migration and a seed in each file that needs one.
 */
export function seededPgliteFolder(): Promise<string> {
  const template = inject('templateDir');
  if (template) return Promise.resolve(template);
  pglite ??= oncePerRun(
    `${inject('serverBuildDir')}.pglite`,
    'la base PGlite de las pruebas',
    async (dir) => {
      const handle = await openDatabase({ dataDir: dir });
      try {
        await handle.migrate();
        await seedAsTemplate(handle);
      } finally {
        await handle.close();
      }
    },
  );
  return pglite;
}

function built(): string {
  if (!builtDir) throw new Error('serverBuild() antes de iniciar procesos (en un beforeAll)');
  return builtDir;
}

/** The arguments of `node` for the CLI and the server: `node <bundle>/main.js ...args`. */
export function serverArgs(...args: string[]): string[] {
  return [path.join(built(), 'main.js'), ...args];
}

/** The bundle's ops/data-lock.js, for a script that takes the lock as the server does. */
export function dataLockModule(): string {
  return path.join(built(), 'ops', 'data-lock.js');
}
