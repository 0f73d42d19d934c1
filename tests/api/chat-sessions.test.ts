import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { ChatSessionAnswer } from '../../src/shared/chat';
import { minutePrice } from '../../src/shared/chat';
import { GUEST_SESSIONS_PER_ADDRESS } from '../../src/server/features/chat/chatsession.routes';
import { Client, expectError, expectJson, uniqueIp } from './helpers';
import { chatMember, joinRoom, liveShow, resetShow, sessionRow, startChat, startOk } from './chat-helpers';

// POST /api/chatsession/{universalId}: the spec's rules and every catalogue code (shows 101-130).

const refusal = (res: Response, code: string) => expectError(res, 422, code, ['type', code]);

describe('chat sessions: start', () => {
  it('a guest joins free chat as guest (or a temporary nickname) and gets a room token for this show', async () => {
    const { show, studio } = await liveShow(101);
    const guest = new Client();
    const a = await startOk(guest, show.universalId, 'free');
    expect(a).toMatchObject({ login: a.sessionId, buddyaddr: 'performer', session_type: 'free', showId: show.id, contentProviderId: show.providerId, price: 0, minute_ms: 1000, nickname: 'guest' });
    expect(a.realm).toBe(`ws://localhost/api/chatroom/${show.id}`);
    expect(a.password.split('.').length).toBe(3);
    const b = await startOk(new Client(), show.universalId, 'free', 'Visitor_7');
    expect(b.nickname).toBe('Visitor_7');
    // An invalid temporary nickname falls back to guest.
    expect((await startOk(new Client(), show.universalId, 'free', '<b>x</b>')).nickname).toBe('guest');
    expect(await sessionRow(a.sessionId)).toMatchObject({ show_id: show.id, user_id: null, type: 'free', state: 'active', nick: 'guest' });
    studio.ws.close(1000);
  });

  it('a guest asking for a paid type gets 401 (the client sends them to sign-up)', async () => {
    const { show, studio } = await liveShow(102);
    for (const type of ['private', 'exclusive', 'voyeur']) await expectError(await startChat(new Client(), show.universalId, type), 401, 'unauthenticated');
    studio.ws.close(1000);
  });

  it('refuses unknown types with chat.invalid_session_type and unknown shows with 404', async () => {
    const { show, studio } = await liveShow(103);
    const m = await chatMember();
    for (const type of ['vip', '', 'PRIVATE', 7, null]) await refusal(await startChat(m.client, show.universalId, type as string), 'chat.invalid_session_type');
    await refusal(await m.client.post(`/api/chatsession/${show.universalId}`, {}), 'chat.invalid_session_type');
    await expectError(await startChat(m.client, 'no-such-show', 'free'), 404, 'not_found');
    studio.ws.close(1000);
  });

  it('members need a verified e-mail (chat.not_verfified) and, for paid types, the age check (chat.no_avs)', async () => {
    const { show, studio } = await liveShow(104);
    const unverified = await chatMember(1000, { verified: false });
    await refusal(await startChat(unverified.client, show.universalId, 'free'), 'chat.not_verfified');
    await refusal(await startChat(unverified.client, show.universalId, 'private'), 'chat.not_verfified');
    const noAge = await chatMember(1000, { ageVerified: false });
    await refusal(await startChat(noAge.client, show.universalId, 'private'), 'chat.no_avs');
    await refusal(await startChat(noAge.client, show.universalId, 'voyeur'), 'chat.no_avs');
    // Free chat needs no age check; a session that passed the check counts like the account.
    expect((await startOk(noAge.client, show.universalId, 'free')).session_type).toBe('free');
    await env.DB.prepare("UPDATE sessions SET agechecked = 1 WHERE id = (SELECT session_id FROM auth_tokens WHERE user_id = ? ORDER BY created_at DESC LIMIT 1)").bind(noAge.id).run();
    expect((await startOk(noAge.client, show.universalId, 'private')).session_type).toBe('private');
    studio.ws.close(1000);
  });

  it('answers the show state codes: offline, paused, and each closed type', async () => {
    const show = await resetShow(105, { flag_free: 1, flag_exclusive: 1 });
    const m = await chatMember();
    await refusal(await startChat(m.client, show.universalId, 'free'), 'chat.show_not_available');
    const { performer, studio } = await liveShow(105);
    await expectJson(await performer.post('/api/studio/status', { paused: true }), 200);
    await refusal(await startChat(m.client, show.universalId, 'private'), 'chat.show_paused');
    await expectJson(await performer.post('/api/studio/status', { paused: false, open: { free: false, private: false, exclusive: false, voyeur: false } }), 200);
    await refusal(await startChat(m.client, show.universalId, 'free'), 'chat.show_not_available_free');
    await refusal(await startChat(m.client, show.universalId, 'private'), 'chat.show_not_available_private');
    await refusal(await startChat(m.client, show.universalId, 'exclusive'), 'chat.show_not_available_exclusive');
    await refusal(await startChat(m.client, show.universalId, 'voyeur'), 'chat.show_not_available_voyeur');
    studio.ws.close(1000);
  });

  it('a show without free mode or exclusive mode refuses those types', async () => {
    const { show, studio } = await liveShow(106, { flag_free: 0, flag_exclusive: 0 });
    const m = await chatMember();
    await refusal(await startChat(m.client, show.universalId, 'free'), 'chat.show_not_available_free');
    await refusal(await startChat(m.client, show.universalId, 'exclusive'), 'chat.show_not_available_exclusive');
    studio.ws.close(1000);
  });

  it('a private request becomes exclusive when the show allows only exclusive, at the exclusive price', async () => {
    const { show, studio } = await liveShow(107, { flag_exclusive: 2 });
    const m = await chatMember();
    const a = await startOk(m.client, show.universalId, 'private');
    expect(a.session_type).toBe('exclusive');
    expect(a.price).toBe(minutePrice('exclusive', show.price, show.factor));
    expect((await studio.next('request')).session).toMatchObject({ sessionId: a.sessionId, type: 'exclusive', state: 'pending' });
    studio.ws.close(1000);
  });

  it('chat.no_coins when the balance does not cover the first minute (exactly one minute passes)', async () => {
    const { show, studio } = await liveShow(108);
    const poor = await chatMember(show.price - 1);
    await refusal(await startChat(poor.client, show.universalId, 'private'), 'chat.no_coins');
    const exact = await chatMember(show.price);
    expect((await startOk(exact.client, show.universalId, 'private')).price).toBe(show.price);
    studio.ws.close(1000);
  });

  it('a show in private refuses another private (chat.show_not_available_private); in exclusive also voyeurs', async () => {
    const { show, studio } = await liveShow(109);
    const first = await chatMember();
    await startOk(first.client, show.universalId, 'private');
    const second = await chatMember();
    await refusal(await startChat(second.client, show.universalId, 'private'), 'chat.show_not_available_private');
    await refusal(await startChat(second.client, show.universalId, 'exclusive'), 'chat.show_not_available_private');
    // A voyeur may watch a private.
    expect((await startOk(second.client, show.universalId, 'voyeur')).session_type).toBe('voyeur');
    studio.ws.close(1000);
  });

  it('a show in exclusive refuses private (chat.show_not_available_exclusive_in_use) and voyeurs', async () => {
    const ex = await liveShow(110);
    const a = await chatMember();
    await startOk(a.client, ex.show.universalId, 'exclusive');
    const b = await chatMember();
    await refusal(await startChat(b.client, ex.show.universalId, 'private'), 'chat.show_not_available_exclusive_in_use');
    await refusal(await startChat(b.client, ex.show.universalId, 'voyeur'), 'chat.show_not_available_exclusive_in_use');
    ex.studio.ws.close(1000);
  });

  it("a member's nickname must be theirs; without one the current nickname is used", async () => {
    const { show, studio } = await liveShow(111);
    const m = await chatMember();
    expect((await startOk(m.client, show.universalId, 'free')).nickname).toBe(m.nick);
    await expectError(await startChat(m.client, show.universalId, 'free', 'someoneElse'), 422, 'chat.nickname_not_yours', ['nickname', 'chat.nickname_not_yours']);
    studio.ws.close(1000);
  });

  it('100 parallel private requests in one show start exactly one', async () => {
    const { show, studio } = await liveShow(112);
    const members = await Promise.all(Array.from({ length: 10 }, () => chatMember()));
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => startChat(members[i % 10].client, show.universalId, 'private')));
    const ok = results.filter((r) => r.status === 200);
    expect(ok.length).toBe(1);
    for (const r of results.filter((x) => x.status !== 200)) await refusal(r, 'chat.show_not_available_private');
    const { n } = (await env.DB.prepare("SELECT COUNT(*) AS n FROM chat_sessions WHERE show_id = ? AND type = 'private' AND state <> 'ended'").bind(show.id).first<{ n: number }>())!;
    expect(n).toBe(1);
    studio.ws.close(1000);
  });

  it('100 parallel free-chat creations by one visitor cannot pass the daily free limit (15 minutes)', async () => {
    const { show, studio } = await liveShow(113);
    const m = await chatMember();
    const results = await Promise.all(Array.from({ length: 100 }, () => startChat(m.client, show.universalId, 'free')));
    expect(results.filter((r) => r.status === 200).length).toBe(15);
    for (const r of results.filter((x) => x.status !== 200)) await refusal(r, 'chat.free_expired');
    const { minutes } = (await env.DB.prepare('SELECT minutes FROM free_chat_usage WHERE who = ?').bind(`u:${m.id}`).first<{ minutes: number }>())!;
    expect(minutes).toBe(15);
    studio.ws.close(1000);
  });

  it('one address starts at most 30 guest sessions an hour, also under 100 parallel fresh guests (429 with Retry-After)', async () => {
    const { show, studio } = await liveShow(115);
    const ip = uniqueIp();
    // Every guest a fresh browser session (its own free minutes), all from one address.
    const results = await Promise.all(Array.from({ length: 100 }, () => startChat(new Client(ip), show.universalId, 'free')));
    expect(results.filter((r) => r.status === 200).length).toBe(GUEST_SESSIONS_PER_ADDRESS);
    const refused = results.filter((r) => r.status !== 200);
    for (const r of refused) await expectError(r, 429, 'too_many_attempts');
    expect(Number(refused[0].headers.get('Retry-After'))).toBeGreaterThan(0);
    const n = await env.DB.prepare('SELECT COUNT(*) AS n FROM chat_sessions WHERE show_id = ? AND user_id IS NULL').bind(show.id).first<{ n: number }>();
    expect(n!.n).toBe(GUEST_SESSIONS_PER_ADDRESS);
    studio.ws.close(1000);
  });

  it('a session answer joins its room; the member gets welcome with the session', async () => {
    const { show, studio } = await liveShow(114);
    const m = await chatMember();
    const a: ChatSessionAnswer = await startOk(m.client, show.universalId, 'free');
    const room = await joinRoom(show.id, a.login, a.password);
    const w = await room.next('welcome');
    expect(w.me).toMatchObject({ id: a.sessionId, nick: m.nick, role: 'member', type: 'free' });
    expect(w.room).toMatchObject({ showId: show.id, mode: 'free' });
    expect(w.session).toMatchObject({ sessionId: a.sessionId, state: 'active', type: 'free' });
    room.ws.close(1000);
    studio.ws.close(1000);
  });
});
