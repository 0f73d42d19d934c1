// `LOCAL_SFU=1 npm run dev` / `npm start`: the production video engine (VIDEO_RELAY=cloudflare)
// against the local stand-in of Cloudflare's Realtime SFU (tools/local-sfu, real RTP), with coturn
// (scripts/turn.mjs) handed out by the stand-in's TURN-key call when /usr/bin/turnserver exists.
// The settings reach the worker as vars of this run only (never written to a file): the stand-in's
// secret is made anew each time, and the stand-in and coturn stop when the command exits.
import { existsSync } from 'node:fs';
import { localSfuVars, startLocalSfu } from './local-sfu.mjs';
import { startTurn, TURNSERVER } from './turn.mjs';

/** The vars this sets; a .dev.vars entry of the same name would win over them (wrangler's order). */
export const LOCAL_SFU_VARS = ['VIDEO_RELAY', 'REALTIME_API_BASE', 'REALTIME_APP_ID', 'REALTIME_APP_SECRET', 'TURN_KEY_ID', 'TURN_KEY_API_TOKEN'];

/**
 * When LOCAL_SFU=1: starts coturn (if installed) and the stand-in; answers the worker vars and a
 * stop(), else null. `devVars`: the parsed .dev.vars, to warn about entries that would override.
 */
export async function startLocalVideo(devVars = {}) {
  if (process.env.LOCAL_SFU !== '1') return null;
  const clash = LOCAL_SFU_VARS.filter((k) => k in devVars);
  if (clash.length) console.warn(`LOCAL_SFU=1: .dev.vars sets ${clash.join(', ')}, which win over the local SFU's settings; remove them to use the stand-in.`);
  // A relay port range of its own, clear of the e2e run's and the bench's coturn (49400-49599).
  const turn = existsSync(TURNSERVER) ? await startTurn({ minPort: 49800, maxPort: 49999 }) : null;
  let sfu;
  try {
    sfu = await startLocalSfu(turn ? { turnJson: turn.iceServers } : {});
  } catch (e) {
    turn?.stop();
    throw e;
  }
  console.log(`Video: the production engine through the local SFU stand-in at ${sfu.origin} (packet counts: ${sfu.origin}/_control/stats)`);
  console.log(turn ? `Video: browsers reach it through coturn on 127.0.0.1:${turn.port}` : `Video: no TURN (${TURNSERVER} is missing: apt-get install coturn); browsers connect to the stand-in's host addresses directly`);
  const vars = localSfuVars(sfu, { turn: !!turn });
  let stopping = null;
  const stop = () =>
    (stopping ??= (async () => {
      await sfu.stop().catch(() => {});
      turn?.stop();
    })());
  // Ctrl+C reaches the whole process group; this also covers a kill of this process alone.
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.once(sig, () => {
      stop().finally(() => process.exit(130));
    });
  }
  return { vars, stop };
}

/** Runs `main` with the local video vars (or none), stopping the stand-in and coturn when it ends. */
export async function withLocalVideo(devVars, main) {
  const video = await startLocalVideo(devVars);
  try {
    return await main(video?.vars ?? {});
  } finally {
    await video?.stop();
  }
}
