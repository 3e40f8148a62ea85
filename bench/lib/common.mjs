// Helpers shared by the bench scripts: figures for the summary, starting the built server and
// timing it, percentiles. A figure is printed as one `BENCH_FIGURE {json}` line that
// scripts/bench.mjs collects into the final table.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const serverBundle = path.join(root, 'apps/api/dist/main.js');
export const READY_LINE = 'Aplicación lista';

/**
 * Records one figure. `target` is e.g. { op: '<=', value: 10 } (same unit as the value);
 * `ok` is computed from it.
 */
export function figure(name, value, unit, target) {
  const ok = target ? compare(value, target.op, target.value) : undefined;
  console.log(`BENCH_FIGURE ${JSON.stringify({ name, value, unit, target, ok })}`);
  return ok;
}

function compare(a, op, b) {
  if (op === '<') return a < b;
  if (op === '<=') return a <= b;
  if (op === '>') return a > b;
  if (op === '>=') return a >= b;
  return undefined;
}

export function requireBundle() {
  if (!existsSync(serverBundle)) {
    throw new Error(
      `No existe ${path.relative(root, serverBundle)}: ejecute primero "npm run build" (o npm ci).`,
    );
  }
}

/**
 * Starts the built server (what `npm start` runs) in its own process group and resolves when
 * it prints the ready line, with the time from spawn. `stop()` ends that process group only.
 * `script`: another node script to run instead (it prints READY_LINE when it listens).
 */
export function startServer(env, { timeoutMs = 60_000, viaNpm = false, script } = {}) {
  if (!script) requireBundle();
  const t0 = performance.now();
  const [cmd, args] = viaNpm ? ['npm', ['start', '--silent']] : [process.execPath, [script ?? serverBundle]];
  const child = spawn(cmd, args, {
    cwd: root,
    // The benches sign in as admin with the password alone: a new database starts with the
    // administrators' second factor optional.
    env: { TWO_FACTOR_REQUIRED: 'false', ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        resolve();
      }
      setTimeout(() => {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {}
      }, 5000).unref();
    });
  const ready = new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`El servidor no estuvo listo en ${timeoutMs} ms. Salida:\n${output}`));
    }, timeoutMs);
    const onData = (chunk) => {
      output += chunk.toString();
      if (output.includes(READY_LINE)) {
        clearTimeout(timer);
        resolve({ ms: performance.now() - t0, output });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (c) => {
      output += c.toString();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`El servidor termino (codigo ${code}) antes de estar listo. Salida:\n${output}`));
    });
  });
  return { child, ready, stop, output: () => output };
}

export function percentile(sortedValues, p) {
  if (sortedValues.length === 0) return Number.NaN;
  const i = Math.min(sortedValues.length - 1, Math.ceil((p / 100) * sortedValues.length) - 1);
  return sortedValues[Math.max(0, i)];
}

export const round = (n, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
