#!/usr/bin/env node
// `npm run fuzz`: the nightly fuzzing run. apps/api/test/fuzz.test.ts with FUZZ_RUNS requests
// per call of the registry (default 1,000) and a new seed (FUZZ_SEED to replay one), on PGlite or
// on TEST_DATABASE_URL. Prints the seed, requests, requests/s, answers by status and every
// problem found (5xx, leaks, partial writes); exits non-zero when there is one. It runs
// test/fuzz-openapi.test.ts too, FUZZ_OPENAPI_RUNS (default 50) per operation and caller.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const runs = process.env.FUZZ_RUNS ?? '1000';
const seed = process.env.FUZZ_SEED ?? String(Math.floor(Math.random() * 2 ** 31));
console.log(`Fuzzing: ${runs} solicitudes por llamada, semilla ${seed} (FUZZ_SEED=${seed} la repite)`);
const res = spawnSync(
  path.join(root, 'node_modules/.bin/vitest'),
  ['run', 'test/fuzz.test.ts', 'test/fuzz-openapi.test.ts', '--reporter=default'],
  {
    cwd: path.join(root, 'apps/api'),
    stdio: 'inherit',
    env: {
      ...process.env,
      FUZZ_RUNS: runs,
      FUZZ_OPENAPI_RUNS: process.env.FUZZ_OPENAPI_RUNS ?? '50',
      FUZZ_SEED: seed,
    },
  },
);
process.exit(res.status ?? 1);
