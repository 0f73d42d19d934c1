import { env } from 'cloudflare:workers';
import { SignJWT } from 'jose';
import { describe, expect, it, vi } from 'vitest';
import { CHAT_RATE_BURST, CHAT_TEXT_MAX } from '../../src/shared/chat';
import { signRoomToken } from '../../src/server/lib/room-token';
import { Client, expectError, expectJson } from './helpers';
import { chatMember, joinRoom, liveShow, openRoom, performerOf, pinged, startChat, startOk } from './chat-helpers';

// The room socket (shows 131-160): chat both ways, history, private lines, text rules, rate
// limit, mute/kick/ban, typing and presence, and the room token's bindings.

describe('show room: chat', () => {
  it('performer and guest exchange messages both ways; text stays plain text, capped and without control characters', async () => {
    const { show, studio } = await liveShow(131);
    const a = await startOk(new Client(), show.universalId, 'free', 'Guesty');
    const guest = await joinRoom(show.id, a.login, a.password);
    await guest.next('welcome');
    guest.send({ t: 'say', text: 'hello <b>there</b>\u0000' });
    const heard = await studio.next('line');
    expect(heard.line).toMatchObject({ from: a.sessionId, nick: 'Guesty', role: 'guest', text: 'hello <b>there</b>' });
    expect(heard.line.to).toBeUndefined();
    studio.send({ t: 'say', text: 'x'.repeat(CHAT_TEXT_MAX + 50) });
    const answer = await guest.next('line', (e) => e.line.from === 'performer');
    expect(answer.line.text.length).toBe(CHAT_TEXT_MAX);
    expect(answer.line.role).toBe('performer');
    guest.send({ t: 'say', text: '   ' });
    expect((await guest.next('error')).code).toBe('chat.empty');
    guest.send('ping');
    await expect.poll(() => guest.events.some((e) => e.t === 'error' && e.code === 'pong')).toBe(true);
    guest.ws.close(1000);
    studio.ws.close(1000);
  });

  it('a late joiner gets the recent history; private lines reach only their two parties', async () => {
    const { show, studio } = await liveShow(132);
    const m = await chatMember();
    const free = await startOk(new Client(), show.universalId, 'free');
    const freeRoom = await joinRoom(show.id, free.login, free.password);
    await freeRoom.next('welcome');
    const priv = await startOk(m.client, show.universalId, 'private');
    await studio.next('request');
    studio.send({ t: 'accept', sessionId: priv.sessionId });
    const member = await joinRoom(show.id, priv.login, priv.password);
    await member.next('welcome');
    await member.next('session', (e) => e.session.state === 'active');
    studio.send({ t: 'say', text: 'public hello' });
    studio.send({ t: 'say', text: 'just for you', to: priv.sessionId });
    member.send({ t: 'say', text: 'private answer', to: 'performer' });
    expect((await member.next('line', (e) => e.line.text === 'just for you')).line.to).toBe(priv.sessionId);
    expect((await studio.next('line', (e) => e.line.text === 'private answer')).line.to).toBe('performer');
    await freeRoom.next('line', (e) => e.line.text === 'public hello');
    // A free chatter may not send private lines.
    freeRoom.send({ t: 'say', text: 'sneaky', to: 'performer' });
    expect((await freeRoom.next('error')).code).toBe('chat.no_private');
    const late = await startOk(new Client(), show.universalId, 'free');
    const lateRoom = await joinRoom(show.id, late.login, late.password);
    const w = await lateRoom.next('welcome');
    expect(w.history.map((l) => l.text)).toContain('public hello');
    expect(w.history.map((l) => l.text)).not.toContain('just for you');
    expect(w.history.map((l) => l.text)).not.toContain('private answer');
    expect(freeRoom.events.some((e) => e.t === 'line' && (e.line.text === 'just for you' || e.line.text === 'private answer'))).toBe(false);
    for (const s of [freeRoom, member, lateRoom, studio]) s.ws.close(1000);
  });

  it('rate-limits each sender (token bucket): the burst passes, the surplus is refused and told chat.rate_limited once', async () => {
    const { show, studio } = await liveShow(133);
    const a = await startOk(new Client(), show.universalId, 'free');
    const guest = await joinRoom(show.id, a.login, a.password);
    await guest.next('welcome');
    // Far more than the burst at once: even a slow machine that refills a token or two while the
    // room works through them refuses some.
    const sent = CHAT_RATE_BURST * 4;
    for (let i = 0; i < sent; i++) guest.send({ t: 'say', text: `line ${i}` });
    const echoes = () => guest.events.flatMap((e) => (e.t === 'line' ? [e.line.text] : []));
    const refusals = () => guest.events.filter((e) => e.t === 'error' && e.code === 'chat.rate_limited').length;
    await vi.waitFor(() => expect(echoes().length >= CHAT_RATE_BURST && refusals() === 1).toBe(true), { timeout: 5000, interval: 20 });
    // Once the room handled the lines: one refusal told, not one per line (a flood must not be
    // answered frame by frame); the socket stays open.
    await pinged(guest);
    expect(refusals()).toBe(1);
    const echoed = echoes();
    // The burst passed whole: distinct lines of this burst, at least CHAT_RATE_BURST of them, and
    // some refused. Which ones is not asserted: under load the local runtime twice delivered a
    // socket's messages to the room out of order (echoes "line 0, 2, 4, 5, 6"; the room's say path
    // has no await, so the first ones to arrive take the tokens).
    const sentLines = new Set(Array.from({ length: sent }, (_, i) => `line ${i}`));
    expect(new Set(echoed).size).toBe(echoed.length);
    expect(echoed.every((text) => sentLines.has(text))).toBe(true);
    expect(echoed.length).toBeGreaterThanOrEqual(CHAT_RATE_BURST);
    expect(echoed.length).toBeLessThan(sent);
    expect(guest.ws.readyState).toBe(1);
    for (const text of echoed) await studio.next('line', (e) => e.line.text === text);
    guest.ws.close(1000);
    studio.ws.close(1000);
  });

  it('typing and presence reach the performer (the whole list once, then only what changed); viewers get the room snapshot with the viewer count', async () => {
    const { show, studio } = await liveShow(134);
    const typist = new Client();
    const a = await startOk(typist, show.universalId, 'free', 'Typist');
    const guest = await joinRoom(show.id, a.login, a.password);
    expect((await guest.next('welcome')).room.mode).toBe('free');
    const p = await studio.next('presence-change', (e) => e.upsert.some((x) => x.id === a.sessionId));
    expect(p).toEqual({ t: 'presence-change', upsert: [{ id: a.sessionId, nick: 'Typist', role: 'guest', type: 'free', muted: false }], gone: [] });
    expect((await guest.next('room', (e) => e.room.viewers === 1)).room).toMatchObject({ showId: show.id, mode: 'free', viewers: 1 });
    guest.send({ t: 'typing' });
    expect(await studio.next('typing')).toEqual({ t: 'typing', from: a.sessionId, nick: 'Typist' });
    // A second viewer: the performer hears of that one only; a second studio tab gets everyone.
    const b = await startOk(new Client(), show.universalId, 'free', 'Second');
    expect(await studio.next('presence-change', (e) => e.upsert.length > 0)).toEqual({ t: 'presence-change', upsert: [{ id: b.sessionId, nick: 'Second', role: 'guest', type: 'free', muted: false }], gone: [] });
    const token = await expectJson<{ login: string; password: string }>(await (await performerOf(show.id)).post('/api/studio/connect'), 200);
    const tab = await joinRoom(show.id, token.login, token.password);
    expect((await tab.next('presence')).participants.map((x) => x.id)).toEqual([a.sessionId, b.sessionId]);
    await expectJson(await typist.post(`/api/chatsession/end/${a.sessionId}`), 200);
    expect(await studio.next('presence-change', (e) => e.gone.length > 0)).toEqual({ t: 'presence-change', upsert: [], gone: [a.sessionId] });
    for (const s of [guest, studio, tab]) s.ws.close(1000);
  });

  it('a viewer cannot use performer commands; the performer mutes, kicks and bans', async () => {
    const { show, studio } = await liveShow(135);
    const g = await startOk(new Client(), show.universalId, 'free', 'Loud');
    const guest = await joinRoom(show.id, g.login, g.password);
    await guest.next('welcome');
    guest.send({ t: 'kick', sessionId: g.sessionId });
    expect((await guest.next('error')).code).toBe('chat.forbidden');
    studio.send({ t: 'mute', sessionId: g.sessionId });
    await studio.next('presence-change', (e) => e.upsert.some((x) => x.id === g.sessionId && x.muted));
    guest.send({ t: 'say', text: 'can you hear me' });
    expect((await guest.next('error')).code).toBe('chat.muted');
    studio.send({ t: 'kick', sessionId: g.sessionId });
    expect(await guest.next('ended')).toEqual({ t: 'ended', sessionId: g.sessionId, reason: 'kicked' });
    expect(await guest.closed).toBe(4000);
    // Kicked, not banned: the same visitor may start again; a banned member may not.
    const m = await chatMember();
    const s = await startOk(m.client, show.universalId, 'free');
    const member = await joinRoom(show.id, s.login, s.password);
    await member.next('welcome');
    studio.send({ t: 'ban', sessionId: s.sessionId });
    expect((await member.next('ended')).reason).toBe('banned');
    await expectError(await startChat(m.client, show.universalId, 'free'), 403, 'chat.banned');
    await expectError(await startChat(m.client, show.universalId, 'private'), 403, 'chat.banned');
    // The ended session's token no longer opens the room.
    expect((await openRoom(show.id, s.login, s.password)).status).toBe(410);
    studio.ws.close(1000);
  });

  it('a banned guest (by browser session) cannot create a new session for that show', async () => {
    const { show, studio } = await liveShow(136);
    const client = new Client();
    const g = await startOk(client, show.universalId, 'free');
    await studio.next('presence-change', (e) => e.upsert.some((x) => x.id === g.sessionId));
    studio.send({ t: 'ban', sessionId: g.sessionId });
    await studio.next('ended', (e) => e.sessionId === g.sessionId);
    await expectError(await startChat(client, show.universalId, 'free'), 403, 'chat.banned');
    // Another show is not affected.
    const other = await liveShow(137);
    expect((await startOk(client, other.show.universalId, 'free')).session_type).toBe('free');
    studio.ws.close(1000);
    other.studio.ws.close(1000);
  });
});

