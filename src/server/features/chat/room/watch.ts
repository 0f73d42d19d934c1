import type { RoomEvent } from '../../../../shared/chat';
import { WATCH_TAG, WATCHER_PREFIX } from '../../../../shared/video';
import { syncVideo, videoSignal, videoWatchJoined } from '../../video/video-room.service';
import { frameKind, parseCommand, snapshotOf, visibleLines } from './logic';
import type { FrameSocket } from './lines';
import { open, type Room, type RoomAttachment } from './state';

// An operator's hidden watch of a show (issue 29 point 2): a socket of its own kind on the show's
// room itself, not a session on a shard. Not a session, so it is in no viewer count, no presence
// list, no census and no bill (sessions and their minutes are all the room counts and charges);
// the room sends it what goes to every viewer ('v': public lines, tips, the room's state) and its
// video (video-watch.ts). It may only signal for its video: a line, typing or a command is refused
// here, whatever its page sends. It closes when the show goes offline (setShow).

/** Closes a watcher's socket when the show goes offline or is stopped. */
export const WATCH_ENDED_CODE = 4000;

/** The watcher's attachment (uid: the operator) and the frames it starts with. */
export function watcherJoin(r: Room, uid: number | null, login: string | null): { a: RoomAttachment; frames: string[]; tags: string[] } {
  const sid = `${WATCHER_PREFIX}${crypto.randomUUID()}`;
  const a: RoomAttachment = { sid, role: 'guest', uid, nick: '', login };
  const welcome: RoomEvent = { t: 'welcome', me: { id: sid, nick: '', role: 'guest', type: null, muted: false }, room: snapshotOf(r.show, r.sessions.values()), history: visibleLines(r.history, sid), session: null };
  const video = videoWatchJoined(r);
  return { a, frames: [JSON.stringify(welcome), JSON.stringify(video)], tags: [WATCH_TAG, `s:${sid}`] };
}

/** A watcher's frame: its video signals pass (within its limits); anything else is refused. */
export async function watcherFrame(r: Room, ws: FrameSocket, a: RoomAttachment, message: string | ArrayBuffer): Promise<void> {
  const error = (code: string) => ws.send(JSON.stringify({ t: 'error', code } satisfies RoomEvent));
  const cmd = typeof message === 'string' ? parseCommand(message) : null;
  const verdict = r.limits.take(a.sid, frameKind(cmd), Date.now());
  if (verdict === 'drop' || verdict === 'close') return;
  if (verdict === 'tell') return error('chat.rate_limited');
  if (cmd?.t !== 'signal') return error('chat.forbidden');
  return videoSignal(r, a, cmd.to, cmd.data, error);
}

/** The show went offline (or an operator stopped it): every watch ends. */
export function endWatches(r: Room): void {
  for (const ws of open(r, WATCH_TAG)) {
    try {
      ws.close(WATCH_ENDED_CODE, 'offline');
    } catch {
      // closing already
    }
  }
}

/** A watcher's socket closed: the video stops going to it (the studio's browser, peer to peer, drops its connection; the SFU closes its pull). */
export function watcherLeft(r: Room): void {
  syncVideo(r);
}
