import type { RoomEvent } from '../../../shared/chat';
import { runningOf, roomMode } from '../../../shared/room-mode';
import { WATCH_TAG, type SimulcastRid, type ViewerVideoState } from '../../../shared/video';
import type { VideoHost } from './video-host';
import type { VideoState } from './video-room.service';

// An operator's hidden watch of a show (issue 29 point 2), the video side. A watcher is not a
// session: the plan (video-plan.ts) never sees it, so it is in no count, no presence list and no
// bill. It receives what a free viewer receives (free mode, the performer publishing: the public
// show, never a private), through the engine's own ways: with the SFU a pull keyed by its id (as
// the studio's OBS monitor pulls), peer to peer an id on the list the studio's browser offers to
// (beside the viewers, never in the count the studio shows: the studio's browser cannot send
// video to a peer it does not know, so p2p is the one place the performer's page holds its id).

/** The room's open watcher sockets' ids (hibernation keeps the sockets' tags and attachments). */
export function watcherIds(h: VideoHost): string[] {
  const ids: string[] = [];
  for (const ws of h.ctx.getWebSockets(WATCH_TAG)) {
    const sid = ws.readyState === 1 ? (ws.deserializeAttachment() as { sid?: string } | null)?.sid : undefined;
    if (sid) ids.push(sid);
  }
  return ids;
}

/** What a watcher sees now: the public show's state, 'private' while a private or exclusive runs. */
export function watcherState(h: VideoHost): ViewerVideoState {
  const mode = roomMode(h.show, runningOf(h.sessions.values())?.type ?? null);
  if (mode === 'offline' || mode === 'paused') return mode;
  if (mode !== 'free') return 'private';
  return h.video.live ? 'live' : 'camera_off';
}

export function watcherPermitted(h: VideoHost, sid: string): boolean {
  return watcherState(h) === 'live' && watcherIds(h).includes(sid);
}

/** The watchers the engine sends to now (none unless the public show is live). */
export function liveWatchers(h: VideoHost): string[] {
  return watcherState(h) === 'live' ? watcherIds(h) : [];
}

/** What the watchers were last told, per room (in memory: a woken room tells them again). */
const told = new WeakMap<VideoState, string>();

/** The video state for the watchers (a joiner's first, or all of them): what they were told is this now. */
export function watcherVideoEvent(h: VideoHost, layers: SimulcastRid[]): RoomEvent {
  const state = watcherState(h);
  told.set(h.video, `${state}:${h.video.epoch}`);
  return { t: 'video', state, epoch: h.video.epoch, layers };
}

/** The watchers hear their state when it changed (every sync of the room's video asks). */
export function tellWatchers(h: VideoHost, layers: () => SimulcastRid[]): void {
  // None here: what the last ones were told is void (the next one hears its state as it joins).
  if (watcherIds(h).length === 0) return void told.delete(h.video);
  if (told.get(h.video) === `${watcherState(h)}:${h.video.epoch}`) return;
  h.send(WATCH_TAG, watcherVideoEvent(h, layers()));
}
