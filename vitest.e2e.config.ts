import { defineConfig } from 'vitest/config';
import { E2E_WORKERS } from './tests/e2e/global-setup';

// Browser end-to-end tests: headless Chromium through playwright-core against throwaway wrangler
// dev servers (global setup): one file at a time by default; E2E_WORKERS=N runs N at once, each
// worker with a server and a D1 of its own (tests/e2e/browser.ts baseUrl; why one: global-setup.ts).
// isolate: false keeps a worker's modules (playwright-core above all) loaded from one file to the
// next: a couple of seconds per file on a busy machine. The files share no state through them: each
// file's browser connection closes after it (tests/e2e/setup.ts) and every test makes its own contexts.
export default defineConfig({
  test: {
    environment: 'node',
    include: ['tests/e2e/**/*.test.ts'],
    globalSetup: './tests/e2e/global-setup.ts',
    setupFiles: ['./tests/e2e/setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
    maxWorkers: E2E_WORKERS,
    isolate: false,
    retry: 0,
  },
});
