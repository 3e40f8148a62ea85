import { defineConfig } from 'tsup';

export default defineConfig({
  // The worker thread of big imports is a file of its own (core/xlsx-thread.ts starts it).
  entry: ['src/main.ts', 'src/xlsx-worker.ts'],
  format: ['esm'],
  platform: 'node',
  target: 'node22',
  outDir: 'dist',
  clean: true,
  sourcemap: true,
  // The shared contracts are TypeScript source: bundle them into the server.
  noExternal: ['@app/contracts'],
});
