// Browser flows against the real API on a fresh database (the API serves the built client:
// run `npm run build` first). Debian's chromium; never `npx playwright install`.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';

// E2E_PORT in the environment lets two checkouts run their browser suites side by side.
export const E2E_PORT = Number(process.env.E2E_PORT) || 3310;
export const ADMIN_PASSWORD = 'Admin12345';
/** Uploads from this size on run as background jobs (e2e/jobs.spec.ts); the other specs' files are far smaller. */
export const E2E_IMPORT_JOB_BYTES = 150_000;
/** jobs.spec.ts's big import (6,000 sales) makes the export of its rows a job. */
export const E2E_EXPORT_JOB_ROWS = 5_000;

/**
 * The server's business clock for the suite (FAKE_NOW): 23:00 in Lima today, when UTC's day is
 * already tomorrow, so a date built from the wrong clock fails whatever the hour of the run; the
 * hour before Lima's midnight is the suite's margin (it ticks on from there).
 */
const limaToday = new Date(Date.now() - 5 * 3_600_000).toISOString().slice(0, 10);
export const SERVER_CLOCK = `${limaToday}T23:00:00-05:00`;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export default defineConfig({
  testDir: './e2e',
  outputDir: './test-results/artifacts',
  workers: 1,
  fullyParallel: false,
  // A budget per test, not an estimate: every step waits on the page (auto-waiting locators,
  // expect polling), never a fixed time; on a shared 2-core machine (load ~20) one test passed 60 s.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  retries: 0,
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    viewport: { width: 1400, height: 900 },
    locale: 'es-PE',
    // Pages run in Lima's time zone, as the back office's users do.
    timezoneId: 'America/Lima',
    acceptDownloads: true,
    trace: 'off',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    command: 'node apps/api/dist/main.js',
    cwd: root,
    url: `http://127.0.0.1:${E2E_PORT}/api/getUserConfigurations`,
    reuseExistingServer: false,
    // A wait for the server to answer, not a budget: on a loaded 2-core machine its start (the
    // PGlite template copied and migrated) has taken over two minutes.
    timeout: 360_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'e2e-data-')),
      PORT: String(E2E_PORT),
      ADMIN_PASSWORD,
      FAKE_NOW: SERVER_CLOCK,
      // The flows sign in as admin with the password alone; two-factor.spec.ts turns the
      // requirement on (Preferencias) for its own administrator.
      TWO_FACTOR_REQUIRED: 'false',
      IMPORT_JOB_BYTES: String(E2E_IMPORT_JOB_BYTES),
      EXPORT_JOB_ROWS: String(E2E_EXPORT_JOB_ROWS),
    },
  },
});
