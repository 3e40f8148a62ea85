// Migrates and seeds one template database per run: a PGlite folder (copied per test file),
// or, with TEST_DATABASE_URL, a PostgreSQL database used as CREATE DATABASE ... TEMPLATE.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/client';
import { databaseUrlFor, seedAsTemplate } from './template';

declare module 'vitest' {
  export interface ProvidedContext {
    templateDir: string;
    templateDb: string;
    /** Where test/process/entry.ts bundles the server for this run (made on first use), and
     * beside it (.pglite) the seeded PGlite folder of a run over PostgreSQL. */
    serverBuildDir: string;
  }
}

const apiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The server bundle of this run, and those left by runs that were killed (their process is gone). */
function serverBuildDir(): { dir: string; remove: () => void } {
  for (const name of readdirSync(apiDir)) {
    const pid = Number(/^\.test-server-(\d+)(\.|$)/.exec(name)?.[1]);
    if (!pid) continue;
    try {
      process.kill(pid, 0);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ESRCH')
        rmSync(path.join(apiDir, name), { recursive: true, force: true });
    }
  }
  const dir = path.join(apiDir, `.test-server-${process.pid}`);
  const remove = () => {
    for (const name of readdirSync(apiDir))
      if (name === path.basename(dir) || name.startsWith(`${path.basename(dir)}.`))
        rmSync(path.join(apiDir, name), { recursive: true, force: true });
  };
  return { dir, remove };
}

export default async function setup(project: TestProject) {
  const build = serverBuildDir();
  project.provide('serverBuildDir', build.dir);
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const templateDb = `tmpl_api_${process.pid}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`drop database if exists ${templateDb}`);
    await admin.query(`create database ${templateDb}`);
    const handle = await openDatabase({ databaseUrl: databaseUrlFor(url, templateDb), poolSize: 2 });
    await handle.migrate();
    await seedAsTemplate(handle);
    await handle.close();
    project.provide('templateDb', templateDb);
    project.provide('templateDir', '');
    return async () => {
      build.remove();
      await admin.query(`drop database if exists ${templateDb} with (force)`).catch(() => {});
      await admin.end();
    };
  }
  const templateDir = mkdtempSync(path.join(tmpdir(), 'api-template-'));
  const handle = await openDatabase({ dataDir: templateDir });
  await handle.migrate();
  await seedAsTemplate(handle);
  await handle.close();
  project.provide('templateDir', templateDir);
  project.provide('templateDb', '');
  return () => {
    build.remove();
    rmSync(templateDir, { recursive: true, force: true });
  };
}
