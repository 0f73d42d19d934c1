import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-pool-workers';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// /api and pages tested inside workerd with the real bindings (D1 migrated and seeded).
export default defineConfig({
  // The worker bundles React's production build (wrangler.toml [define]); match its JSX runtime.
  oxc: { jsx: { runtime: 'automatic', development: false } },
  plugins: [
    cloudflareTest(async () => ({
      main: './src/server/index.ts',
      wrangler: { configPath: './wrangler.toml' },
      miniflare: {
        bindings: {
          ENVIRONMENT: 'test',
          PASSWORD_PEPPER: 'test-pepper-not-secret',
          TEST_MIGRATIONS: await readD1Migrations(fileURLToPath(new URL('./migrations', import.meta.url))),
        },
      },
    })),
  ],
  test: {
    include: ['tests/api/**/*.test.ts', 'tests/api/**/*.test.tsx'],
    setupFiles: ['./tests/api/setup.ts'],
  },
});
