import type { RoomEvent } from '../../../shared/chat';
import { isWatcherId, VIDEO_P2P_MAX_VIEWERS } from '../../../shared/video';
import type { Bindings } from '../../env';
import { envPositiveInt } from '../../lib/config';
import type { RoomSession, ShowConf } from '../chat/room/logic';
import type { FetchLike } from './realtime-api';
import { createVideoRelay } from './video-engines';
import { receivesVideo, videoPlan } from './video-plan';
import type { VideoRelay } from './video-relay';
import type { VideoState } from './video-room.service';
import { watcherPermitted } from './video-watch';

// What a show room lends its video (VideoHost), the room's engine (built once per wake from what
// storage kept) and the plan of who receives video. The state and the operations over it are in
// video-room.service.ts, the signalling in video-signal.ts.

/** Tests only: the fetch the SFU engine of rooms created from now on uses (the local fake of the Realtime API). */
export const videoTestHooks: { fetch?: FetchLike } = {};

/** What the room lends its video (issue 12): the show, its sessions, storage and a send to a socket tag. */
export interface VideoHost {
  ctx: DurableObjectState;
  env: Bindings;
  show: ShowConf | null;
  sessions: Map<string, RoomSession>;
  video: VideoState;
  send(tag: string, event: RoomEvent): void;
}

/** Who is a viewer on the studio's list, as identified on a socket. */
export interface VideoCaller {
  sid: string;
  role: string;
}

/** The room's engine, built once per wake from what storage kept; every change is stored again. */
export function relay(h: VideoHost): VideoRelay {
  return (h.video.relay ??= createVideoRelay(h.env, videoTestHooks.fetch, {
    saved: h.video.sfuSaved,
    persist: (entries) => {
      const failed = (e: Error) => console.error('video: saving the SFU state', e.message);
      // Storage takes at most 128 keys per call.
      for (let i = 0; i < entries.length; i += 128) {
        const part = entries.slice(i, i + 128);
        const kept = part.filter(([, v]) => v !== null);
        const gone = part.filter(([, v]) => v === null).map(([k]) => k);
        if (kept.length) h.ctx.storage.put(Object.fromEntries(kept)).catch(failed);
        if (gone.length) h.ctx.storage.delete(gone).catch(failed);
      }
    },
  }));
}

const viewerCap = (h: VideoHost) => (relay(h).kind === 'p2p' ? envPositiveInt(h.env.VIDEO_P2P_MAX_VIEWERS, VIDEO_P2P_MAX_VIEWERS) : Infinity);

export function plan(h: VideoHost) {
  return videoPlan(h.show, h.sessions.values(), h.video.live, viewerCap(h));
}

/**
 * The studio's own pull of an OBS publication (its key among the engine's viewers: no session id
 * is 'performer'): the performer sees what OBS sends, its resolution and bitrate, while it is on
 * air. Not a viewer: not counted, not cut off by a private, never billed.
 */
export const MONITOR = 'performer';

function monitorPermitted(h: VideoHost): boolean {
  return h.video.live && h.video.whip !== null && relay(h).kind === 'cloudflare' && !!h.show?.online && !h.show.paused;
}

/**
 * Whether a session may receive video now (the room as it is, not as last told). The ICE endpoint
 * asks too: TURN credentials cost money, and a viewer the room sends nothing needs none.
 */
export function videoPermitted(h: VideoHost, sid: string): boolean {
  if (sid === MONITOR) return monitorPermitted(h);
  if (isWatcherId(sid)) return watcherPermitted(h, sid);
  try {
    const s = h.sessions.get(sid);
    return !!s && receivesVideo(h.show, h.sessions.values(), s, h.video.live, viewerCap(h));
  } catch {
    return false;
  }
}
