import type { OpenTypes } from '../../../shared/chat';
import type { Bindings } from '../../env';
import { nowSeconds } from '../../lib/clock';
import { openTypesOf, showById, updateShowStatus, type ChatShowRow } from './chat.repo';
import type { ShowConf } from './room/logic';
import type { RoomIdentity } from './room/show-room';

// What other features (the studio, operators, the simulator) use of live rooms: a show's room and
// its socket address, the show as the room sees it, and its state told after a change.

/** A show's row as the live room sees it. */
// Kept: the studio reaches chat.repo only through this service (layout rules; no re-exports).
export const chatShow = showById;
/** A show's switches as the studio shows them. */
export const showStatusOf = (r: ChatShowRow) => ({ online: r.online === 1, paused: r.paused === 1, open: openTypesOf(r) });

/** The performer's switches (pause, the chat types open). */
export async function updateSwitches(db: D1Database, id: number, patch: { paused?: boolean; open?: Partial<OpenTypes> }): Promise<void> {
  await updateShowStatus(db, id, patch, nowSeconds());
}

/** The room socket's address of a show, on the host the request came to. */
export function realmOf(c: { req: { url: string } }, showId: number): string {
  const url = new URL(c.req.url);
  return `${url.protocol === 'https:' ? 'wss:' : 'ws:'}//${url.host}/api/chatroom/${showId}`;
}

/** The live room of a show (one Durable Object per show). */
export function roomOf(env: Bindings, showId: number) {
  return env.ROOM.get(env.ROOM.idFromName(`show-${showId}`));
}

export function showConf(r: ChatShowRow): ShowConf {
  return { id: r.id, name: r.name, providerId: r.contentprovider_id, online: r.online === 1, paused: r.paused === 1, open: openTypesOf(r) };
}

/**
 * Tells a show's room the show's state after a change made outside the studio (an operator, the
 * development simulator): going offline ends its sessions, and every viewer gets the new mode.
 */
export async function syncRoom(env: Bindings, showId: number): Promise<void> {
  const row = await showById(env.DB, showId);
  if (row) await roomOf(env, showId).setShow(showConf(row));
}

/** How many viewers a show's room holds now (the operators' list of live shows). */
export function roomViewers(env: Bindings, showId: number): Promise<number> {
  return roomOf(env, showId).viewerCount();
}

/** A line of a show's recent chat by its id (reports keep it as it was); null when the room no longer has it. */
export async function chatLine(env: Bindings, showId: number, lineId: string): Promise<{ nick: string; text: string; performer: boolean; uid: number | null } | null> {
  return roomOf(env, showId).line(lineId);
}

/** An operator's hidden watch of a show's room (issue 29 point 2, room/watch.ts): the upgraded socket, or 409 when offline. */
export function watchRoom(env: Bindings, showId: number, uid: number, login: string | null, headers: Headers): Promise<Response> {
  const h = new Headers(headers);
  h.set('X-Room-Identity', JSON.stringify({ role: 'watcher', sub: 'watcher', uid, login } satisfies RoomIdentity));
  return roomOf(env, showId).fetch(new Request('https://room/watch', { headers: h }));
}

/** The ICE servers for a hidden watcher's video (null: it receives none now; 'unavailable': the engine failed). */
export function watcherIce(env: Bindings, showId: number, sid: string) {
  return roomOf(env, showId).videoIce(sid);
}
