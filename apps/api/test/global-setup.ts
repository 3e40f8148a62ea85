// Migrates and seeds one template database per run: a PGlite folder (copied per test file),
// or, with TEST_DATABASE_URL, a PostgreSQL database used as CREATE DATABASE ... TEMPLATE.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/client';
import { databaseUrlFor, seedAsTemplate } from './template';

declare module 'vitest' {
  export interface ProvidedContext {
    templateDir: string;
    templateDb: string;
  }
}

export default async function setup(project: TestProject) {
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
  return () => rmSync(templateDir, { recursive: true, force: true });
}
