// Starts the local stand-in of the Realtime SFU (tools/local-sfu) in a process of its own: its
// main.ts bundled by esbuild (werift stays external, loaded from node_modules), run under `nice`
// so its pure-JS SRTP work yields to the browsers and workers of a test run.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './lib.mjs';

/**
 * Bundles and starts it on a free loopback port; resolves once it printed `READY <port>`.
 * `turnJson`: the ICE server list its generate-ice-servers call answers (default none).
 */
export async function startLocalSfu({ appId = 'local-app', secret = randomBytes(16).toString('hex'), turnJson, niceness = 10 } = {}) {
  const { build } = await import('esbuild');
  const outfile = join(root, '.tmp', `local-sfu-${randomBytes(6).toString('hex')}.mjs`);
  await build({ entryPoints: [join(root, 'tools/local-sfu/main.ts')], bundle: true, platform: 'node', format: 'esm', outfile, external: ['werift'], logLevel: 'warning' });
  const args = [`-n${niceness}`, process.execPath, outfile, '--port', '0', '--app', appId, '--secret', secret, ...(turnJson ? ['--turn-json', turnJson] : [])];
  const child = spawn('nice', args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const keep = (d) => {
    log = (log + d).slice(-20_000);
  };
  child.stderr.on('data', keep);
  let port;
  try {
    port = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`local SFU did not start within 20 s:\n${log}`)), 20_000);
      child.stdout.on('data', (d) => {
        keep(d);
        const m = /READY (\d+)/.exec(log);
        if (m) {
          clearTimeout(timer);
          resolve(Number(m[1]));
        }
      });
      child.on('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`local SFU exited (${code}):\n${log}`));
      });
    });
  } finally {
    // Loaded by then (or failed): the bundle is not needed any more.
    rmSync(outfile, { force: true });
  }
  const origin = `http://127.0.0.1:${port}`;
  return {
    base: `${origin}/v1`,
    origin,
    appId,
    secret,
    port,
    /** The stand-in's process (`nice` execs node, so the same pid): its CPU in /proc/<pid>/stat. */
    pid: child.pid,
    /** A `/_control` call (GET without body, else POST JSON); resolves to the parsed answer. */
    control: async (path, body) => {
      const r = await fetch(`${origin}/_control${path}`, body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      if (!r.ok) throw new Error(`/_control${path} answered ${r.status}: ${await r.text()}`);
      return r.json();
    },
    log: () => log,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * The app's vars that point its video at a started stand-in (VIDEO_RELAY=cloudflare); with TURN, a
 * TURN key of any name, which the stand-in answers with the list it was started with.
 */
export function localSfuVars(sfu, { turn = false } = {}) {
  return {
    VIDEO_RELAY: 'cloudflare',
    REALTIME_API_BASE: sfu.base,
    REALTIME_APP_ID: sfu.appId,
    REALTIME_APP_SECRET: sfu.secret,
    ...(turn ? { TURN_KEY_ID: 'local-turn-key', TURN_KEY_API_TOKEN: 'local-turn-token' } : {}),
  };
}
