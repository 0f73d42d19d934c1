import type { Bindings } from '../env';
import { openTypesOf, type ChatShowRow } from '../features/chat/chat.repo';
import type { ShowConf } from './room-logic';

/** The live room of a show (one Durable Object per show). */
export function roomOf(env: Bindings, showId: number) {
  return env.ROOM.get(env.ROOM.idFromName(`show-${showId}`));
}

export function showConf(r: ChatShowRow): ShowConf {
  return { id: r.id, name: r.name, providerId: r.contentprovider_id, online: r.online === 1, paused: r.paused === 1, open: openTypesOf(r) };
}
