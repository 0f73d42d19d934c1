import { CHAT_HISTORY, ROOM_FLOOD_CLOSE_CODE, type ChatLine, type RoomEvent } from '../../../../shared/chat';
import { nowSeconds } from '../../../lib/clock';
import { renewal } from '../../../lib/room-token';
import { videoCommand, videoSignal } from '../../video/video-room.service';
import { cannedLine } from '../../dev/simulator.service';
import { addBans } from '../chat.repo';
import { cleanText, frameKind, isPerformerCommand, parseCommand, type FrameVerdict } from './logic';
import { acceptSession } from './meter';
import { lineRefusal, modCommand } from './safety';
import { endSession, pushNow, saveMeta, simulated, type Room, type RoomAttachment } from './state';

// What a show room's sockets send: chat lines (to all or private), typing, the performer's
// moderation (accept, decline, end, kick, ban, mute), and video signalling; each frame passes the
// sender's limits first. Lines go out at once and are kept for late joiners.

let lineSeq = 0;
/** The chat history is written at most this often. */
const HISTORY_WRITE_MS = 1_000;

/**
 * Sends a line to whom it is for and keeps it for late joiners. The history is written at most
 * once a second, after the lines went out (a write per line made the room's tail twice the
 * floor's; a crash loses at most that second of history, never a sent line).
 */
function addLine(r: Room, line: ChatLine): void {
  r.history.push(line);
  if (r.history.length > CHAT_HISTORY) r.history.splice(0, r.history.length - CHAT_HISTORY);
  const msg = JSON.stringify({ t: 'line', line } satisfies RoomEvent);
  r.send('performer', msg);
  if (line.to) r.send(`s:${line.to === 'performer' ? line.from : line.to}`, msg);
  else r.send('v', msg);
  r.historyTimer ??= setTimeout(() => {
    r.historyTimer = null;
    void r.ctx.storage.put('history', r.history, { allowUnconfirmed: true });
  }, HISTORY_WRITE_MS);
}

/** Where a frame's answers go: the performer's socket, or a viewer's frame answered through its shard. */
export interface FrameSocket {
  send(message: string): void;
  close(code: number, reason: string): void;
}

/** One frame from a socket (`a`: its attachment; `limit`: false when the shard already held the sender's limits). */
export async function onFrame(r: Room, ws: FrameSocket, a: RoomAttachment | null, message: string | ArrayBuffer, limit = true): Promise<void> {
  const error = (code: string) => ws.send(JSON.stringify({ t: 'error', code } satisfies RoomEvent));
  // ('ping' never arrives here: the runtime answers it, HibernatingRoom.)
  const cmd = typeof message !== 'string' ? null : parseCommand(message);
  // The performer answers each viewer's signals: a bucket per viewer in the room (or the relay),
  // so a full room is not a flood; signals to anyone else share one bucket.
  const peer = a?.role === 'performer' && cmd?.t === 'signal' && (cmd.to === 'relay' || r.sessions.has(cmd.to)) ? cmd.to : undefined;
  const verdict = limit ? r.limits.take(a?.sid ?? '', frameKind(cmd), Date.now(), peer) : 'pass';
  if (verdict !== 'pass') return refuse(ws, verdict, error);
  if (!a || !cmd) return error('chat.bad_command');
  const performer = a.role === 'performer';
  if (isPerformerCommand(cmd) && !performer) return error('chat.forbidden');
  const mine = performer ? null : r.sessions.get(a.sid);
  if (!performer && !mine) return error('chat.session_ended');
  switch (cmd.t) {
    case 'say': {
      if (!performer && r.mutes.has(a.sid)) return error('chat.muted');
      const text = cleanText(cmd.text);
      if (!text) return error('chat.empty');
      const refused = mine ? await lineRefusal(r, mine, text) : null;
      if (refused) return ws.send(JSON.stringify(refused));
      let to: string | undefined;
      if (cmd.to !== undefined) {
        const ok = performer ? r.sessions.has(cmd.to) : cmd.to === 'performer' && mine?.state === 'active' && (mine.type === 'private' || mine.type === 'exclusive');
        if (!ok) return error('chat.no_private');
        to = cmd.to;
      }
      const line: ChatLine = { id: `${Date.now().toString(36)}-${++lineSeq}`, from: a.sid, nick: a.nick, role: a.role, text, ts: Date.now(), ...(to ? { to } : {}) };
      addLine(r, line);
      if (!performer && simulated(r)) simulateAnswer(r, line);
      return;
    }
    case 'typing': {
      const event: RoomEvent = { t: 'typing', from: a.sid, nick: a.nick };
      return r.send(performer ? 'v' : 'performer', event);
    }
    case 'signal':
      return videoSignal(r, a, cmd.to, cmd.data, error);
    case 'video':
      return videoCommand(r, cmd.live, error);
    case 'mod':
      return modCommand(r, a, cmd, (e) => ws.send(JSON.stringify(e)));
    case 'renew':
      return ws.send(await renewal(r.env, a, r.show?.id ?? 0));
    default:
      return command(r, cmd.t, cmd.sessionId, error);
  }
}

/** A frame over its sender's limit: told once per window, dropped, or (a flood that goes on) the socket closed. */
function refuse(ws: FrameSocket, verdict: Exclude<FrameVerdict, 'pass'>, error: (code: string) => void): void {
  if (verdict === 'tell') return error('chat.rate_limited');
  if (verdict === 'drop') return;
  try {
    ws.close(ROOM_FLOOD_CLOSE_CODE, 'chat.rate_limited');
  } catch {
    // already closing
  }
}

/** The performer's moderation of one session. */
async function command(r: Room, t: string, sessionId: string, error: (code: string) => void): Promise<void> {
  const s = r.sessions.get(sessionId);
  if (!s) return error('chat.no_session');
  if (t === 'accept') {
    if (s.state !== 'pending') return error('chat.no_session');
    await acceptSession(r, s);
  } else if (t === 'decline') await endSession(r, s, 'declined');
  else if (t === 'end') await endSession(r, s, 'performer');
  else if (t === 'kick') await endSession(r, s, 'kicked');
  else if (t === 'ban') {
    await addBans(r.env.DB, r.show?.id ?? 0, [...(s.uid ? [`u:${s.uid}`] : []), `v:${s.visitor}`], nowSeconds());
    await endSession(r, s, 'banned');
  } else if (t === 'mute' || t === 'unmute') {
    if (t === 'mute') r.mutes.add(s.id);
    else r.mutes.delete(s.id);
    r.presenceDirty.add(s.id);
    await saveMeta(r);
    pushNow(r);
  }
}

/** Local development: a neutral canned answer a moment later, as the absent performer. */
function simulateAnswer(r: Room, to: ChatLine): void {
  setTimeout(() => {
    if (!simulated(r) || !r.sessions.has(to.from)) return;
    const text = cannedLine(lineSeq);
    addLine(r, { id: `${Date.now().toString(36)}-${++lineSeq}`, from: 'performer', nick: r.show?.name ?? 'performer', role: 'performer', text, ts: Date.now(), ...(to.to ? { to: to.from } : {}) });
  }, 1_200);
}
