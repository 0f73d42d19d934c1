import { describe, expect, it, vi } from 'vitest';
import { parseEvent, type RealtimeEvent } from '../../src/shared/realtime';
import { Client, expectJson, req, uniqueIp, websocket } from './helpers';
import { chatMember, joinRoom, ledgerRefs, liveShow, openRoom, sessionRow, startOk, type RoomSocket } from './chat-helpers';

// Issue 24 point 9 (shows 260-263; a billed minute is 1 s in tests): a logout ends everything of
// that login at once (its chats through their rooms, room tokens, lobby sockets, the performer's
// studio), and a password change ends every other login the same way while this one goes on.

vi.setConfig({ testTimeout: 60_000 });

interface LobbySocket {
  ws: WebSocket;
  events: RealtimeEvent[];
  closed: Promise<number>;
}

/** A lobby socket with `client`'s cookies (from its own address: the per-address cap is elsewhere). */
async function lobby(client: Client): Promise<LobbySocket> {
  const res = await websocket('/api/realtime', { Cookie: client.cookieHeader, 'CF-Connecting-IP': uniqueIp() });
  expect(res.status).toBe(101);
  const ws = res.webSocket!;
  ws.accept();
  const events: RealtimeEvent[] = [];
  let done: (code: number) => void = () => undefined;
  const closed = new Promise<number>((r) => (done = r));
  ws.addEventListener('close', (e) => done(e.code));
  ws.addEventListener('message', (m) => {
    const e = parseEvent(m.data);
    if (e) events.push(e);
  });
  return { ws, events, closed };
}

/** Polls until `check` holds (the server's alarms run on their own clock), at most 10 s. */
async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within 10 s: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function minutesOf(sessionId: string): Promise<number> {
  return (await sessionRow(sessionId))!.minutes as number;
}

/** A running private of a fresh member on the show, its room socket past the first minute. */
async function runningPrivate(showId: number, studio: RoomSocket, universalId: string) {
  const m = await chatMember(1000);
  const s = await startOk(m.client, universalId, 'private');
  const member = await joinRoom(showId, s.login, s.password);
  await member.next('welcome');
  studio.send({ t: 'accept', sessionId: s.sessionId });
  await member.next('session', (e) => e.session.minutes >= 1);
  return { m, s, member };
}

describe('point 9: a logout ends everything of that login, at once', () => {
  it('the running private ends before the answer (both sides told, socket closed), its room token is refused, and no further minute is charged', async () => {
    const { show, studio } = await liveShow(260);
    const { m, s, member } = await runningPrivate(show.id, studio, show.universalId);
    // Another member's private on another show: its minutes show that time goes on (a voyeur in
    // the same room would end with the private it watches).
    const { show: clockShow, studio: clockStudio } = await liveShow(264);
    const { s: v, member: watcher } = await runningPrivate(clockShow.id, clockStudio, clockShow.universalId);

    await expectJson(await m.client.post('/api/auth/logout'), 200);
    // Already over when the answer came: the row, the member's socket and the studio.
    expect(await sessionRow(s.sessionId)).toMatchObject({ state: 'ended', end_reason: 'logout' });
    expect((await member.next('ended')).reason).toBe('logout');
    expect(await member.closed).toBe(4000);
    expect((await studio.next('ended', (e) => e.sessionId === s.sessionId)).reason).toBe('logout');
    const charged = await ledgerRefs(`chat:${s.sessionId}:`);
    const minutes = await minutesOf(s.sessionId);
    expect(charged.length).toBe(minutes);

    // The token issued before the logout no longer opens the room (it is well within its 5 minutes).
    expect((await openRoom(show.id, s.login, s.password)).status).toBe(401);
    // Two more minutes of the other private later, the ended one has not been charged again.
    const at = await minutesOf(v.sessionId);
    await until('two more minutes of the other private', async () => (await minutesOf(v.sessionId)) >= at + 2);
    expect(await ledgerRefs(`chat:${s.sessionId}:`)).toEqual(charged);
    expect(await minutesOf(s.sessionId)).toBe(minutes);
    for (const x of [watcher, studio, clockStudio]) x.ws.close(1000);
  });

  it("the login's lobby sockets are told user:logout and closed; another login of the member keeps its socket and its chat", async () => {
    const { show, studio } = await liveShow(261);
    const { m, member } = await runningPrivate(show.id, studio, show.universalId);
    const tabs = [await lobby(m.client), await lobby(m.client.clone())];
    // The same member logged in on another device, watching another show's free chat.
    const device = new Client();
    await expectJson(await device.login(m.name, m.password), 200);
    const { show: other, studio: otherStudio } = await liveShow(262);
    const free = await startOk(device, other.universalId, 'free');
    const otherTab = await lobby(device);

    await expectJson(await m.client.post('/api/auth/logout'), 200);
    for (const tab of tabs) {
      expect(await tab.closed).toBe(4001);
      expect(tab.events.map((e) => e.type)).toContain('user:logout');
    }
    expect((await member.next('ended')).reason).toBe('logout');
    // The other device is not logged out: its socket stays, its chat runs, its token still opens the room.
    expect(otherTab.events.map((e) => e.type)).not.toContain('user:logout');
    expect(await sessionRow(free.sessionId)).toMatchObject({ state: 'active' });
    const again = await openRoom(other.id, free.login, free.password);
    expect(again.status).toBe(101);
    again.webSocket!.accept();
    again.webSocket!.close(1000);
    expect((await device.me())?.id).toBe(m.id);
    expect(otherTab.ws.readyState).toBe(WebSocket.OPEN);
    for (const x of [otherTab.ws, studio.ws, otherStudio.ws]) x.close(1000);
  });

  it("the performer's logout closes the studio socket and refuses the studio token issued before", async () => {
    const { show, performer, studio } = await liveShow(263);
    const token = await expectJson<{ login: string; password: string }>(await performer.post('/api/studio/connect'), 200);
    const ice = () => req(`/api/video/ice?show=${show.id}&login=${token.login}&password=${encodeURIComponent(token.password)}`);
    expect((await ice()).status).toBe(200);
    await expectJson(await performer.post('/api/auth/logout'), 200);
    expect(await studio.closed).toBe(4001);
    expect((await openRoom(show.id, token.login, token.password)).status).toBe(401);
    // Nor does the old token get TURN credentials.
    expect((await ice()).status).toBe(401);
  });
});

