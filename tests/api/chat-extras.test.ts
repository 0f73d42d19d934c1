import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { demoRatingVotes } from '../../src/server/seed/store-rows';
import { TIP_AMOUNTS } from '../../src/shared/chat';
import { Client, expectError, expectJson } from './helpers';
import { chatMember, coinsOf, joinRoom, ledgerRefs, liveShow, sessionRow, startOk } from './chat-helpers';

// Tips, ratings and the chat history (shows 191-210).

describe('tips', () => {
  it('a member tips in their running session: ledger row, tip event in the room, coins answered', async () => {
    const { show, studio } = await liveShow(191);
    const m = await chatMember(1000);
    const s = await startOk(m.client, show.universalId, 'free');
    const viewer = await startOk(new Client(), show.universalId, 'free');
    const vRoom = await joinRoom(show.id, viewer.login, viewer.password);
    await vRoom.next('welcome');
    const res = await expectJson<{ coins: number; tip: number }>(await m.client.post(`/api/chatsession/tip/${s.sessionId}`, { coins: TIP_AMOUNTS[1] }), 200);
    expect(res).toEqual({ coins: 1000 - TIP_AMOUNTS[1], tip: TIP_AMOUNTS[1] });
    expect(await studio.next('tip')).toMatchObject({ t: 'tip', from: s.sessionId, nick: m.nick, coins: TIP_AMOUNTS[1] });
    expect((await vRoom.next('tip')).coins).toBe(TIP_AMOUNTS[1]);
    expect((await ledgerRefs(`tip:${s.sessionId}:`)).length).toBe(1);
    expect((await sessionRow(s.sessionId))!.tips).toBe(TIP_AMOUNTS[1]);
    // A retried tip with the same key is booked once.
    await expectJson(await m.client.post(`/api/chatsession/tip/${s.sessionId}`, { coins: 7, key: 'once' }), 200);
    await expectJson(await m.client.post(`/api/chatsession/tip/${s.sessionId}`, { coins: 7, key: 'once' }), 200);
    expect(await coinsOf(m.id)).toBe(1000 - TIP_AMOUNTS[1] - 7);
    vRoom.ws.close(1000);
    studio.ws.close(1000);
  });

  it('refuses guests, other members, bad amounts, missing coins, ended sessions and voice-call mode', async () => {
    const { show, studio } = await liveShow(192);
    const m = await chatMember(20);
    const s = await startOk(m.client, show.universalId, 'free');
    const guest = new Client();
    const g = await startOk(guest, show.universalId, 'free');
    await expectError(await guest.post(`/api/chatsession/tip/${g.sessionId}`, { coins: 5 }), 401, 'unauthenticated');
    const other = await chatMember(1000);
    await expectError(await other.client.post(`/api/chatsession/tip/${s.sessionId}`, { coins: 5 }), 404, 'not_found');
    for (const coins of [0, -5, 2.5, 100_001, '5']) await expectError(await m.client.post(`/api/chatsession/tip/${s.sessionId}`, { coins }), 422, 'validation_failed', ['coins', 'tip_invalid']);
    await expectError(await m.client.post(`/api/chatsession/tip/${s.sessionId}`, { coins: 25 }), 422, 'chat.no_coins', ['coins', 'chat.no_coins']);
    expect(await coinsOf(m.id)).toBe(20);
    await env.DB.prepare('UPDATE sessions SET voicecall = 1 WHERE id = (SELECT session_id FROM auth_tokens WHERE user_id = ? ORDER BY created_at DESC LIMIT 1)').bind(m.id).run();
    await expectError(await m.client.post(`/api/chatsession/tip/${s.sessionId}`, { coins: 5 }), 422, 'chat.tip_not_available', ['coins', 'chat.tip_not_available']);
    await env.DB.prepare('UPDATE sessions SET voicecall = 0 WHERE id = (SELECT session_id FROM auth_tokens WHERE user_id = ? ORDER BY created_at DESC LIMIT 1)').bind(m.id).run();
    await expectJson(await m.client.post(`/api/chatsession/end/${s.sessionId}`), 200);
    await expectError(await m.client.post(`/api/chatsession/tip/${s.sessionId}`, { coins: 5 }), 422, 'chat.session_not_active', ['sessionId', 'chat.session_not_active']);
    expect(await coinsOf(m.id)).toBe(20);
    studio.ws.close(1000);
  });
});

