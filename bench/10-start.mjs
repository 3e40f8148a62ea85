// `npm start` on a new DATA_DIR (cold: create the database, migrate, seed) and a second start
// on the same folder. Time from spawn to the "Aplicacion lista" line. Targets: ≤ 10 s, ≤ 2 s.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { figure, round, startServer } from './lib/common.mjs';

const port = Number(process.env.BENCH_START_PORT ?? 3231);
const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-start-'));
const env = {
  PORT: String(port),
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  DATABASE_URL: '',
  ADMIN_PASSWORD: '',
  JWT_SECRET: '',
};

async function timedStart(label) {
  const server = startServer(env, { viaNpm: true });
  try {
    const { ms } = await server.ready;
    console.log(`${label}: ${round(ms / 1000, 2)} s`);
    return ms;
  } finally {
    await server.stop();
  }
}

try {
  console.log(`npm start con DATA_DIR nuevo (${dataDir}), puerto ${port}`);
  const cold = await timedStart('Primer inicio (DATA_DIR nuevo)');
  const warm = await timedStart('Segundo inicio (mismo DATA_DIR)');
  figure('npm start, primer inicio (DATA_DIR nuevo)', round(cold / 1000, 2), 's', { op: '<=', value: 10 });
  figure('npm start, segundo inicio', round(warm / 1000, 2), 's', { op: '<=', value: 2 });
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
