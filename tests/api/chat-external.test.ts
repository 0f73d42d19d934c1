import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { ChatSessionAnswer, ExternalExtendAnswer } from '../../src/shared/chat';
import { signFrameTicket } from '../../src/server/lib/frame-ticket';
import { signRoomToken } from '../../src/server/lib/room-token';
import { Client, expectError, expectJson } from './helpers';
import { chatMember, coinsOf, joinRoom, ledgerRefs, liveShow, openRoom, sessionRow, startChat, startOk } from './chat-helpers';

// External provider shows (contentprovider_id 2: demo shows 241-250; own-provider shows 226-229): the same start call answers
// the partner frame and a lease; the frame opens only its own session's room for its owner; the
// lease is extended every 10 s by the page (3 s in these tests), ends the session when it is not,
// and extend/end/beacon accept only the caller's own session.

const LEASE_MS = 3000;
type FrameAnswer = ChatSessionAnswer & { frame: string; lease_ms: number };

const extend = (client: Client, sessionId: unknown, opts: { csrf?: boolean } = {}) => client.post('/api/chat/external/extend', { sessionId }, opts);
const end = (client: Client, sessionId: unknown) => client.post('/api/chat/external/end', { sessionId });
/** What navigator.sendBeacon sends: text/plain, no CSRF header. */
const beacon = (client: Client, body: string, headers: Record<string, string> = {}) =>
  client.fetch('/api/chat/external/end?beacon=1', { method: 'POST', body, csrf: false, contentType: 'text/plain;charset=UTF-8', headers });

/** The frame's island props (the session's room credentials) from its document. */
async function frameProps(res: Response): Promise<{ status: string; show: { id: number }; answer: { login: string; password: string; session_type: string } }> {
  const html = await res.text();
  const m = /data-island="ExternalChat" data-props="([^"]*)"/.exec(html);
  if (!m) throw new Error(`no frame island in ${html.slice(0, 300)}`);
  return JSON.parse(m[1].replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&'));
}

const withQuery = (frame: string, set: Record<string, string>) => {
  const u = new URL(frame, 'http://localhost');
  for (const [k, v] of Object.entries(set)) u.searchParams.set(k, v);
  return `${u.pathname}${u.search}`;
};

