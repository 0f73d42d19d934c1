import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { performerPart } from '../../src/server/lib/ledger.repo';
import { parseEvent, type RealtimeEvent } from '../../src/shared/realtime';
import type { User } from '../../src/shared/session';
import { Client, expectError, expectJson, uniqueIp, websocket } from './helpers';
import { chatMember, joinRoom, liveShow, openRoom, performerOf, PERFORMER_PASSWORD, resetShow, showInfo, startOk } from './chat-helpers';

// The performer's studio API (shows 211-230): who may use it, status switches pushed as
// show:bulkupdate, paid sessions ended by offline/pause, and going offline by itself.

async function lobby(): Promise<{ ws: WebSocket; next: (match: (e: RealtimeEvent) => boolean) => Promise<RealtimeEvent> }> {
  const res = await websocket('/api/realtime', { 'CF-Connecting-IP': uniqueIp() });
  expect(res.status).toBe(101);
  const ws = res.webSocket!;
  ws.accept();
  const seen: RealtimeEvent[] = [];
  const waiters: { match: (e: RealtimeEvent) => boolean; resolve: (e: RealtimeEvent) => void }[] = [];
  ws.addEventListener('message', (m) => {
    const e = parseEvent(m.data);
    if (!e) return;
    const w = waiters.findIndex((x) => x.match(e));
    if (w >= 0) waiters.splice(w, 1)[0].resolve(e);
    else seen.push(e);
  });
  const next = (match: (e: RealtimeEvent) => boolean) =>
    new Promise<RealtimeEvent>((resolve, reject) => {
      const hit = seen.find(match);
      if (hit) return resolve(hit);
      waiters.push({ match, resolve });
      setTimeout(() => reject(new Error('no matching lobby event within 8 s')), 8000);
    });
  return { ws, next };
}

const bulk = (id: number, online: boolean) => (e: RealtimeEvent) => e.type === 'show:bulkupdate' && e.data.some((d) => d.id === id && d.online === online);

