// A real TURN server for the e2e run and the video bench (Debian's coturn; .ci/run installs it
// where missing, like Chromium): live video runs peer to peer relay-only through it, as in
// production (issue 26 point 4), so tests and measures see the relay path, not loopback shortcuts.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { freePort } from './lib.mjs';

export const TURNSERVER = '/usr/bin/turnserver';
const USER = 'livecam';
const SECRET = 'livecam-turn-secret';

/**
 * Starts coturn on the loopback: on `port` (a free one by default), relaying from ports
 * minPort..maxPort (two servers at once need ranges of their own).
 */
export async function startTurn({ port: wanted, minPort = 49400, maxPort = 49599 } = {}) {
  if (!existsSync(TURNSERVER)) throw new Error(`${TURNSERVER} is missing: live video is relayed through a real TURN server here (apt-get install coturn, as .ci/run does)`);
  const port = wanted ?? (await freePort());
  const args = [
    '-n', // no configuration file
    '--listening-ip=127.0.0.1',
    '--relay-ip=127.0.0.1',
    `--listening-port=${port}`,
    `--min-port=${minPort}`,
    `--max-port=${maxPort}`,
    '--lt-cred-mech',
    `--user=${USER}:${SECRET}`,
    '--realm=livecam.test',
    // Every browser is on this machine: their relayed addresses are loopback ones.
    '--allow-loopback-peers',
    '--no-cli',
    '--no-tls',
    '--no-dtls',
    '--fingerprint',
    '--log-file=stdout',
    '--simple-log',
  ];
  const child = spawn(TURNSERVER, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  await new Promise((resolve, reject) => {
    const done = (fn, v) => {
      clearInterval(check);
      clearTimeout(timer);
      fn(v);
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      done(reject, new Error(`turnserver did not start within 20 s:\n${log.slice(-2000)}`));
    }, 20_000);
    // Its listeners are up once the relay threads are created (coturn logs no "listening" line).
    const check = setInterval(() => {
      if (/Relay ports initialization done/.test(log) && /Total General servers/.test(log)) done(resolve);
    }, 50);
    child.on('exit', (code) => done(reject, new Error(`turnserver exited (${code}):\n${log.slice(-2000)}`)));
  });
  return {
    port,
    iceServers: JSON.stringify([{ urls: [`turn:127.0.0.1:${port}?transport=udp`], username: USER, credential: SECRET }]),
    stop: () => void child.kill('SIGTERM'),
    /** Gone at once, as a dropped network is (its allocations die with it). */
    kill: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
    log: () => log,
  };
}