describe('ratings and history', () => {
  it('after an ended private a rating is due once; it updates the show rating; a second one is 409', async () => {
    const { show, studio } = await liveShow(193);
    await env.DB.prepare('UPDATE shows SET rating = 50, rating_count = 1 WHERE id = ?').bind(show.id).run();
    const m = await chatMember();
    const check = () => m.client.post(`/api/chatsession/check_rating/${show.universalId}`);
    expect(await expectJson(await check(), 200)).toEqual({ rating: false, sessionId: null, contentProviderId: show.providerId, showId: show.id });
    const s = await startOk(m.client, show.universalId, 'private');
    studio.send({ t: 'accept', sessionId: s.sessionId });
    await studio.next('session', (e) => e.session.sessionId === s.sessionId && e.session.minutes === 1);
    await expectJson(await m.client.post(`/api/chatsession/end/${s.sessionId}`), 200);
    expect(await expectJson(await check(), 200)).toEqual({ rating: true, sessionId: s.sessionId, contentProviderId: show.providerId, showId: show.id });
    const path = `/api/chatsession/rate_chat/${show.providerId}-${show.id}/${s.sessionId}`;
    const other = await chatMember();
    await expectError(await other.client.post(path, { rating: 90 }), 404, 'not_found');
    await expectError(await new Client().post(path, { rating: 90 }), 401, 'unauthenticated');
    await expectError(await m.client.post(`/api/chatsession/rate_chat/${show.providerId}-${show.id + 1}/${s.sessionId}`, { rating: 90 }), 404, 'not_found');
    for (const rating of [0, 101, 5.5, 'good']) await expectError(await m.client.post(path, { rating }), 422, 'validation_failed', ['rating', 'rating_invalid']);
    expect(await expectJson(await m.client.post(path, { rating: 90, comment: 'Nice chat' }), 200)).toEqual({ ok: true, showRating: 70 });
    await expectError(await m.client.post(path, { rating: 10 }), 409, 'chat.already_rated');
    expect((await expectJson<{ rating: boolean }>(await check(), 200)).rating).toBe(false);
    expect(await sessionRow(s.sessionId)).toMatchObject({ rating: 90, rating_comment: 'Nice chat' });
    studio.ws.close(1000);
  });

  it('parallel ratings of one session count once; a free session is not rateable', async () => {
    const { show, studio } = await liveShow(194);
    const m = await chatMember();
    const s = await startOk(m.client, show.universalId, 'private');
    studio.send({ t: 'accept', sessionId: s.sessionId });
    await studio.next('session', (e) => e.session.sessionId === s.sessionId && e.session.minutes === 1);
    await expectJson(await m.client.post(`/api/chatsession/end/${s.sessionId}`), 200);
    const before = (await env.DB.prepare('SELECT rating_count FROM shows WHERE id = ?').bind(show.id).first<{ rating_count: number }>())!.rating_count;
    const path = `/api/chatsession/rate_chat/${show.providerId}-${show.id}/${s.sessionId}`;
    const results = await Promise.all(Array.from({ length: 20 }, () => m.client.post(path, { rating: 80 })));
    expect(results.filter((r) => r.status === 200).length).toBe(1);
    expect(results.filter((r) => r.status === 409).length).toBe(19);
    expect((await env.DB.prepare('SELECT rating_count FROM shows WHERE id = ?').bind(show.id).first<{ rating_count: number }>())!.rating_count).toBe(before + 1);
    const f = await startOk(m.client, show.universalId, 'free');
    await expectJson(await m.client.post(`/api/chatsession/end/${f.sessionId}`), 200);
    await expectError(await m.client.post(`/api/chatsession/rate_chat/${show.providerId}-${show.id}/${f.sessionId}`, { rating: 80 }), 422, 'chat.rating_not_due', ['rating', 'chat.rating_not_due']);
    studio.ws.close(1000);
  });

  it('a seeded rating counts as its votes: one rating of 40 moves a 100% show by its weight, not to 40% (issue 24)', async () => {
    const { show, studio } = await liveShow(196);
    const seeded = (await env.DB.prepare('SELECT rating_count FROM shows WHERE id = ?').bind(show.id).first<{ rating_count: number }>())!.rating_count;
    expect(seeded).toBe(demoRatingVotes('show', show.id));
    expect(seeded).toBeGreaterThanOrEqual(5);
    await env.DB.prepare('UPDATE shows SET rating = 100 WHERE id = ?').bind(show.id).run();
    const rate = async (rating: number): Promise<number> => {
      const m = await chatMember();
      const s = await startOk(m.client, show.universalId, 'private');
      studio.send({ t: 'accept', sessionId: s.sessionId });
      await studio.next('session', (e) => e.session.sessionId === s.sessionId && e.session.minutes === 1);
      await expectJson(await m.client.post(`/api/chatsession/end/${s.sessionId}`), 200);
      const path = `/api/chatsession/rate_chat/${show.providerId}-${show.id}/${s.sessionId}`;
      return (await expectJson<{ showRating: number }>(await m.client.post(path, { rating }), 200)).showRating;
    };
    // 4 of 10 stars: the mean of `seeded` votes of 100 and one of 40.
    const first = await rate(40);
    expect(first).toBe(Math.round((100 * seeded + 40) / (seeded + 1)));
    expect(first).toBeGreaterThan(90);
    const second = await rate(100);
    expect(second).toBe(Math.round((first * (seeded + 1) + 100) / (seeded + 2)));
    expect(await env.DB.prepare('SELECT rating, rating_count FROM shows WHERE id = ?').bind(show.id).first()).toEqual({ rating: second, rating_count: seeded + 2 });
    studio.ws.close(1000);
  });

  it('migration 0022 gives the ratings of shows seeded earlier (no votes counted) their weight, and leaves rated shows alone', async () => {
    const migration = env.TEST_MIGRATIONS.find((m) => m.name.startsWith('0022_'));
    expect(migration).toBeDefined();
    await env.DB.batch([
      env.DB.prepare('UPDATE shows SET rating = 80, rating_count = 0 WHERE id = 197'),
      env.DB.prepare('UPDATE shows SET rating = 70, rating_count = 3 WHERE id = 198'),
      env.DB.prepare('UPDATE shows SET rating = 0, rating_count = 0 WHERE id = 199'),
    ]);
    for (const sql of migration!.queries) await env.DB.prepare(sql).run();
    const row = (id: number) => env.DB.prepare('SELECT rating, rating_count FROM shows WHERE id = ?').bind(id).first();
    expect(await row(197)).toEqual({ rating: 80, rating_count: demoRatingVotes('show', 197) });
    expect(await row(198)).toEqual({ rating: 70, rating_count: 3 });
    expect(await row(199)).toEqual({ rating: 0, rating_count: 0 });
  });

  it("GET /api/user/chathistory lists the member's own sessions; guests get none", async () => {
    const { show, studio } = await liveShow(195);
    const m = await chatMember();
    const s = await startOk(m.client, show.universalId, 'free');
    await expectJson(await m.client.post(`/api/chatsession/end/${s.sessionId}`), 200);
    await startOk((await chatMember()).client, show.universalId, 'free');
    const h = await expectJson<{ data: Record<string, unknown>[] }>(await m.client.get('/api/user/chathistory'), 200);
    expect(h.data.length).toBe(1);
    expect(h.data[0]).toMatchObject({ sessionId: s.sessionId, showId: show.id, universalId: show.universalId, type: 'free', minutes: 1, coins: 0 });
    const guest = new Client();
    await startOk(guest, show.universalId, 'free');
    expect(await expectJson(await guest.get('/api/user/chathistory'), 200)).toEqual({ data: [] });
    studio.ws.close(1000);
  });
});
