import type { D1Migration } from '@cloudflare/vitest-pool-workers';
import type { Bindings } from '../../src/server/env';

declare global {
  namespace Cloudflare {
    interface Env extends Bindings {
      TEST_MIGRATIONS: D1Migration[];
      /** The migrated and seeded demo database as SQL statements (vitest.workers.config.ts, tests/api/seed-template.ts). */
      TEST_SEED_SQL: string[];
      /** An empty second database: tests/api/seed-template.test.ts seeds it the old way to compare. */
      SEED_CHECK_DB: D1Database;
      /** Private JWK (JSON) matching GOOGLE_JWKS_JSON: tests sign Google ID tokens with it. */
      TEST_GOOGLE_PRIVATE_JWK: string;
    }
    interface GlobalProps {
      mainModule: typeof import('../../src/server/index');
    }
  }
}
