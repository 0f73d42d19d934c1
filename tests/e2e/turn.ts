import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { freePort } from '../../scripts/lib.mjs';

// A real TURN server for the run (Debian's coturn; .ci/run installs it where missing, like
// Chromium): the e2e servers run peer-to-peer video relay-only through it, as production does
// (issue 26 point 4), so the live-video tests see the relay path, not loopback shortcuts.

export const TURNSERVER = '/usr/bin/turnserver';
const USER = 'e2e';
const SECRET = 'e2e-turn-secret';

export interface StartedTurn {
  /** ICE_SERVERS for the app: one turn: URL with its long-term credential. */
  iceServers: string;
  stop(): void;
}

export async function startTurn(): Promise<StartedTurn> {
  if (!existsSync(TURNSERVER)) throw new Error(`${TURNSERVER} is missing: the live-video tests relay through a real TURN server (apt-get install coturn, as .ci/run does)`);
  const port = await freePort();
  const args = [
    '-n', // no configuration file
    '--listening-ip=127.0.0.1',
    '--relay-ip=127.0.0.1',
    `--listening-port=${port}`,
    '--min-port=49400',
    '--max-port=49900',
    '--lt-cred-mech',
    `--user=${USER}:${SECRET}`,
    '--realm=livecam.test',
    // Both browsers are on this machine: their relayed addresses are loopback ones.
    '--allow-loopback-peers',
    '--no-cli',
    '--no-tls',
    '--no-dtls',
    '--fingerprint',
    '--log-file=stdout',
    '--simple-log',
  ];
  const child: ChildProcess = spawn(TURNSERVER, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout?.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`turnserver did not start listening within 10 s:\n${log.slice(-2000)}`)), 10_000);
    const check = setInterval(() => {
      if (/listener opened on|Relay address to use/i.test(log) && /udp|UDP/.test(log)) {
        clearInterval(check);
        clearTimeout(timer);
        resolve();
      }
    }, 50);
    child.on('exit', (code) => {
      clearInterval(check);
      clearTimeout(timer);
      reject(new Error(`turnserver exited (${code}):\n${log.slice(-2000)}`));
    });
  });
  return {
    iceServers: JSON.stringify([{ urls: [`turn:127.0.0.1:${port}?transport=udp`], username: USER, credential: SECRET }]),
    stop: () => void child.kill('SIGTERM'),
  };
}
