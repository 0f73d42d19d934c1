import type { Bindings } from '../env';
import { openTypesOf, showById, type ChatShowRow } from '../features/chat/chat.repo';
import type { ShowConf } from './room-logic';

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