describe('show room: tokens', () => {
  it('a token for one room never opens another', async () => {
    const a = await liveShow(138);
    const b = await liveShow(139);
    const s = await startOk(new Client(), a.show.universalId, 'free');
    await expectError(await openRoom(b.show.id, s.login, s.password), 401, 'chat.bad_token');
    // The performer's token of show A does not open show B either.
    const t = await expectJson<{ login: string; password: string }>(await a.performer.post('/api/studio/connect'), 200);
    await expectError(await openRoom(b.show.id, t.login, t.password), 401, 'chat.bad_token');
    expect((await openRoom(a.show.id, s.login, s.password)).status).toBe(101);
    a.studio.ws.close(1000);
    b.studio.ws.close(1000);
  });

  it('refuses an expired token, a forged one, a login that is not the token subject, a foreign Origin and a plain GET', async () => {
    const { show, studio } = await liveShow(140);
    const s = await startOk(new Client(), show.universalId, 'free');
    const expired = await signRoomToken(env, { sub: s.sessionId, show: show.id, role: 'guest', uid: null }, -60);
    await expectError(await openRoom(show.id, s.login, expired), 401, 'chat.bad_token');
    const forged = await new SignJWT({ show: show.id, role: 'guest', uid: null })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('livecam-room')
      .setSubject(s.sessionId)
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode('not-the-secret'));
    await expectError(await openRoom(show.id, s.login, forged), 401, 'chat.bad_token');
    const [h, p] = s.password.split('.');
    await expectError(await openRoom(show.id, s.login, `${h}.${p}.AAAA`), 401, 'chat.bad_token');
    // An unsigned token (alg none) is refused.
    await expectError(await openRoom(show.id, s.login, `${h}.${p}.`), 401, 'chat.bad_token');
    // A performer token made for a viewer's subject: role and subject come only from the signature.
    await expectError(await openRoom(show.id, 'performer', s.password), 401, 'chat.bad_token');
    await expectError(await openRoom(show.id, s.login, s.password, { Origin: 'https://evil.example' }), 403, 'origin_forbidden');
    await expectError(await new Client().get(`/api/chatroom/${show.id}?login=${s.login}&password=${s.password}`), 426, 'upgrade_required');
    await expectError(await openRoom(show.id, s.login, ''), 401, 'chat.bad_token');
    studio.ws.close(1000);
  });

  it('one session holds at most 4 sockets in the room', async () => {
    const { show, studio } = await liveShow(142);
    const s = await startOk(new Client(), show.universalId, 'free');
    const open = [];
    for (let i = 0; i < 4; i++) open.push(await joinRoom(show.id, s.login, s.password));
    await expectError(await openRoom(show.id, s.login, s.password), 429, 'too_many_sockets');
    for (const x of open) x.ws.close(1000);
    studio.ws.close(1000);
  });

  it('a fresh token for a reconnect is given only to the session owner', async () => {
    const { show, studio } = await liveShow(141);
    const m = await chatMember();
    const s = await startOk(m.client, show.universalId, 'free');
    const t = await expectJson<{ login: string; password: string }>(await m.client.post(`/api/chatsession/token/${s.sessionId}`), 200);
    expect(t.login).toBe(s.sessionId);
    expect((await openRoom(show.id, t.login, t.password)).status).toBe(101);
    const other = await chatMember();
    await expectError(await other.client.post(`/api/chatsession/token/${s.sessionId}`), 404, 'not_found');
    await expectError(await new Client().post(`/api/chatsession/token/${s.sessionId}`), 404, 'not_found');
    studio.ws.close(1000);
  });
});