const waitFor = async (check: () => Promise<boolean>, what: string, ms = 15_000) => {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

describe('external provider shows: start and frame', () => {
  it('a partner show answers the frame with a ticket for this session and room, and the lease; the own provider answers neither', async () => {
    const { show, studio } = await liveShow(241);
    expect(show.providerId).toBe(2);
    const m = await chatMember();
    const a = (await startOk(m.client, show.universalId, 'free')) as FrameAnswer;
    expect(a).toMatchObject({ contentProviderId: 2, showId: 241, session_type: 'free', nickname: m.nick, lease_ms: LEASE_MS });
    const url = new URL(a.frame, 'http://localhost');
    expect(url.pathname).toBe('/api/chat/external/vxm');
    expect(url.searchParams.get('session')).toBe(a.sessionId);
    expect(url.searchParams.get('show')).toBe('241');
    expect(url.searchParams.get('ticket')?.split('.').length).toBe(3);
    // The same rules and catalogue codes as every session.
    await expectError(await startChat(new Client(), show.universalId, 'private'), 401, 'unauthenticated');
    await expectError(await startChat(m.client, show.universalId, 'vip'), 422, 'chat.invalid_session_type', ['type', 'chat.invalid_session_type']);
    const poor = await chatMember(0);
    await expectError(await startChat(poor.client, show.universalId, 'private'), 422, 'chat.no_coins', ['type', 'chat.no_coins']);
    const own = await liveShow(226);
    expect(own.show.providerId).toBe(1);
    const b = await startOk((await chatMember()).client, own.show.universalId, 'free');
    expect(b.frame).toBeUndefined();
    expect(b.lease_ms).toBeUndefined();
    studio.ws.close(1000);
    own.studio.ws.close(1000);
  });

  it('the frame is a page of its own (both languages, strict headers) that joins the room as the session', async () => {
    const { show, studio } = await liveShow(242);
    const m = await chatMember();
    const a = (await startOk(m.client, show.universalId, 'free')) as FrameAnswer;
    const res = await m.client.get(a.frame);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toMatch(/^text\/html/);
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    expect(res.headers.get('X-Frame-Options')).toBe('SAMEORIGIN');
    const csp = res.headers.get('Content-Security-Policy') ?? '';
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).toMatch(/script-src 'nonce-[^']+' 'strict-dynamic'/);
    const props = await frameProps(res.clone());
    expect(props).toMatchObject({ status: 'ok', show: { id: 242 }, answer: { login: a.sessionId, session_type: 'free' } });
    expect(await res.text()).toContain('<html lang="en"');
    // The frame's credentials join this room as the session: a line reaches the performer and back.
    const room = await joinRoom(show.id, props.answer.login, props.answer.password);
    expect((await room.next('welcome')).me).toMatchObject({ id: a.sessionId, nick: m.nick, role: 'member' });
    room.send({ t: 'say', text: 'hello from the frame' });
    expect((await studio.next('line', (e) => e.line.from === a.sessionId)).line.text).toBe('hello from the frame');
    studio.send({ t: 'say', text: 'hello frame' });
    expect((await room.next('line', (e) => e.line.from === 'performer')).line.text).toBe('hello frame');
    // …and not another show's room.
    expect((await openRoom(241, props.answer.login, props.answer.password)).status).toBe(401);
    // German.
    m.client.jar.set('i18n_redirected', 'de');
    const de = await m.client.get(a.frame);
    const html = await de.text();
    expect(html).toContain('<html lang="de"');
    expect(html).toContain('Chat mit');
    room.ws.close(1000);
    studio.ws.close(1000);
  });

  it('a frame URL for one session or room does not open another, nor for another browser, nor once ended, nor for an own-provider show', async () => {
    const { show, studio } = await liveShow(243);
    const other = await liveShow(244);
    const m = await chatMember();
    const n = await chatMember();
    const a = (await startOk(m.client, show.universalId, 'free')) as FrameAnswer;
    const b = (await startOk(n.client, other.show.universalId, 'free')) as FrameAnswer;
    const refused = async (res: Response, status: number) => {
      expect(res.status).toBe(status);
      expect(await res.text()).toContain('data-testid="external-refused"');
    };
    const ticketB = new URL(b.frame, 'http://localhost').searchParams.get('ticket')!;
    // Another session, another room, another's ticket, a forged or foreign token: 403.
    await refused(await m.client.get(withQuery(a.frame, { session: b.sessionId })), 403);
    await refused(await m.client.get(withQuery(a.frame, { show: String(other.show.id) })), 403);
    await refused(await m.client.get(withQuery(a.frame, { ticket: ticketB })), 403);
    await refused(await m.client.get(withQuery(b.frame, { session: a.sessionId, show: String(show.id) })), 403);
    await refused(await m.client.get(withQuery(a.frame, { ticket: `${ticketB.slice(0, -4)}AAAA` })), 403);
    await refused(await m.client.get(withQuery(a.frame, { ticket: a.password })), 403);
    await refused(await m.client.get(withQuery(a.frame, { show: 'x' })), 403);
    await refused(await m.client.get('/api/chat/external/vxm'), 403);
    // The URL in another browser (another member, a guest, no cookies): 403.
    await refused(await n.client.get(a.frame), 403);
    await refused(await new Client().get(a.frame), 403);
    // An expired ticket: 403.
    const expired = await signFrameTicket(env, { sub: a.sessionId, show: show.id }, -5);
    await refused(await m.client.get(withQuery(a.frame, { ticket: expired })), 403);
    // A ticket for an own-provider session (which never gets one): 403.
    const own = await liveShow(227);
    const c = await startOk(m.client, own.show.universalId, 'free');
    const t = await signFrameTicket(env, { sub: c.sessionId, show: own.show.id });
    await refused(await m.client.get(`/api/chat/external/vxm?${new URLSearchParams({ session: c.sessionId, show: String(own.show.id), ticket: t })}`), 403);
    // Its own session, still running: 200; ended: 410.
    expect((await m.client.get(a.frame)).status).toBe(200);
    await expectJson(await end(m.client, a.sessionId), 200);
    await refused(await m.client.get(a.frame), 410);
    for (const x of [studio, other.studio, own.studio]) x.ws.close(1000);
  });
});