describe('point 9: a password change ends every other login; this one goes on with a new session', () => {
  it("the other login's private ends and its tokens and sockets die; the changing login keeps its chat and gets a new session", async () => {
    const { show, studio } = await liveShow(260);
    const { m, s, member } = await runningPrivate(show.id, studio, show.universalId);
    const elsewhere = await lobby(m.client);
    // The member changes the password on another device, which watches a free chat.
    const device = new Client();
    await expectJson(await device.login(m.name, m.password), 200);
    const { show: other, studio: otherStudio } = await liveShow(262);
    const free = await startOk(device, other.universalId, 'free');
    const copy = device.clone();
    const before = device.cookie('lc_sid');

    const res = await expectJson<{ user: { id: number }; session: { session_id: string } }>(
      await device.put('/api/user/update', { password: 'changed-pass-2026', password_confirm: 'changed-pass-2026', current_password: m.password }),
      200,
    );
    // The other login: its private is over, its socket told and closed, its token refused.
    expect(await sessionRow(s.sessionId)).toMatchObject({ state: 'ended', end_reason: 'logout' });
    expect((await member.next('ended')).reason).toBe('logout');
    expect(await elsewhere.closed).toBe(4001);
    expect(elsewhere.events.map((e) => e.type)).toContain('user:logout');
    expect((await openRoom(show.id, s.login, s.password)).status).toBe(401);
    expect(await m.client.me()).toBeNull();
    // This login goes on under a new session and token: a copy of its old cookies is worthless.
    expect(device.cookie('lc_sid')).not.toBe(before);
    expect(res.session.session_id).toBe(decodeURIComponent(device.cookie('lc_sid') as string).split('.')[0]);
    expect((await device.me())?.id).toBe(m.id);
    expect(await copy.me()).toBeNull();
    expect(await sessionRow(free.sessionId)).toMatchObject({ state: 'active' });
    const token = await expectJson<{ login: string; password: string }>(await device.post(`/api/chatsession/token/${free.sessionId}`), 200);
    const again = await openRoom(other.id, token.login, token.password);
    expect(again.status).toBe(101);
    again.webSocket!.accept();
    again.webSocket!.close(1000);
    await expectJson(await device.post('/api/session/welcome_shown'), 200);
    for (const x of [studio.ws, otherStudio.ws]) x.close(1000);
  });
});
