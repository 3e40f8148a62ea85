import { defineConfig } from 'vitest/config';

// Two cores: at most two test files at once, each on its own copy of a seeded database.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    fileParallelism: true,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
