// Web bundle: gzip size of the JavaScript the browser loads to show the login route, from the
// built client (apps/web/dist), measured by apps/web/scripts/bundle-size.mjs (Vite's manifest:
// the entry chunk and its static imports; the login page is in the entry).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { dist, LIMIT_KB, measureLoginRoute } from '../apps/web/scripts/bundle-size.mjs';
import { figure } from './lib/common.mjs';

if (!existsSync(path.join(dist, 'index.html'))) {
  console.log('No existe apps/web/dist/index.html: ejecute "npm run build" para medir el paquete web.');
  process.exit(0);
}

const { sizes, result } = measureLoginRoute();
for (const { file, gzip } of sizes) console.log(`  ${file}: ${(gzip / 1024).toFixed(1)} kB gzip`);
figure('web: JS de la ruta de login (gzip)', result.gzipKB, 'kB', { op: '<=', value: LIMIT_KB });
