import { defineConfig } from 'vitest/config';

// Pure logic and client modules in Node (files that need a DOM opt into happy-dom per file).
export default defineConfig({
  oxc: { jsx: { runtime: 'automatic' } },
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/unit/**/*.test.tsx'],
    environment: 'node',
    // Scanning every component with the TypeScript parser takes seconds on a busy machine: speed is
    // measured in benchmarks, not by the default 5 s timeout.
    testTimeout: 30_000,
  },
});
