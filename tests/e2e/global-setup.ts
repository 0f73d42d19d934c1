import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startServer, type StartedServer } from '../../scripts/lib.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => (port ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

/** One throwaway server (own migrated and seeded D1 in a temp folder) for the whole e2e run. */
export default async function setup(project: TestProject) {
  const persistTo = mkdtempSync(join(tmpdir(), 'livecam-e2e-'));
  let server: StartedServer;
  try {
    // Every page of the run comes from one address: the per-address caps of anonymous writes
    // (sign-ups, mails, client logs) are raised for it (ignored in production; tests/api asserts them).
    // A chat minute lasts 4 s, so the room tests see minutes charged without waiting a real one.
    server = await startServer({ port: await freePort(), persistTo, vars: { ADDRESS_LIMIT_FACTOR: '100', CHAT_MINUTE_MS: '4000' } });
  } catch (error) {
    // startServer puts wrangler's output into its error message; make sure it is seen.
    console.error('e2e: the test server did not start\n', error instanceof Error ? error.message : error);
    rmSync(persistTo, { recursive: true, force: true });
    throw error;
  }
  project.provide('baseUrl', server.url);

  return async () => {
    await server.stop();
    if (process.env.E2E_SERVER_LOG) console.log(server.log());
    rmSync(persistTo, { recursive: true, force: true });
  };
}
