import type { RoomEvent } from '../../../shared/chat';
import { SIMULCAST_RIDS, type IceServersAnswer, type SimulcastRid, type VideoRelayKind, type ViewerVideoState } from '../../../shared/video';
import type { ShowConf } from '../chat/room/logic';
import { MONITOR, plan, relay, videoPermitted, type VideoHost } from './video-host';
import { SFU_PREFIX, sfuSnapshotOf, type SfuSnapshot, type VideoRelay } from './video-relay';
import { signal } from './video-signal';
import { whipEnd, whipPublish, type WhipState } from './video-whip';
import { liveWatchers, tellWatchers, watcherVideoEvent } from './video-watch';

/** The video part of a show room's state. */
export interface VideoState {
  live: boolean;
  epoch: number;
  /** What each session and the performer were last told (lost on hibernation: then told again). */
  told: Map<string, string>;
  toldViewers: string[];
  /** The publication epoch the performer's last viewer list carried (-1: none sent yet). */
  toldEpoch: number;
  relay: VideoRelay | null;
  /** Viewers whose media the engine is being told to stop (one attempt chain each). */
  ending: Set<string>;
  /** The SFU engine's state as the room's storage held it when the room woke (key 'sfu'). */
  sfuSaved: SfuSnapshot | null;
  /** The room's ICE servers (TURN credentials) and when they were issued; in memory (a room that slept issues new ones). */
  ice: { at: number; answer: Promise<IceServersAnswer> } | null;
  /** The publication comes from OBS over WHIP (video-whip.ts), not the studio's camera; stored with `live`. */
  whip: WhipState | null;
  /** Whether the performer was last told the publication comes from WHIP. */
  toldWhip: boolean;
  /** A WHIP POST is asking the SFU whether the OBS publication still sends (one at a time; in memory). */
  whipChecking: boolean;
}

/** The room's video as its storage kept it (key 'video', the SFU's entries under 'sfu:'; what each socket was told is not kept). */
export function newVideoState(stored: Map<string, unknown>, sfu: Map<string, unknown> = new Map()): VideoState {
  const video = stored.get('video') as { live: boolean; epoch: number; whip?: WhipState | null } | undefined;
  const whip = video?.live ? (video.whip ?? null) : null;
  return { live: video?.live ?? false, epoch: video?.epoch ?? 0, told: new Map(), toldViewers: [], toldEpoch: -1, relay: null, ending: new Set(), sfuSaved: sfu.size ? sfuSnapshotOf(sfu) : null, ice: null, whip, toldWhip: false, whipChecking: false };
}

/** The room's video read back from its storage ('video' read with the room's other keys). */
export async function loadVideoState(ctx: DurableObjectState, stored: Map<string, unknown>): Promise<VideoState> {
  return newVideoState(stored, await ctx.storage.list({ prefix: SFU_PREFIX }));
}

/** A failed SFU track close is retried this often until it holds (a paid viewer's video stops within 2 s). */
export const CLOSE_RETRY_MS = 500;
/** From this many viewers losing the video at once, the SFU closes the publication instead of each pull. */
export const CUT_OFF_AT = 3;
/** The `ending` entry of a cut-off in progress. */
const CUTTING_OFF = '*';
/**
 * TURN credentials are issued once per room and handed to everyone in it for this long (Cloudflare
 * asks that most issued credentials be used); each answer says how long they have left.
 */
export const ICE_SHARE_MS = 10 * 60_000;

export type IceAnswer = IceServersAnswer & { relay: VideoRelayKind };

/**
 * The ICE servers for the performer or a session the room sends video to (null: not permitted).
 * One issue serves the room for ICE_SHARE_MS, parallel askers included; the ttl is what is left.
 */
export async function videoIce(h: VideoHost, sid: string | 'performer'): Promise<IceAnswer | null> {
  if (sid !== 'performer' && !videoPermitted(h, sid)) return null;
  const engine = relay(h);
  const v = h.video;
  // Decided before any await, so a burst of askers shares one issue.
  if (!v.ice || Date.now() - v.ice.at >= ICE_SHARE_MS) {
    const fresh = { at: Date.now(), answer: engine.iceServers() };
    v.ice = fresh;
    fresh.answer.catch(() => {
      if (v.ice === fresh) v.ice = null;
    });
  }
  const issue = v.ice;
  const { iceServers, ttl } = await issue.answer;
  // Servers without credentials (ICE_SERVERS, no TURN key) cost nothing: read again next time.
  if (ttl === 0 && v.ice === issue) v.ice = null;
  return { iceServers, ttl: ttl === 0 ? 0 : Math.max(1, ttl - Math.floor((Date.now() - issue.at) / 1000)), relay: engine.kind };
}

