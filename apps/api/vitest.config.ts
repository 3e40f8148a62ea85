import { defineConfig } from 'vitest/config';

// Two cores: at most two test files at once, each on its own copy of a seeded database. Budgets,
// not targets: on a shared 2-core machine (load ~25) the authorization matrix setup passed 120 s.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    fileParallelism: true,
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