describe('external provider shows: lease', () => {
  it('extend renews the lease: an extended session outlives it, one left alone ends by itself (expired) and its paid minutes stop', async () => {
    const { show, studio } = await liveShow(245);
    const m = await chatMember(5000);
    const a = (await startOk(m.client, show.universalId, 'private')) as FrameAnswer;
    const room = await joinRoom(show.id, a.login, a.password);
    await room.next('welcome');
    studio.send({ t: 'accept', sessionId: a.sessionId });
    await room.next('session', (e) => e.session.minutes === 1);
    // Extended every second for twice the lease: still running, and charged minute by minute.
    const started = Date.now();
    let last: ExternalExtendAnswer | null = null;
    while (Date.now() - started < 2 * LEASE_MS) {
      const before = Date.now();
      last = await expectJson<ExternalExtendAnswer>(await extend(m.client, a.sessionId), 200);
      expect(last).toMatchObject({ sessionId: a.sessionId, lease_ms: LEASE_MS, session: { sessionId: a.sessionId, state: 'active', type: 'private' } });
      expect(last.lease_until).toBeGreaterThanOrEqual(before + LEASE_MS);
      await new Promise((r) => setTimeout(r, 1000));
    }
    expect((await sessionRow(a.sessionId))!.state).toBe('active');
    // No more extends: the room ends it with reason expired and closes the socket.
    expect((await studio.next('ended', (e) => e.sessionId === a.sessionId)).reason).toBe('expired');
    expect(await room.closed).toBe(4000);
    await waitFor(async () => (await sessionRow(a.sessionId))!.state === 'ended', 'the ended row');
    const row = (await sessionRow(a.sessionId))!;
    expect(row).toMatchObject({ state: 'ended', end_reason: 'expired' });
    const refs = await ledgerRefs(`chat:${a.sessionId}:`);
    expect(refs.length).toBe(row.minutes);
    const coins = await coinsOf(m.id);
    // Paid minutes stop: two more billed minutes later nothing was charged.
    await new Promise((r) => setTimeout(r, 2200));
    expect(await ledgerRefs(`chat:${a.sessionId}:`)).toEqual(refs);
    expect(await coinsOf(m.id)).toBe(coins);
    expect(coins).toBe(5000 - (row.coins as number));
    // The page then gets 422 and stops.
    await expectError(await extend(m.client, a.sessionId), 422, 'chat.session_ended', ['sessionId', 'chat.session_ended']);
    studio.ws.close(1000);
  });

  it("extend of an ended, unknown, another member's or an own-provider session answers 422 and extends nothing", async () => {
    const { show, studio } = await liveShow(246);
    const m = await chatMember();
    const n = await chatMember();
    const a = (await startOk(m.client, show.universalId, 'free')) as FrameAnswer;
    // Another member, a guest, and no CSRF header.
    await expectError(await extend(n.client, a.sessionId), 422, 'chat.no_session', ['sessionId', 'chat.no_session']);
    await expectError(await extend(new Client(), a.sessionId), 422, 'chat.no_session', ['sessionId', 'chat.no_session']);
    await expectError(await extend(m.client, a.sessionId, { csrf: false }), 419, 'csrf_token_mismatch');
    // Unknown ids and malformed bodies.
    await expectError(await extend(m.client, 'unknown-session-id-0000'), 422, 'chat.no_session', ['sessionId', 'chat.no_session']);
    for (const bad of [undefined, null, 7, '', 'short', 'x'.repeat(65), '../../etc', { $gt: '' }, ['a']]) {
      await expectError(await extend(m.client, bad), 422, 'validation_failed', ['sessionId', 'chat.no_session']);
    }
    // An own-provider session has no lease to extend.
    const own = await liveShow(228);
    const c = await startOk(m.client, own.show.universalId, 'free');
    await expectError(await extend(m.client, c.sessionId), 422, 'chat.no_session', ['sessionId', 'chat.no_session']);
    // The owner's extend works; after the end it is 422 chat.session_ended.
    await expectJson(await extend(m.client, a.sessionId), 200);
    await expectJson(await end(m.client, a.sessionId), 200);
    await expectError(await extend(m.client, a.sessionId), 422, 'chat.session_ended', ['sessionId', 'chat.session_ended']);
    expect((await sessionRow(c.sessionId))!.state).toBe('active');
    studio.ws.close(1000);
    own.studio.ws.close(1000);
  });
});

