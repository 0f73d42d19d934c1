import { defineConfig } from 'vitest/config';

// Pure logic and client modules in Node (files that need a DOM opt into happy-dom per file).
export default defineConfig({
  oxc: { jsx: { runtime: 'automatic' } },
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/unit/**/*.test.tsx'],
    environment: 'node',
  },
});
