// Web bundle: gzip size of the JavaScript the browser loads to show the login route, from the
// built client (apps/web/dist). With Vite's manifest (build.manifest: true) it follows the entry's
// static imports plus the lazy chunk(s) of the login screen; without it, the module scripts and
// modulepreload links of index.html.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { figure, root } from './lib/common.mjs';

const dist = path.join(root, 'apps/web/dist');
const LOGIN_CHUNK = new RegExp(process.env.BENCH_LOGIN_CHUNK ?? 'login', 'i');

if (!existsSync(path.join(dist, 'index.html'))) {
  console.log('No existe apps/web/dist/index.html: ejecute "npm run build" para medir el paquete web.');
  process.exit(0);
}

const gz = (file) => gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;
const files = new Set();
const manifestPath = path.join(dist, '.vite/manifest.json');

if (existsSync(manifestPath)) {
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const visit = (key) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const imp of chunk.imports ?? []) visit(imp);
  };
  const entries = Object.keys(manifest).filter((k) => manifest[k].isEntry);
  for (const key of entries) visit(key);
  // The login screen's lazy chunk(s), reached through a dynamic import of an entry.
  for (const key of entries)
    for (const dyn of manifest[key].dynamicImports ?? []) if (LOGIN_CHUNK.test(dyn)) visit(dyn);
  console.log(`Segun .vite/manifest.json: ${entries.length} entrada(s)`);
} else {
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  for (const m of html.matchAll(/<script[^>]+type="module"[^>]+src="\/?([^"]+\.js)"/g)) files.add(m[1]);
  for (const m of html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="\/?([^"]+\.js)"/g)) files.add(m[1]);
  console.log('Sin manifest (build.manifest): se cuentan los scripts de index.html');
}

let total = 0;
for (const f of [...files].filter((f) => f.endsWith('.js'))) {
  const size = gz(f);
  total += size;
  console.log(`  ${f}: ${(size / 1024).toFixed(1)} kB gzip`);
}
// Same limit as apps/web/scripts/bundle-size.mjs (WEB's check of the entry and its static imports).
figure('web: JS de la ruta de login (gzip)', Math.round(total / 102.4) / 10, 'kB', { op: '<=', value: 200 });
