#!/usr/bin/env node
// `npm test`: the API suite, the web unit suite and the browser suite, one after the other.
// Ends with one line "N passed, M failed" (tests summed over the suites) and a non-zero exit
// code when anything failed. A suite is skipped only when its config file does not exist yet.
// `node scripts/test.mjs api` (or web, e2e) runs only the named suites.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules/.bin', name);
const CHROMIUM = '/usr/bin/chromium';
const reportDir = mkdtempSync(path.join(tmpdir(), 'test-report-'));

const firstExisting = (dir, names) => names.map((n) => path.join(root, dir, n)).find((f) => existsSync(f));

function run(cmd, args, opts = {}) {
  console.log(
    `\n$ ${[cmd, ...args].join(' ')}${opts.cwd ? `   (en ${path.relative(root, opts.cwd) || '.'})` : ''}`,
  );
  const res = spawnSync(cmd, args, {
    stdio: 'inherit',
    cwd: root,
    ...opts,
    env: { ...process.env, ...opts.env },
  });
  if (res.error) console.error(res.error.message);
  return res.status ?? 1;
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Debian's chromium for Playwright; installed with apt when missing. Fails loudly, never skips. */
function ensureChromium() {
  if (existsSync(CHROMIUM)) return true;
  if (!existsSync('/etc/debian_version')) {
    console.error(
      `\nFALTA ${CHROMIUM}: instale Chromium (paquete "chromium") para las pruebas de navegador.`,
    );
    return false;
  }
  console.log('Instalando chromium (apt-get) para las pruebas de navegador...');
  const sudo = process.getuid?.() === 0 ? [] : ['sudo'];
  const apt = (...args) => {
    const [cmd, ...rest] = [...sudo, 'apt-get', '-o', 'DPkg::Lock::Timeout=600', ...args];
    return spawnSync(cmd, rest, {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    }).status;
  };
  if (apt('update') !== 0 || apt('install', '-y', 'chromium') !== 0 || !existsSync(CHROMIUM)) {
    console.error(
      `\nERROR: no se pudo instalar chromium (${CHROMIUM}); las pruebas de navegador no pueden correr.`,
    );
    return false;
  }
  return true;
}

/** One vitest workspace; counts come from its JSON report. */
function vitestSuite(name, dir, configNames, extraArgs = [], env = {}) {
  const config = firstExisting(dir, configNames);
  if (!config) return { name, skipped: `no existe ${dir}/${configNames[0]}` };
  const out = path.join(reportDir, `${name.replace(/[^a-z0-9]+/gi, '-')}.json`);
  const status = run(
    bin('vitest'),
    [
      'run',
      '--passWithNoTests',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${out}`,
      ...extraArgs,
    ],
    { cwd: path.join(root, dir), env },
  );
  const report = readJson(out);
  return {
    name,
    status,
    passed: report?.numPassedTests ?? 0,
    failed: report?.numFailedTests ?? 0,
  };
}

function playwrightSuite() {
  const name = 'navegador (playwright)';
  const config = firstExisting('apps/web', [
    'playwright.config.ts',
    'playwright.config.mjs',
    'playwright.config.js',
  ]);
  if (!config) return { name, skipped: 'no existe apps/web/playwright.config.ts' };
  if (!ensureChromium()) return { name, status: 1, passed: 0, failed: 0, error: 'chromium no disponible' };
  // The browser suite runs the built server and client (npm ci builds them); build when missing.
  if (
    !existsSync(path.join(root, 'apps/api/dist/main.js')) ||
    !existsSync(path.join(root, 'apps/web/dist/index.html'))
  ) {
    if (run('npm', ['run', 'build']) !== 0)
      return { name, status: 1, passed: 0, failed: 0, error: 'fallo npm run build' };
  }
  const out = path.join(reportDir, 'playwright.json');
  const status = run(bin('playwright'), ['test', '-c', path.relative(root, config), '--reporter=list,json'], {
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: out },
  });
  const stats = readJson(out)?.stats;
  return {
    name,
    status,
    passed: (stats?.expected ?? 0) + (stats?.flaky ?? 0),
    failed: stats?.unexpected ?? 0,
  };
}

// `npm test -- api web e2e`: only the named suites (all three by default).
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const want = (name) => wanted.length === 0 || wanted.includes(name);

const suites = [];
if (want('api') && !process.env.TEST_DATABASE_URL)
  // Said, not silent: these need a PostgreSQL server (CI's .ci/run sets TEST_DATABASE_URL).
  console.log(
    '\nSin TEST_DATABASE_URL: la suite de la API corre sobre PGlite; las pruebas de varios servidores, ' +
      'de fallas y el respaldo con pg_dump se omiten (necesitan PostgreSQL; .ci/run las corre).',
  );
const API_CONFIGS = ['vitest.config.ts', 'vitest.config.mts', 'vitest.config.js'];
// The API suite runs on a pinned business clock (apps/api/test/harness.ts): 23:30 in Lima, when
// UTC's day is already tomorrow. The suites whose answers depend on the day run again at 12:00 in
// Lima and at 22:00 on 31 December in Lima, so a date read from the wrong clock fails at any hour.
const DATE_SUITES = [
  'test/agreements.test.ts',
  'test/dashboard.test.ts',
  'test/documents.test.ts',
  'test/dispatches-objectives.test.ts',
  'test/figures-periods.test.ts',
  'test/numbers-clock.test.ts',
  'test/query-scope.test.ts',
];
if (want('api')) {
  suites.push(vitestSuite('api', 'apps/api', API_CONFIGS, [], { TEST_CLOCK: 'night' }));
  for (const [clock, label] of [
    ['noon', '12:00 en Lima'],
    ['yearend', '22:00 del 31 de diciembre en Lima'],
  ])
    suites.push(
      vitestSuite(`api, reloj ${label}`, 'apps/api', API_CONFIGS, DATE_SUITES, { TEST_CLOCK: clock }),
    );
}
if (want('web'))
  suites.push(
    vitestSuite(
      'web',
      'apps/web',
      ['vitest.config.ts', 'vitest.config.mts', 'vitest.config.js', 'vite.config.ts'],
      [
        // The Playwright specs in e2e/ are not vitest files.
        '--exclude=e2e/**',
      ],
    ),
  );
if (want('e2e')) suites.push(playwrightSuite());
rmSync(reportDir, { recursive: true, force: true });

let passed = 0;
let failed = 0;
let anyFailed = false;
console.log('\nResumen:');
for (const s of suites) {
  if (s.skipped) {
    console.log(`  ${s.name}: OMITIDA (${s.skipped})`);
    continue;
  }
  // A suite that exits non-zero without a failed test (crash, config error) still counts as one failure.
  const extra = s.status !== 0 && s.failed === 0 ? 1 : 0;
  passed += s.passed;
  failed += s.failed + extra;
  if (s.status !== 0) anyFailed = true;
  const note = s.error ?? (extra ? `termino con codigo ${s.status} sin reporte de pruebas fallidas` : '');
  console.log(`  ${s.name}: ${s.passed} pasaron, ${s.failed + extra} fallaron${note ? ` (${note})` : ''}`);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(anyFailed || failed > 0 ? 1 : 0);
