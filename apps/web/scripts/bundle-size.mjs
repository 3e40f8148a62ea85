#!/usr/bin/env node
// Prints the gzip size of the JavaScript the login route loads: the entry chunk of index.html
// and everything it imports statically (lazy screens excluded), read from Vite's manifest.
// Usage: node apps/web/scripts/bundle-size.mjs [--json]   (after `npm run build -w apps/web`)
// bench/30-web-bundle.mjs imports measureLoginRoute() for its figure.
import { readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
export const LIMIT_KB = 200;

const kb = (n) => Math.round((n / 1024) * 10) / 10;

/** The login route's files (gzip bytes each) and totals, from dist/.vite/manifest.json. */
export function measureLoginRoute() {
  const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
  const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
  if (!entryKey) throw new Error('No entry chunk in the manifest: build apps/web first');

  const files = new Set();
  const visit = (key) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const k of chunk.imports ?? []) visit(k);
  };
  visit(entryKey);

  let raw = 0;
  let gz = 0;
  const sizes = [];
  for (const f of files) {
    const buf = readFileSync(join(dist, f));
    const size = gzipSync(buf, { level: 9 }).length;
    raw += buf.length;
    gz += size;
    sizes.push({ file: f, gzip: size });
  }
  return {
    sizes,
    result: {
      files: files.size,
      rawKB: kb(raw),
      gzipKB: kb(gz),
      limitKB: LIMIT_KB,
      ok: gz / 1024 <= LIMIT_KB,
    },
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === realpathSync(process.argv[1])) {
  const { result } = measureLoginRoute();
  if (process.argv.includes('--json')) console.log(JSON.stringify(result));
  else
    console.log(
      `login route JS: ${result.gzipKB} KB gzip (${result.rawKB} KB raw, ${result.files} files); limit ${LIMIT_KB} KB: ${result.ok ? 'ok' : 'OVER'}`,
    );
  process.exitCode = result.ok ? 0 : 1;
}
