#!/usr/bin/env node
// `npm run bench [-- name ...]`: runs every script in bench/ (*.mjs with node, *.mts with tsx), in
// name order, or only those whose file name contains one of the given words, then prints the
// figures they reported (`BENCH_FIGURE {json}` lines) as one table with their targets.
// A new figure is a new file in bench/ that calls figure() from bench/lib/common.mjs.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const benchDir = path.join(root, 'bench');
const filters = process.argv.slice(2).filter((a) => !a.startsWith('-'));

const files = readdirSync(benchDir)
  .filter((f) => /\.(mjs|mts)$/.test(f))
  .filter((f) => filters.length === 0 || filters.some((w) => f.includes(w)))
  .sort();

if (files.length === 0) {
  console.error(`No hay scripts en bench/ que coincidan con: ${filters.join(', ')}`);
  process.exit(1);
}

function runOne(file) {
  const isTs = file.endsWith('.mts');
  const cmd = isTs ? path.join(root, 'node_modules/.bin/tsx') : process.execPath;
  return new Promise((resolve) => {
    const figures = [];
    const child = spawn(cmd, [path.join(benchDir, file)], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let rest = '';
    child.stdout.on('data', (chunk) => {
      const lines = (rest + chunk.toString()).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        if (line.startsWith('BENCH_FIGURE ')) {
          try {
            figures.push(JSON.parse(line.slice('BENCH_FIGURE '.length)));
          } catch {
            console.log(line);
          }
        } else console.log(`  ${line}`);
      }
    });
    child.on('close', (code) => resolve({ file, code: code ?? 1, figures }));
  });
}

// Figures depend on what else runs: say how busy the machine was.
const load = () =>
  loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');
console.log(`${cpus().length} nucleos; carga (1, 5, 15 min): ${load()}`);
const results = [];
for (const file of files) {
  console.log(`\n== bench/${file}`);
  const t0 = performance.now();
  const r = await runOne(file);
  console.log(
    `   (${Math.round((performance.now() - t0) / 100) / 10} s${r.code ? `, termino con codigo ${r.code}` : ''})`,
  );
  results.push(r);
}

console.log(`\nCarga al terminar (1, 5, 15 min): ${load()}`);
const rows = results.flatMap((r) =>
  r.figures.map((f) => [
    f.name,
    `${f.value} ${f.unit ?? ''}`.trim(),
    f.target ? `${f.target.op} ${f.target.value} ${f.unit ?? ''}`.trim() : '',
    f.ok === undefined ? '' : f.ok ? 'cumple' : 'NO CUMPLE',
  ]),
);
const header = ['cifra', 'valor', 'meta', ''];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
const fmt = (row) =>
  row
    .map((c, i) => c.padEnd(widths[i]))
    .join('  ')
    .trimEnd();
console.log(`\n${fmt(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`);
for (const row of rows) console.log(fmt(row));

const crashed = results.filter((r) => r.code !== 0);
for (const r of crashed) console.log(`ERROR: bench/${r.file} termino con codigo ${r.code}`);
process.exit(crashed.length ? 1 : 0);
