import type { D1Migration } from '@cloudflare/vitest-pool-workers';
import type { Bindings } from '../../src/server/env';

declare global {
  namespace Cloudflare {
    interface Env extends Bindings {
      TEST_MIGRATIONS: D1Migration[];
      /** Private JWK (JSON) matching GOOGLE_JWKS_JSON: tests sign Google ID tokens with it. */
      TEST_GOOGLE_PRIVATE_JWK: string;
    }
    interface GlobalProps {
      mainModule: typeof import('../../src/server/index');
    }
  }
}
