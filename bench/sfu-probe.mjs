// The video bench's SFU path: the local stand-in of Cloudflare's Realtime SFU (tools/local-sfu,
// real RTP through werift) and, around each measured window, what it cost: the stand-in's own CPU
// (utime + stime of /proc/<pid>/stat; its SRTP is pure JavaScript, one process), the machine's
// busy share (/proc/stat), and the packets it received from the publisher and forwarded to the
// viewers (its `/_control/stats`).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { localSfuVars, startLocalSfu } from '../scripts/local-sfu.mjs';

let clockTicks = 100;
try {
  clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
} catch {
  // Linux's usual 100 per second.
}

/** utime + stime of a process in seconds (null when it is gone). */
function processCpuSeconds(pid) {
  try {
    // Fields after the command name (in parentheses, which may hold spaces): utime and stime are fields 14 and 15.
    const rest = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').pop().split(' ');
    return (Number(rest[11]) + Number(rest[12])) / clockTicks;
  } catch {
    return null;
  }
}

/** The machine's CPU time so far: { busy, total } in ticks over all cores. */
function machineCpu() {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const n = fields.map(Number);
  const idle = n[3] + (n[4] ?? 0);
  const total = n.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

/** Packets received and forwarded in all, and the sessions that pull (viewers), from `/_control/stats`. */
async function packets(sfu) {
  const { sessions } = await sfu.control('/stats');
  let received = 0;
  let forwarded = 0;
  let pulls = 0;
  const states = {};
  for (const s of Object.values(sessions)) {
    states[s.connection] = (states[s.connection] ?? 0) + 1;
    received += Object.values(s.received).reduce((a, b) => a + b, 0);
    forwarded += Object.values(s.forwarded).reduce((a, b) => a + b, 0);
    // Every session that pulls, whatever werift says of its connection (it counts what it sends to a 'failed' one too).
    if (s.remoteTracks.length) pulls++;
  }
  return { received, forwarded, pulls, states };
}

/**
 * Starts the stand-in (its TURN-key call answers `turnJson`, the bench's coturn) and answers it
 * with the server vars that point the app at it, as tests/e2e/global-setup.ts does, and a probe
 * for benchVideo.
 */
export async function startBenchSfu(turnJson) {
  // Not niced (scripts/local-sfu.mjs nices it for test runs): here it stands in for Cloudflare's own
  // machines, and niced on a busy 2-core machine it was starved by the viewers' renderers (the
  // studio's publication went 'disconnected' past its grace while viewers joined).
  const sfu = await startLocalSfu({ appId: `bench-${randomBytes(4).toString('hex')}`, turnJson, niceness: Number(process.env.BENCH_SFU_NICENESS ?? 0) });
  const vars = localSfuVars(sfu, { turn: !!turnJson });
  const probe = {
    /** Drops `percent` of the packets the stand-in sends to every session that pulls video (the layer-switch measure: one viewer). */
    dropToViewers: async (percent) => {
      const { sessions } = await sfu.control('/stats');
      for (const [sessionId, s] of Object.entries(sessions)) if (s.remoteTracks.some((t) => t.includes('-video-'))) await sfu.control('/drop', { sessionId, percent });
    },
    begin: async () => ({ at: performance.now(), cpu: processCpuSeconds(sfu.pid), machine: machineCpu(), packets: await packets(sfu) }),
    end: async (t) => {
      const seconds = (performance.now() - t.at) / 1000;
      const cpu = processCpuSeconds(sfu.pid);
      const machine = machineCpu();
      const p = await packets(sfu);
      const received = p.received - t.packets.received;
      const forwarded = p.forwarded - t.packets.forwarded;
      return {
        // Of one core (100 = one core busy all the window).
        sfu_cpu_pct: cpu === null || t.cpu === null ? null : (100 * (cpu - t.cpu)) / seconds,
        machine_busy_pct: (100 * (machine.busy - t.machine.busy)) / Math.max(1, machine.total - t.machine.total),
        sfu_received: received,
        sfu_forwarded: forwarded,
        sfu_pulls: p.pulls,
        sfu_sessions: p.states,
        // 1 = every packet the publisher sent reached every pulling session.
        sfu_forward_ratio: received && p.pulls ? forwarded / (received * p.pulls) : null,
      };
    },
  };
  return { sfu, vars, probe };
}
