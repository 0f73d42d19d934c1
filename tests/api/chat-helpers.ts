import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import { parseRoomEvents, type ChatSessionAnswer, type RoomEvent } from '../../src/shared/chat';
import { roomOf } from '../../src/server/features/chat/chat.service';
import { type Member, registerMember } from './account-helpers';
import { Client, expectJson, OPS, req, websocket } from './helpers';

// Helpers of the live-room tests: demo performers (login = the show's slug, password below),
// shows put into a known state, members with coins, nicknames and age check, and room sockets
// with an event queue.

export const PERFORMER_PASSWORD = 'studio-demo-1';

export interface ShowInfo {
  id: number;
  universalId: string;
  slug: string;
  price: number;
  factor: number;
  providerId: number;
}

export async function showInfo(id: number): Promise<ShowInfo> {
  const r = await env.DB.prepare('SELECT id, universal_id, slug_name, price_per_minute, price_factor_exclusive, contentprovider_id FROM shows WHERE id = ?')
    .bind(id)
    .first<{ id: number; universal_id: string; slug_name: string; price_per_minute: number; price_factor_exclusive: number; contentprovider_id: number }>();
  if (!r) throw new Error(`no show ${id}`);
  return { id: r.id, universalId: r.universal_id, slug: r.slug_name, price: r.price_per_minute, factor: r.price_factor_exclusive, providerId: r.contentprovider_id };
}

/** Puts a show into a known state straight in D1 (no room involved): offline, every type open. */
export async function resetShow(id: number, fields: { flag_free?: number; flag_exclusive?: number; price?: number } = {}): Promise<ShowInfo> {
  await env.DB.prepare(
    `UPDATE shows SET online = 0, paused = 0, open_free = 1, open_private = 1, open_exclusive = 1, open_voyeur = 1,
       flag_free = ?, flag_exclusive = ?, price_per_minute = COALESCE(?, price_per_minute) WHERE id = ?`,
  )
    .bind(fields.flag_free ?? 1, fields.flag_exclusive ?? 1, fields.price ?? null, id)
    .run();
  return showInfo(id);
}

/** The demo performer of a show, logged in on its own client. */
export async function performerOf(showId: number): Promise<Client> {
  const { slug } = await showInfo(showId);
  const client = new Client();
  const res = await client.login(slug, PERFORMER_PASSWORD);
  expect(res.status, await res.clone().text()).toBe(200);
  return client;
}

/** A verified, age-checked member with coins and a nickname. */
export async function chatMember(coins = 1000, opts: { ageVerified?: boolean; verified?: boolean } = {}): Promise<Member & { nick: string }> {
  const m = await registerMember({ verified: opts.verified ?? true });
  await env.DB.prepare('UPDATE users SET age_verified = ? WHERE id = ?').bind(opts.ageVerified === false ? 0 : 1, m.id).run();
  const nick = `n${m.name.slice(1, 12)}`;
  const row = await env.DB.prepare('INSERT INTO nicknames (user_id, nickname, created_at) VALUES (?, ?, 0) RETURNING id').bind(m.id, nick).first<{ id: number }>();
  await env.DB.prepare('UPDATE users SET current_nickname_id = ? WHERE id = ?').bind(row!.id, m.id).run();
  if (coins > 0) await addCoins(m.id, coins);
  return { ...m, nick };
}

export async function addCoins(userId: number, amount: number): Promise<void> {
  const res = await req(`/api/ops/users/${userId}/coins`, { method: 'POST', headers: OPS, body: JSON.stringify({ amount, ref: `chat-test-${userId}-${crypto.randomUUID()}` }) });
  expect(res.status).toBe(200);
}

/** Takes a member's coins away (an operator's adjustment): false when a charge got in between and it would overdraw. */
export async function drainCoins(userId: number): Promise<boolean> {
  const coins = await coinsOf(userId);
  if (coins === 0) return true;
  const res = await req(`/api/ops/users/${userId}/coins`, { method: 'POST', headers: OPS, body: JSON.stringify({ amount: -coins, ref: `chat-test-drain-${crypto.randomUUID()}` }) });
  return res.status === 200;
}

export async function coinsOf(userId: number): Promise<number> {
  return (await env.DB.prepare('SELECT coins FROM users WHERE id = ?').bind(userId).first<{ coins: number }>())!.coins;
}

export async function startChat(client: Client, universalId: string, type: string, nickname?: string): Promise<Response> {
  return client.post(`/api/chatsession/${universalId}`, { type, ...(nickname !== undefined ? { nickname } : {}) });
}

export async function startOk(client: Client, universalId: string, type: string, nickname?: string): Promise<ChatSessionAnswer> {
  return expectJson<ChatSessionAnswer>(await startChat(client, universalId, type, nickname), 200);
}

