import type { IceServer } from '../../../shared/video';
import { randomToken } from '../../lib/crypto';
import { offerTracks } from './video-engines';
import { relay, type VideoHost } from './video-host';
import { setVideo, syncVideo, videoIce } from './video-room.service';

// OBS over WHIP (issue 28), the room's side: the offer a WHIP publisher POSTed (whip.routes.ts
// checked its key and its shape) becomes the show's publication through the same engine call,
// the same `live` and the same sync as the studio's camera (video-signal.ts), so entitlement,
// privates and the cut-off work as for the camera. One publisher at a time: the camera or OBS.

/** The WHIP resource of the show's publication (kept with the room's video state). */
export interface WhipState {
  /** The random part of its URL (/whip/{show}/{id}): whoever knows it and holds the key may end it. */
  id: string;
  at: number;
}

/** A WHIP publication this old whose media stopped may be replaced by a new POST with the key. */
export const WHIP_TAKEOVER_AFTER_MS = 10_000;

export type WhipResult = { ok: true; id: string; answer: string; iceServers: IceServer[] } | { ok: false; status: 409 | 503; code: string };

/** Publishes a WHIP offer as the show's video; refused (nothing changed) when another publication is live (an OBS one that stopped sending is replaced). */
export async function whipPublish(h: VideoHost, sdp: string): Promise<WhipResult> {
  const engine = relay(h);
  // The browser publishes to each viewer itself in peer-to-peer mode: an encoder outside it needs the SFU.
  if (engine.kind !== 'cloudflare') return { ok: false, status: 503, code: 'whip.needs_sfu' };
  if (!h.show?.online || h.show.paused) return { ok: false, status: 409, code: 'video.not_online' };
  const showId = h.show.id;
  const v = h.video;
  const busy = { ok: false, status: 409, code: 'whip.busy' } as const;
  if (v.whipChecking) return busy;
  // OBS reconnecting after its network dropped (it cannot DELETE the old resource): an OBS
  // publication that the SFU no longer gets media for is ended, and this offer takes its place.
  const old = v.whip;
  if (old && v.live && Date.now() - old.at >= WHIP_TAKEOVER_AFTER_MS) {
    v.whipChecking = true;
    try {
      if (!(await engine.receiving(showId).catch(() => true)) && v.whip === old) {
        await setVideo(h, false);
        syncVideo(h);
      }
    } finally {
      v.whipChecking = false;
    }
  }
  // Decided before any await: of two POSTs at once, one publishes and the other is told 409.
  if (v.live || v.whip || engine.publication(showId)) return busy;
  const mine: WhipState = { id: randomToken(18), at: Date.now() };
  v.whip = mine;
  let answer: string;
  try {
    answer = (await engine.publish(showId, { type: 'offer', sdp }, offerTracks(sdp))).answer.sdp;
  } catch (e) {
    if (v.whip === mine) v.whip = null;
    console.error('whip: publish', (e as Error).message);
    return { ok: false, status: 503, code: 'video.unavailable' };
  }
  // Offline, paused or ended meanwhile: the publication ends at once.
  if (v.whip !== mine || !h.show?.online || h.show.paused) {
    if (v.whip === mine) v.whip = null;
    await engine.unpublish(showId).catch(() => undefined);
    return { ok: false, status: 409, code: 'video.not_online' };
  }
  await setVideo(h, true);
  syncVideo(h);
  const ice = await videoIce(h, 'performer').catch(() => null);
  return { ok: true, id: mine.id, answer, iceServers: ice?.iceServers ?? [] };
}

/** Ends the WHIP publication `id` (false: no such resource, e.g. ended by the studio or replaced). */
export async function whipEnd(h: VideoHost, id: string): Promise<boolean> {
  if (!h.video.whip || h.video.whip.id !== id || !h.video.live) return false;
  await setVideo(h, false);
  syncVideo(h);
  return true;
}