/**
 * A session's new socket: it hears what its session was last told, at once (the room's next
 * sync, pushSoon, tells what changed since; a session never told yet is told then). O(1) per
 * join, where a plan of the whole room per join made N viewers reconnecting at once cost N².
 */
export function videoRejoined(h: VideoHost, sid: string): void {
  const key = h.video.told.get(sid);
  if (!key) return;
  const at = key.lastIndexOf(':');
  h.send(`s:${sid}`, { t: 'video', state: key.slice(0, at) as ViewerVideoState, epoch: Number(key.slice(at + 1)), layers: layersOf(h) });
}

/**
 * The qualities a viewer may pick (its quality menu): peer to peer every one (the performer's
 * browser scales each connection), with the SFU the layers the publication sends (none: one layer).
 */
function layersOf(h: VideoHost): SimulcastRid[] {
  const engine = relay(h);
  if (engine.kind === 'p2p') return [...SIMULCAST_RIDS];
  const rids = engine.publication(h.show?.id ?? 0)?.tracks.find((t) => t.rids?.length)?.rids ?? [];
  return SIMULCAST_RIDS.filter((r) => rids.includes(r));
}

/**
 * Tells whoever's video state changed (and the performer, `force`d, after the studio's
 * (re)connect; a viewer's new socket: videoRejoined); viewers who lost their video are ended on the engine. Every change of the
 * room's sessions or mode calls this; viewers and the performer hear only what changed.
 */
export function syncVideo(h: VideoHost, force?: 'performer'): void {
  let p;
  try {
    p = plan(h);
  } catch {
    return; // a configuration error: every video call answers video.unavailable
  }
  const v = h.video;
  let layers: SimulcastRid[] | null = null;
  for (const [sid, state] of p.states) {
    const key = `${state}:${v.epoch}`;
    if (v.told.get(sid) === key) continue;
    v.told.set(sid, key);
    h.send(`s:${sid}`, { t: 'video', state, epoch: v.epoch, layers: (layers ??= layersOf(h)) });
  }
  for (const sid of v.told.keys()) if (!p.states.has(sid)) v.told.delete(sid);
  tellWatchers(h, () => (layers ??= layersOf(h)));
  const watchers = liveWatchers(h);
  const permitted = new Set([...p.viewers, ...watchers]);
  if (videoPermitted(h, MONITOR)) permitted.add(MONITOR);
  // Who lost the video: those last told, and those the engine still sends to (after a sleep the
  // room has told nobody yet, but the SFU keeps forwarding until their tracks are closed).
  const engine = relay(h);
  const dropped = new Set([...v.toldViewers, ...engine.viewerKeys(h.show?.id ?? 0)].filter((id) => !permitted.has(id)));
  // Many at once (a private starts): the publication itself is closed, one call whatever their
  // number, and the studio publishes again. An encoder over WHIP cannot be asked to: its viewers' pulls are closed one by one.
  if (dropped.size >= CUT_OFF_AT && engine.publication(h.show?.id ?? 0) && !v.whip) h.ctx.waitUntil(cutOff(h));
  else for (const sid of dropped) h.ctx.waitUntil(endViewer(h, sid));
  // The performer hears what changed: peer to peer the list (its browser offers to each), with the
  // SFU only the count (the studio shows it; a thousand ids on every join would be sent for nothing).
  const sfu = engine.kind === 'cloudflare';
  // Peer to peer the studio's browser offers to the hidden watchers too (video-watch.ts), never counted.
  const offered = sfu ? p.viewers : [...p.viewers, ...watchers];
  const same = offered.length === v.toldViewers.length && (sfu || offered.every((id, i) => id === v.toldViewers[i]));
  const whip = v.live && v.whip !== null;
  v.toldViewers = offered;
  if (same && v.toldEpoch === v.epoch && v.toldWhip === whip && force !== 'performer') return;
  v.toldEpoch = v.epoch;
  v.toldWhip = whip;
  h.send('performer', { t: 'video-viewers', viewers: sfu ? [] : offered, count: p.viewers.length, epoch: v.epoch, relay: engine.kind, whip });
}

