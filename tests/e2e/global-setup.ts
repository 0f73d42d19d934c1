import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { chromium, type BrowserServer } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { freePort, startServer, type StartedServer } from '../../scripts/lib.mjs';
import { BROWSER_ARGS, CHROMIUM, FAKE_MEDIA } from './chromium';
import { startTurn } from '../../scripts/turn.mjs';
import { localSfuVars, startLocalSfu, type StartedLocalSfu } from '../../scripts/local-sfu.mjs';

/**
 * The run's second server, started in the background when the run includes a file that needs it:
 * Google sign-in configured (tests/e2e/accounts-google.test.ts), and the production video engine
 * against the local stand-in of Cloudflare's Realtime SFU (tools/local-sfu, real media; its TURN
 * call hands out the run's coturn): video through the SFU (video-sfu-live.test.ts) and, with the
 * stand-in made unreachable, a publish that never succeeds (video-publish-failed.test.ts). One
 * server for all: each wrangler dev costs this 2-core machine seconds of CPU while the first files run.
 */
export interface GoogleServer {
  url: string;
  /** The SFU stand-in's origin (its `/_control` knobs and packet counts). */
  sfu: string;
  clientId: string;
  kid: string;
  /** The key that signs the test's ID tokens; the server trusts its public half. */
  privateJwk: JWK;
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrls: string[];
    /** The run's Chromium servers (tests/e2e/browser.ts connects to them). */
    browsers: { plain: string; media: string };
    /** The second server; null when the run includes neither of its files. */
    secondServer: GoogleServer | null;
  }
}

/**
 * One test file at a time by default; E2E_WORKERS=N runs N, each test worker with a server of its
 * own (files running at once share no state). Measured on a 2-core machine while other runs kept
 * it at load average 12 to 20: two workers took the suite from 1187 to 998 s, all passing, but
 * three more two-worker runs at load 15-20 each had failures (a sign-up racing the page's own
 * start-up write, since fixed; a 503 from a busy dev server under a page's write; a live-video
 * walk-through step). On a quiet machine (2026-11-28): one worker 704 s, two 433 s, but the
 * two-worker run had two failures (a layer-switch deadline, since made the bench's alone; a 419 of
 * the welcome countdown's write logged during a sign-up test, not found). CI keeps one: a fresh clone's
 * whole run (install included) took 834 s there.
 */
export const E2E_WORKERS = Math.max(1, Number(process.env.E2E_WORKERS) || 1);

const SECOND_SERVER_FILES = ['accounts-google.test.ts', 'video-publish-failed.test.ts', 'video-sfu-live.test.ts', 'video-sfu-layers.test.ts'].map((f) => join(dirname(fileURLToPath(import.meta.url)), f));

interface Throwaway {
  server: StartedServer;
  persistTo: string;
}

/** A throwaway server with its own migrated and seeded D1 in a temp folder. */
async function throwawayServer(vars: Record<string, string> = {}, port?: number): Promise<Throwaway> {
  const persistTo = mkdtempSync(join(tmpdir(), 'livecam-e2e-'));
  try {
    // Every page of the run comes from one address: the per-address caps of anonymous writes
    // (sign-ups, mails, client logs) are raised for it (ignored in production; tests/api asserts them).
    // A chat minute lasts 4 s, so the room tests see minutes charged without waiting a real one.
    const server = await startServer({ port: port ?? (await freePort()), persistTo, vars: { ADDRESS_LIMIT_FACTOR: '100', CHAT_MINUTE_MS: '4000', ...vars } });
    return { server, persistTo };
  } catch (error) {
    // startServer puts wrangler's output into its error message; make sure it is seen.
    console.error('e2e: a test server did not start\n', error instanceof Error ? error.message : error);
    rmSync(persistTo, { recursive: true, force: true });
    throw error;
  }
}

