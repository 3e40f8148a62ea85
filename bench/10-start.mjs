// `npm start` on a new DATA_DIR (cold: create the database, migrate, seed) and a second start
// on the same folder. Time from spawn to the "Aplicación lista" line. Targets: ≤ 10 s, ≤ 2 s.
// The first start copies the build's PGlite template (apps/api/dist/pgdata-template) when present.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { figure, round, startServer } from './lib/common.mjs';

const port = Number(process.env.BENCH_START_PORT ?? 3231);
const RUNS = Number(process.env.BENCH_START_RUNS ?? 3);
const envFor = (dataDir) => ({
  PORT: String(port),
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  DATABASE_URL: '',
  ADMIN_PASSWORD: '',
  JWT_SECRET: '',
});

async function timedStart(dataDir) {
  const server = startServer(envFor(dataDir), { viaNpm: true });
  try {
    return (await server.ready).ms;
  } finally {
    await server.stop();
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const secs = (ms) => round(ms / 1000, 2);

// Each run: a new DATA_DIR (first start), then a second start on it. The median of the runs
// is reported, so one busy moment of a shared machine does not decide the figure.
const cold = [];
const warm = [];
for (let i = 0; i < RUNS; i++) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-start-'));
  try {
    cold.push(await timedStart(dataDir));
    warm.push(await timedStart(dataDir));
    console.log(`Ronda ${i + 1}: primer inicio ${secs(cold[i])} s, segundo inicio ${secs(warm[i])} s`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
figure(`npm start, primer inicio (DATA_DIR nuevo; mediana de ${RUNS})`, secs(median(cold)), 's', {
  op: '<=',
  value: 10,
});
figure(`npm start, segundo inicio (mediana de ${RUNS})`, secs(median(warm)), 's', { op: '<=', value: 2 });
