import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// API_TARGET lets `npm run dev` (or a test) point the /api proxy at another port.
const apiTarget = process.env.API_TARGET ?? 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [react()],
  server: { port: Number(process.env.WEB_PORT ?? 5173), proxy: { '/api': apiTarget } },
  // The manifest lets scripts/bundle-size.mjs measure what the login route loads.
  build: {
    outDir: 'dist',
    sourcemap: false,
    manifest: true,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      // The shared contracts are pure declarations: a chunk that uses only their messages or
      // constants must not pull every zod schema (and zod) into the login bundle. Their zod.ts
      // is the exception: it sets the browser's zod configuration before any schema is built.
      treeshake: {
        moduleSideEffects: (id: string) =>
          !/packages[\\/]contracts[\\/]/.test(id) || /contracts[\\/]src[\\/]zod\.ts$/.test(id),
      },
    },
  },
});
