import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.{ts,tsx}'],
    exclude: ['e2e/**', 'node_modules/**'],
    setupFiles: ['./test/setup.ts'],
    // A budget, not an estimate: every test waits on conditions (findBy/waitFor, test/setup.ts),
    // never a fixed time. The heaviest field tests (location picker, choices) take ~3 s idle and
    // ~10 s at load 15; at load ~20 with other suites beside them two passed 30 s.
    testTimeout: 120_000,
    pool: 'threads',
    maxWorkers: 2,
  },
});
