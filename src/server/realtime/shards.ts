import type { Bindings } from '../env';
import { REALTIME_MAX_PER_ADDRESS, REALTIME_MAX_PER_SESSION, REALTIME_SLOT_TTL_S } from '../../shared/constants';
import type { ShowStatus } from '../../shared/realtime';
import { envPositiveInt } from '../lib/config';
import type { SocketCaps } from './sockets.repo';

export function socketCaps(env: Bindings): SocketCaps {
  return {
    perSession: envPositiveInt(env.REALTIME_MAX_PER_SESSION, REALTIME_MAX_PER_SESSION),
    perAddress: envPositiveInt(env.REALTIME_MAX_PER_ADDRESS, REALTIME_MAX_PER_ADDRESS),
    ttlSeconds: REALTIME_SLOT_TTL_S,
  };
}

export function lobbyShardCount(env: Bindings): number {
  return envPositiveInt(env.LOBBY_SHARDS, 8, 256);
}

export function lobbyShardMax(env: Bindings): number {
  return envPositiveInt(env.LOBBY_MAX_SOCKETS, 1000);
}

function hub(env: Bindings) {
  return env.LOBBY_HUB.get(env.LOBBY_HUB.idFromName('hub'));
}

/** Queues show status changes; the hub batches them into one show:bulkupdate. */
export async function publishShowStatus(env: Bindings, changes: ShowStatus[]): Promise<void> {
  await hub(env).publish(changes);
}

/** A member event (user:coins, user:logout, ...) to every open page of that member. */
export async function publishToUser(env: Bindings, userId: number, event: object): Promise<void> {
  await hub(env).toUser(userId, JSON.stringify(event));
}

/** An event of its own to each of many members, in one call to the hub and one to each shard. */
export async function publishToUsers(env: Bindings, events: { userId: number; event: object }[]): Promise<void> {
  if (events.length) await hub(env).toUsers(events.map((e) => ({ userId: e.userId, message: JSON.stringify(e.event) })));
}

/**
 * Closes a member's lobby sockets of ended logins (all but `keep`, or only `only`), telling them
 * `event` first (null: closed silently, the page reconnects with the cookies it has now).
 */
export async function closeLobbyLogins(env: Bindings, userId: number, which: { keep?: string | null; only?: string | null }, event: object | null): Promise<void> {
  await hub(env).closeLogins(userId, which, event ? JSON.stringify(event) : null);
}

export async function startSimulator(env: Bindings): Promise<void> {
  await hub(env).startSimulator();
}

/**
 * Joins a socket to a shard with room: starts at a random shard and walks on while shards
 * answer "full", so no shard ever holds more than LOBBY_MAX_SOCKETS. `geo`: the socket's place
 * (country, region codes) at connect time: status pushes of shows hidden from it never reach it.
 */
export async function connectToLobby(env: Bindings, request: Request, userId: number | null, slot: string, login: string | null = null, geo: string[] = []): Promise<Response> {
  const shards = lobbyShardCount(env);
  const max = lobbyShardMax(env);
  const start = Math.floor(Math.random() * shards);
  for (let i = 0; i < shards; i++) {
    const shard = (start + i) % shards;
    const url = `https://lobby/connect?shard=${shard}&max=${max}&slot=${slot}${userId ? `&uid=${userId}` : ''}${userId && login ? `&login=${encodeURIComponent(login)}` : ''}${geo.length ? `&geo=${encodeURIComponent(geo.join(','))}` : ''}`;
    const res = await env.LOBBY.get(env.LOBBY.idFromName(`shard-${shard}`)).fetch(new Request(url, request));
    if (res.status !== 503) return res;
  }
  return new Response(JSON.stringify({ message: 'lobby_full' }), { status: 503, headers: { 'Content-Type': 'application/json', 'Retry-After': '5' } });
}
