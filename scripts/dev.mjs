#!/usr/bin/env node
// `npm run dev`: the API under `tsx watch` (port 3000) and the Vite dev server (port 5173, which
// proxies /api to the API), both reloading on change. Ctrl+C stops both.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules/.bin', name);

const children = [];
let stopping = false;

function start(label, cmd, args, cwd) {
  const child = spawn(cmd, args, {
    cwd: path.join(root, cwd),
    stdio: ['inherit', 'pipe', 'pipe'],
    env: process.env,
  });
  const prefix = (stream, out) => {
    let rest = '';
    stream.on('data', (chunk) => {
      const lines = (rest + chunk.toString()).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) out.write(`[${label}] ${line}\n`);
    });
  };
  prefix(child.stdout, process.stdout);
  prefix(child.stderr, process.stderr);
  child.on('exit', (code, signal) => {
    if (stopping) return;
    console.error(`[${label}] termino (${signal ?? `codigo ${code}`}); se detiene el resto.`);
    stop(code ?? 1);
  });
  children.push(child);
}

function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 1500).unref();
}

process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

start('api', bin('tsx'), ['watch', '--clear-screen=false', 'src/main.ts'], 'apps/api');
start('web', bin('vite'), [], 'apps/web');