/**
 * Everyone loses the video at once: the SFU closes the publication (retried until it holds), the
 * performer is asked to publish again (the entitled pull that, with the new epoch), and the
 * forgotten viewers' sessions, which carry nothing now, are closed a few at a time.
 */
async function cutOff(h: VideoHost): Promise<void> {
  const ending = h.video.ending;
  if (ending.has(CUTTING_OFF)) return;
  ending.add(CUTTING_OFF);
  const engine = relay(h);
  try {
    for (let attempt = 0; attempt < 20; attempt++) {
      try {
        const forgotten = await engine.cutOff(h.show?.id ?? 0);
        h.send('performer', { t: 'error', code: 'video.republish' });
        for (let i = 0; i < forgotten.length; i += 6) await Promise.allSettled(forgotten.slice(i, i + 6).map((f) => engine.closeForgotten(f)));
        return;
      } catch {
        await new Promise((r) => setTimeout(r, CLOSE_RETRY_MS));
      }
    }
  } finally {
    ending.delete(CUTTING_OFF);
  }
}

/** The engine stops a viewer's media (the SFU: its tracks closed; retried until closed, while still not permitted). */
export async function endViewer(h: VideoHost, sid: string): Promise<void> {
  const ending = h.video.ending;
  if (ending.has(sid)) return;
  ending.add(sid);
  const showId = h.show?.id ?? 0;
  let closed = false;
  try {
    for (let attempt = 0; attempt < 20 && !closed; attempt++) {
      if (videoPermitted(h, sid)) return;
      try {
        await relay(h).endViewer(showId, sid);
        closed = true;
      } catch {
        await new Promise((r) => setTimeout(r, CLOSE_RETRY_MS));
      }
    }
  } finally {
    ending.delete(sid);
  }
  // A pull that landed while this close ran (permitted again, then not) is closed too.
  if (closed && !videoPermitted(h, sid) && relay(h).viewer(showId, sid)) await endViewer(h, sid);
}

/** The show's video goes live (a new publication: the camera's, or OBS's when `video.whip` is set) or ends (so does a WHIP resource). */
export async function setVideo(h: VideoHost, live: boolean): Promise<void> {
  h.video.live = live;
  if (live) h.video.epoch++;
  else h.video.whip = null;
  await h.ctx.storage.put('video', { live, epoch: h.video.epoch, whip: h.video.whip });
  if (!live) await relay(h).unpublish(h.show?.id ?? 0).catch(() => undefined);
}

/**
 * The show changes to `conf`: offline or paused ends the publication (the performer publishes again
 * once back), and every viewer hears the new state before the sessions that end with it are closed.
 */
export async function videoShowChange(h: VideoHost, conf: ShowConf): Promise<void> {
  if ((!conf.online || conf.paused) && h.video.live) await setVideo(h, false);
  h.show = conf;
  syncVideo(h);
}

/** The performer's camera went on or off (the p2p engine: the browser sends from now on). */
export async function videoCommand(h: VideoHost, live: boolean, error: (code: string) => void): Promise<void> {
  if (live && (!h.show?.online || h.show.paused)) return error('video.not_online');
  if (relay(h).kind === 'cloudflare' && live) return error('video.publish_with_offer');
  await setVideo(h, live);
  syncVideo(h);
}

/** OBS over WHIP (video-whip.ts): the offer published as the show's video, or 409/503 and nothing changed. */
export function videoWhipPublish(...args: Parameters<typeof whipPublish>): ReturnType<typeof whipPublish> {
  return whipPublish(...args);
}

/** Ends the WHIP publication whose resource id this is (false: none such). */
export function videoWhipEnd(...args: Parameters<typeof whipEnd>): ReturnType<typeof whipEnd> {
  return whipEnd(...args);
}

/** An operator's hidden watcher joined (issue 29 point 2, video-watch.ts): the video state it starts with. */
export function videoWatchJoined(h: VideoHost): RoomEvent {
  return watcherVideoEvent(h, layersOf(h));
}

/** Signalling (video-signal.ts): the performer's offer publishes, a viewer's want pulls, its answer completes the pull. */
export function videoSignal(...args: Parameters<typeof signal>): Promise<void> {
  return signal(...args);
}
