import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import type { Counts, SendAnswer } from '../../src/shared/messages';
import { parseEvent, type RealtimeEvent } from '../../src/shared/realtime';
import { type Member } from './account-helpers';
import { Client, expectJson, uniqueIp, websocket } from './helpers';
import { chatMember } from './chat-helpers';
import { operator } from './operator-helpers';

// Helpers of the conversation tests (issue 14): members with coins and a nickname, the demo
// operator, sending, and a realtime socket that collects user:mc.


export type Writer = Member & { nick: string; nickId: number };

export async function writer(coins = 0): Promise<Writer> {
  const m = await chatMember(coins);
  const row = await env.DB.prepare('SELECT id FROM nicknames WHERE user_id = ?').bind(m.id).first<{ id: number }>();
  return { ...m, nickId: row!.id };
}

/** An operator (a new one, with the second factor in this login: operator-helpers.ts). */
export async function operatorClient(): Promise<Client> {
  return (await operator()).client;
}

export function sendShow(m: { client: Client }, body: Record<string, unknown>): Promise<Response> {
  return m.client.post('/api/conversations/show', body);
}

export async function sendOk(m: { client: Client }, showid: number, text = 'Hello there', extra: Record<string, unknown> = {}): Promise<SendAnswer> {
  return expectJson<SendAnswer>(await sendShow(m, { body: text, showid, pseudoid: 0, ...extra }), 200);
}

export async function countsOf(m: { client: Client }): Promise<Counts> {
  return expectJson<Counts>(await m.client.get('/api/conversations/count'), 200);
}

/** A reply of the show's performer to a conversation, through the studio inbox. */
export async function reply(performer: Client, conversationId: number, text = 'Thanks for writing'): Promise<Response> {
  return performer.post(`/api/studio/conversations/${conversationId}/reply`, { body: text });
}

export interface Socket {
  ws: WebSocket;
  /** The next user:mc event (optionally of one side), within 3 s. */
  nextMc: (side?: 'studio' | 'support') => Promise<{ count: number; side?: string }>;
  close: () => void;
}

export async function lobbySocket(client: Client): Promise<Socket> {
  const res = await websocket('/api/realtime', { Cookie: client.cookieHeader, 'CF-Connecting-IP': uniqueIp() });
  expect(res.status).toBe(101);
  const ws = res.webSocket!;
  ws.accept();
  const queue: RealtimeEvent[] = [];
  const waiters: { side: string | undefined; resolve: (e: { count: number; side?: string }) => void }[] = [];
  ws.addEventListener('message', (m) => {
    const e = parseEvent(m.data);
    if (!e || e.type !== 'user:mc') return;
    const w = waiters.findIndex((x) => x.side === e.side);
    if (w >= 0) waiters.splice(w, 1)[0].resolve(e);
    else queue.push(e);
  });
  const nextMc = (side?: 'studio' | 'support') =>
    new Promise<{ count: number; side?: string }>((resolve, reject) => {
      const i = queue.findIndex((e) => e.type === 'user:mc' && e.side === side);
      if (i >= 0) return resolve(queue.splice(i, 1)[0] as { count: number; side?: string });
      waiters.push({ side, resolve });
      setTimeout(() => reject(new Error('no user:mc within 3 s')), 3000);
    });
  return { ws, nextMc, close: () => ws.close(1000) };
}