describe('external provider shows: end and beacon', () => {
  it("end ends the caller's own session once (again: the same answer); another's is refused; without CSRF header or beacon flag 419", async () => {
    const { show, studio } = await liveShow(247);
    const m = await chatMember();
    const n = await chatMember();
    const a = (await startOk(m.client, show.universalId, 'free')) as FrameAnswer;
    const room = await joinRoom(show.id, a.login, a.password);
    await room.next('welcome');
    await expectError(await end(n.client, a.sessionId), 404, 'not_found');
    await expectError(await m.client.post('/api/chat/external/end', { sessionId: a.sessionId }, { csrf: false }), 419, 'csrf_token_mismatch');
    expect((await sessionRow(a.sessionId))!.state).toBe('active');
    const first = await expectJson<{ session: { state: string; ended_reason: string } }>(await end(m.client, a.sessionId), 200);
    expect(first.session).toMatchObject({ sessionId: a.sessionId, state: 'ended', ended_reason: 'member' });
    expect((await studio.next('ended', (e) => e.sessionId === a.sessionId)).reason).toBe('member');
    expect(await room.closed).toBe(4000);
    expect(await expectJson(await end(m.client, a.sessionId), 200)).toEqual(first);
    await expectError(await end(m.client, 'unknown-session-id-0000'), 404, 'not_found');
    // An own-provider session is not ended through the partner's call.
    const own = await liveShow(229);
    const c = await startOk(m.client, own.show.universalId, 'free');
    await expectError(await end(m.client, c.sessionId), 404, 'not_found');
    expect((await sessionRow(c.sessionId))!.state).toBe('active');
    studio.ws.close(1000);
    own.studio.ws.close(1000);
  });

  it("the page-hide beacon (?beacon=1, text/plain, no CSRF header) ends only the caller's own session, idempotently, and no body makes a 5xx", async () => {
    const { show, studio } = await liveShow(248);
    const m = await chatMember();
    const a = (await startOk(m.client, show.universalId, 'free')) as FrameAnswer;
    const body = JSON.stringify({ sessionId: a.sessionId });
    // Another member, a visitor without cookies, and a foreign page (Origin) are refused.
    const n = await chatMember();
    await expectError(await beacon(n.client, body), 404, 'not_found');
    await expectError(await beacon(new Client(), body), 404, 'not_found');
    await expectError(await beacon(m.client, body, { Origin: 'https://evil.example' }), 403, 'origin_forbidden');
    expect((await sessionRow(a.sessionId))!.state).toBe('active');
    // Hostile bodies: a 4xx, never a 5xx, and nothing ends.
    const hostile = ['', 'x', '{', '[]', 'null', '"id"', '{"sessionId":7}', '{"sessionId":null}', '{"sessionId":["a"]}', `{"sessionId":"${'x'.repeat(5000)}"}`, '{"sessionId":"abc\\u0000defghij"}', '{"sessionId":{"$ne":1}}', 'sessionId=abc', '\u0000\u0001'];
    for (const h of hostile) {
      const res = await beacon(m.client, h);
      expect(res.status, `${JSON.stringify(h)} -> ${res.status}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${JSON.stringify(h)} -> ${res.status}`).toBeLessThan(500);
    }
    expect((await sessionRow(a.sessionId))!.state).toBe('active');
    // The owner's beacon ends it; a repeated beacon answers the ended session again.
    const first = await expectJson<{ session: { state: string; ended_reason: string } }>(await beacon(m.client, body), 200);
    expect(first.session).toMatchObject({ state: 'ended', ended_reason: 'member' });
    expect(await expectJson(await beacon(m.client, body), 200)).toEqual(first);
    expect(await sessionRow(a.sessionId)).toMatchObject({ state: 'ended', end_reason: 'member' });
    // A guest's session of a partner show: the same, by the guest's own browser session only.
    const guest = new Client();
    const g = (await startOk(guest, show.universalId, 'free')) as FrameAnswer;
    expect((await guest.get(g.frame)).status).toBe(200);
    await expectError(await beacon(new Client(), JSON.stringify({ sessionId: g.sessionId })), 404, 'not_found');
    await expectJson(await extend(guest, g.sessionId), 200);
    expect((await expectJson<{ session: { state: string } }>(await beacon(guest, JSON.stringify({ sessionId: g.sessionId })), 200)).session.state).toBe('ended');
    studio.ws.close(1000);
  });

  it('100 parallel beacons and ends of one session end it once', async () => {
    const { show, studio } = await liveShow(249);
    const m = await chatMember();
    const a = (await startOk(m.client, show.universalId, 'free')) as FrameAnswer;
    const body = JSON.stringify({ sessionId: a.sessionId });
    const all = await Promise.all(Array.from({ length: 100 }, (_, i) => (i % 2 ? beacon(m.client, body) : end(m.client, a.sessionId))));
    expect(all.map((r) => r.status)).toEqual(Array(100).fill(200));
    const ended = await Promise.all(all.map(async (r) => ((await r.json()) as { session: { state: string; ended_reason: string } }).session));
    expect(ended.every((s) => s.state === 'ended' && s.ended_reason === 'member')).toBe(true);
    expect(await sessionRow(a.sessionId)).toMatchObject({ state: 'ended', end_reason: 'member' });
    expect((await studio.next('ended', (e) => e.sessionId === a.sessionId)).reason).toBe('member');
    // One end event only.
    await new Promise((r) => setTimeout(r, 300));
    expect(studio.events.filter((e) => e.t === 'ended' && e.sessionId === a.sessionId)).toEqual([]);
    studio.ws.close(1000);
  });

  it('a room token stands neither for a frame ticket nor a beacon proof', async () => {
    const { show, studio } = await liveShow(250);
    const m = await chatMember();
    const a = (await startOk(m.client, show.universalId, 'free')) as FrameAnswer;
    const token = await signRoomToken(env, { sub: a.sessionId, show: show.id, role: 'member', uid: m.id });
    expect((await m.client.get(withQuery(a.frame, { ticket: token }))).status).toBe(403);
    await expectError(await beacon(new Client(), JSON.stringify({ sessionId: a.sessionId, password: token })), 404, 'not_found');
    expect((await sessionRow(a.sessionId))!.state).toBe('active');
    studio.ws.close(1000);
  });
});