describe('studio', () => {
  it('is for performers only: 401 logged out, 403 not_performer for other members', async () => {
    const guest = new Client();
    await expectError(await guest.get('/api/studio'), 401, 'unauthenticated');
    await expectError(await guest.post('/api/studio/status', { online: true }), 401, 'unauthenticated');
    await expectError(await guest.post('/api/studio/connect'), 401, 'unauthenticated');
    const m = await chatMember();
    await expectError(await m.client.get('/api/studio'), 403, 'not_performer');
    await expectError(await m.client.post('/api/studio/status', { online: true }), 403, 'not_performer');
    await expectError(await m.client.post('/api/studio/connect'), 403, 'not_performer');
  });

  it("every demo show has a performer whose session user names the show; GET /api/studio answers the show and status", async () => {
    const { n } = (await env.DB.prepare('SELECT COUNT(*) AS n FROM shows s LEFT JOIN performers p ON p.show_id = s.id WHERE p.user_id IS NULL').first<{ n: number }>())!;
    expect(n).toBe(0);
    const show = await resetShow(211, { flag_free: 1, flag_exclusive: 1 });
    const p = await performerOf(211);
    const me = await expectJson<{ user: User }>(await p.get('/api/auth/user'), 200);
    expect(me.user.performer_show).toBe(211);
    const m = await chatMember();
    expect((await expectJson<{ user: User }>(await m.client.get('/api/auth/user'), 200)).user.performer_show).toBeNull();
    const studio = await expectJson<Record<string, unknown>>(await p.get('/api/studio'), 200);
    expect(studio).toEqual({
      show: { id: 211, name: expect.any(String), universalId: show.universalId, slugName: show.slug, pricePerMinute: show.price, priceFactorExclusive: show.factor, flags: { free: true, exclusive: 1 } },
      status: { online: false, paused: false, open: { free: true, private: true, exclusive: true, voyeur: true } },
      earnings: { today: 0, statement: [] },
      // No operator stopped the show (issue 29).
      stop: null,
    });
    // The password is the documented one; a wrong one is refused.
    expect((await new Client().login(show.slug, `${PERFORMER_PASSWORD}x`)).status).toBe(401);
  });

  it('going online and offline is pushed as show:bulkupdate; switches are validated', async () => {
    await resetShow(212);
    const p = await performerOf(212);
    const l = await lobby();
    expect(await expectJson(await p.post('/api/studio/status', { online: true }), 200)).toEqual({ status: { online: true, paused: false, open: { free: true, private: true, exclusive: true, voyeur: true } } });
    await l.next(bulk(212, true));
    expect((await expectJson<{ data: number[] }>(await p.get('/api/shows/online'), 200)).data).toContain(212);
    await expectJson(await p.post('/api/studio/status', { online: false, open: { voyeur: false } }), 200);
    await l.next(bulk(212, false));
    expect((await expectJson<{ status: { open: { voyeur: boolean } } }>(await p.get('/api/studio'), 200)).status.open.voyeur).toBe(false);
    for (const body of [{ online: 'yes' }, { paused: 1 }, { open: { vip: true } }, { extra: true }, { open: { free: 'no' } }]) {
      await expectError(await p.post('/api/studio/status', body), 422, 'validation_failed');
    }
    l.ws.close(1000);
  });

  it('going offline or pausing ends the paid sessions in the room', async () => {
    const { show, performer, studio } = await liveShow(213);
    const m = await chatMember();
    const s = await startOk(m.client, show.universalId, 'private');
    studio.send({ t: 'accept', sessionId: s.sessionId });
    await studio.next('session', (e) => e.session.sessionId === s.sessionId && e.session.minutes === 1);
    // Today's earnings and the statement: the performer's share of minute 1 (double-entry ledger).
    const studioNow = await expectJson<{ earnings: { today: number; statement: { ref: string; reason: string; amount: number }[] } }>(await performer.get('/api/studio'), 200);
    expect(studioNow.earnings.statement).toContainEqual(expect.objectContaining({ ref: `chat:${s.sessionId}:1`, reason: 'chat', amount: performerPart(show.price) }));
    expect(studioNow.earnings.today).toBeGreaterThanOrEqual(performerPart(show.price));
    const free = await startOk(new Client(), show.universalId, 'free');
    await expectJson(await performer.post('/api/studio/status', { paused: true }), 200);
    expect((await studio.next('ended', (e) => e.sessionId === s.sessionId)).reason).toBe('offline');
    // Pausing keeps free chatters; offline ends everyone.
    expect(studio.events.some((e) => e.t === 'ended' && e.sessionId === free.sessionId)).toBe(false);
    await expectJson(await performer.post('/api/studio/status', { online: false }), 200);
    expect((await studio.next('ended', (e) => e.sessionId === free.sessionId)).reason).toBe('offline');
    studio.ws.close(1000);
  });

  it('a performer whose studio socket is gone for the grace period goes offline by itself, ending paid sessions', async () => {
    const { show, studio } = await liveShow(214);
    const l = await lobby();
    const m = await chatMember();
    const s = await startOk(m.client, show.universalId, 'private');
    const member = await joinRoom(show.id, s.login, s.password);
    await member.next('welcome');
    studio.send({ t: 'accept', sessionId: s.sessionId });
    await member.next('session', (e) => e.session.minutes >= 1);
    studio.ws.close(1000);
    expect((await member.next('ended')).reason).toBe('offline');
    await l.next(bulk(show.id, false));
    expect((await showInfo(show.id)).id).toBe(show.id);
    expect((await env.DB.prepare('SELECT online FROM shows WHERE id = ?').bind(show.id).first<{ online: number }>())!.online).toBe(0);
    l.ws.close(1000);
  }, 15_000);

  it('a performer token stops opening the room once the account is no longer the show performer', async () => {
    await resetShow(215);
    const p = await performerOf(215);
    const t = await expectJson<{ login: string; password: string; buddyaddr: string; realm: string }>(await p.post('/api/studio/connect'), 200);
    expect(t).toMatchObject({ login: 'performer', buddyaddr: 'performer', realm: 'ws://localhost/api/chatroom/215' });
    const userId = (await env.DB.prepare('SELECT user_id FROM performers WHERE show_id = 215').first<{ user_id: number }>())!.user_id;
    await env.DB.prepare('DELETE FROM performers WHERE show_id = 215').run();
    await expectError(await openRoom(215, t.login, t.password), 401, 'chat.bad_token');
    await env.DB.prepare('INSERT INTO performers (user_id, show_id, created_at) VALUES (?, 215, 0)').bind(userId).run();
    expect((await openRoom(215, t.login, t.password)).status).toBe(101);
  });
});
