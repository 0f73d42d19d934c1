import { defineConfig } from 'vitest/config';

// Browser end-to-end tests: one throwaway wrangler dev server (global setup) and headless
// Chromium through playwright-core. Files run one after another: the machine has two cores
// and the server, the browser and the test process share them.
export default defineConfig({
  test: {
    environment: 'node',
    include: ['tests/e2e/**/*.test.ts'],
    globalSetup: './tests/e2e/global-setup.ts',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
    fileParallelism: false,
    maxWorkers: 1,
    retry: 0,
  },
});