export interface RoomSocket {
  showId: number;
  ws: WebSocket;
  events: RoomEvent[];
  /** The next event passing `match` (taken from the queue), within 5 s. */
  next: <T extends RoomEvent['t']>(t: T, match?: (e: Extract<RoomEvent, { t: T }>) => boolean) => Promise<Extract<RoomEvent, { t: T }>>;
  send: (cmd: unknown) => void;
  closed: Promise<number>;
  /** Resolves once every frame this socket sent before has been handled (pinged()). */
  barrier: () => Promise<void>;
}

export function openRoom(showId: number, login: string, password: string, headers: Record<string, string> = {}): Promise<Response> {
  const q = new URLSearchParams({ login, password });
  return websocket(`/api/chatroom/${showId}?${q}`, headers);
}

export async function joinRoom(showId: number, login: string, password: string): Promise<RoomSocket> {
  const res = await openRoom(showId, login, password);
  if (res.status !== 101) throw new Error(`room join answered ${res.status}: ${await res.text()}`);
  return roomSocket(res.webSocket!, showId, login);
}

/** An upgraded socket of show `showId`'s room (a session's, the performer's or an operator's watch), accepted, with its event queue. */
export function roomSocket(ws: WebSocket, showId: number, login: string): RoomSocket {
  ws.accept();
  const events: RoomEvent[] = [];
  const waiters: { t: string; match: (e: RoomEvent) => boolean; resolve: (e: RoomEvent) => void }[] = [];
  let closedResolve: (code: number) => void = () => undefined;
  const closed = new Promise<number>((r) => (closedResolve = r));
  const barriers: (() => void)[] = [];
  ws.addEventListener('close', (e) => closedResolve(e.code));
  ws.addEventListener('message', (m) => {
    const got: RoomEvent[] = m.data === 'pong' ? [{ t: 'error', code: 'pong' }] : parseRoomEvents(m.data)!;
    for (const e of got) {
      if (barriers.length && e.t === 'error' && e.code === 'chat.forbidden') {
        barriers.shift()!();
        continue;
      }
      const w = waiters.findIndex((x) => x.t === e.t && x.match(e));
      if (w >= 0) waiters.splice(w, 1)[0].resolve(e);
      else events.push(e);
    }
  });
  const next = ((t: string, match: (e: RoomEvent) => boolean = () => true) =>
    new Promise<RoomEvent>((resolve, reject) => {
      const i = events.findIndex((e) => e.t === t && match(e));
      if (i >= 0) return resolve(events.splice(i, 1)[0]);
      waiters.push({ t, match, resolve });
      setTimeout(() => reject(new Error(`no ${t} event within 5 s; queued: ${JSON.stringify(events).slice(0, 800)}`)), 5000);
    })) as RoomSocket['next'];
  const send = (cmd: unknown) => ws.send(typeof cmd === 'string' ? cmd : JSON.stringify(cmd));
  // The performer's frames are handled by the room: its queue drained, then a ping (answered by the
  // runtime) has passed them. A viewer's go through its shard to the room: a command a viewer may
  // not give comes back refused through both, after the frames before it.
  const barrier = async () => {
    if (login === 'performer') {
      await runInDurableObject(roomOf(env, showId), () => undefined);
      send('ping');
      await next('error', (e) => e.code === 'pong');
      return;
    }
    const done = new Promise<void>((resolve) => barriers.push(resolve));
    send({ t: 'mute', sessionId: 'barrier-frame' });
    await done;
  };
  return { showId, ws, events, next, send, closed, barrier };
}

/** A room socket that has been welcomed (a viewer with the login of a started session). */
export async function viewer(showId: number, a: { login: string; password: string }): Promise<RoomSocket> {
  const room = await joinRoom(showId, a.login, a.password);
  await room.next('welcome');
  return room;
}

/**
 * The frames this socket sent before have been handled, and what the room sent this socket for
 * them has arrived (RoomSocket.barrier).
 */
export function pinged(room: RoomSocket): Promise<void> {
  return room.barrier();
}

/** A show online with its performer in the studio socket. */
export async function liveShow(showId: number, fields: Parameters<typeof resetShow>[1] = {}): Promise<{ show: ShowInfo; performer: Client; studio: RoomSocket }> {
  const show = await resetShow(showId, fields);
  const performer = await performerOf(showId);
  await expectJson(await performer.post('/api/studio/status', { online: true }), 200);
  const token = await expectJson<{ login: string; password: string }>(await performer.post('/api/studio/connect'), 200);
  const studio = await joinRoom(showId, token.login, token.password);
  await studio.next('welcome');
  return { show, performer, studio };
}

export async function sessionRow(id: string): Promise<Record<string, unknown> | null> {
  return env.DB.prepare('SELECT * FROM chat_sessions WHERE id = ?').bind(id).first();
}

/** The references of charges (the house's second leg of a double-entry charge, `ref:house`, left out). */
export async function ledgerRefs(prefix: string): Promise<string[]> {
  const { results } = await env.DB.prepare("SELECT DISTINCT ref FROM ledger WHERE ref LIKE ? AND ref NOT LIKE '%:house' ORDER BY ref").bind(`${prefix}%`).all<{ ref: string }>();
  return results.map((r) => r.ref);
}