async function stop({ server, persistTo }: Throwaway): Promise<void> {
  await server.stop();
  if (process.env.E2E_SERVER_LOG) console.log(server.log());
  rmSync(persistTo, { recursive: true, force: true });
}

/** Whether the run includes `file` (no filters, or a filter that matches it as vitest matches them: a part of its path). */
function runIncludes(project: TestProject, file: string): boolean {
  const filters = (project.vitest as unknown as { filenamePattern?: string[] }).filenamePattern;
  return !filters?.length || filters.some((f) => file.includes(f) || resolve(f) === file);
}

/**
 * The servers of the run: test worker N (VITEST_POOL_ID) uses the Nth (tests/e2e/browser.ts
 * baseUrl). Two Chromium servers are started with them, one plain and one with the fake camera
 * (live video): each test file connects to them (tens of milliseconds) instead of launching a
 * browser of its own (a second or two each, twice for the room files). The server with Google
 * sign-in starts in the background while the first files run; its file waits for it. A TURN
 * server (coturn, scripts/turn.mjs) relays the live video.
 */
export default async function setup(project: TestProject) {
  // Live video runs peer to peer relay-only through a real TURN server, as in production.
  const turn = await startTurn();
  let google: { info: GoogleServer; started: Promise<Throwaway | null> } | null = null;
  let localSfu: StartedLocalSfu | null = null;
  if (SECOND_SERVER_FILES.some((f) => runIncludes(project, f))) {
    const pair = await generateKeyPair('RS256', { extractable: true });
    localSfu = await startLocalSfu({ turnJson: turn.iceServers });
    const info: GoogleServer = { url: '', sfu: localSfu.origin, clientId: 'e2e-client.apps.googleusercontent.com', kid: 'e2e-google-key', privateJwk: await exportJWK(pair.privateKey) };
    const publicJwk = { ...(await exportJWK(pair.publicKey)), kid: info.kid, alg: 'RS256', use: 'sig' };
    const port = await freePort();
    info.url = `http://127.0.0.1:${port}`;
    const sfu = localSfuVars(localSfu, { turn: true });
    const started = throwawayServer({ GOOGLE_CLIENT_ID: info.clientId, GOOGLE_JWKS_JSON: JSON.stringify({ keys: [publicJwk] }), ...sfu }, port).catch(() => null);
    google = { info, started };
  }

  const video = { VIDEO_P2P_RELAY_ONLY: '1', ICE_SERVERS: turn.iceServers };
  const launchBrowser = (args: string[]) => chromium.launchServer({ executablePath: CHROMIUM, headless: true, args });
  const [browsersStarted, ...started] = await Promise.allSettled([
    Promise.all([launchBrowser(BROWSER_ARGS), launchBrowser([...BROWSER_ARGS, ...FAKE_MEDIA])]),
    ...Array.from({ length: E2E_WORKERS }, () => throwawayServer(video)),
  ]);
  const servers = started.flatMap((r) => (r.status === 'fulfilled' ? [r.value as Throwaway] : []));
  const browsers: BrowserServer[] = browsersStarted.status === 'fulfilled' ? browsersStarted.value : [];
  const stopAll = async () => {
    await Promise.all(browsers.map((b) => b.close().catch(() => undefined)));
    const googleServer = await google?.started;
    for (const s of [...servers, ...(googleServer ? [googleServer] : [])]) await stop(s);
    await localSfu?.stop();
    if (process.env.E2E_SERVER_LOG && localSfu) console.log(localSfu.log());
    turn.stop();
  };
  const failed = [browsersStarted, ...started].find((r) => r.status === 'rejected');
  if (failed) {
    await stopAll();
    throw failed.reason;
  }
  project.provide('baseUrls', servers.map((s) => s.server.url));
  project.provide('browsers', { plain: browsers[0].wsEndpoint(), media: browsers[1].wsEndpoint() });
  project.provide('secondServer', google?.info ?? null);
  return stopAll;
}
