import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import { parseEvent, type RealtimeEvent } from '../../src/shared/realtime';
import type { AccountSummary, OpenAppeal, Statement } from '../../src/shared/restrictions';
import { count, lastMail, mailsTo, registerMember } from './account-helpers';
import { chatMember, liveShow, openRoom, sessionRow, startOk, viewer } from './chat-helpers';
import { Client, expectError, expectJson, uniqueIp, websocket } from './helpers';
import { operator } from './operator-helpers';

// Issue 29 point 4 (shows 187-189): bans and suspensions end every login of the account at once
// (tokens, room and lobby sockets, a performer's studio and show), refuse its logins while active,
// mail a statement of reasons with a link to appeal, and every operator action is in the audit trail.

vi.setConfig({ testTimeout: 60_000 });

const BAN = { kind: 'ban', reason_category: 'harassment', reason: 'Threatened a performer in the free chat twice.' };
const restrict = (op: Client, userId: number, body: unknown) => op.post(`/api/operator/users/${userId}/restrictions`, body);

/** A lobby socket with `client`'s cookies, its events, and its close code when it closes. */
async function lobby(client: Client) {
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

const within = <T>(p: Promise<T>, ms = 5000) => Promise.race([p, new Promise<never>((_, no) => setTimeout(() => no(new Error(`not within ${ms} ms`)), ms))]);

async function auditRows(action: string, target: string) {
  const { results } = await env.DB.prepare('SELECT actor_id, reason, detail FROM audit_log WHERE action = ? AND target = ? ORDER BY id').bind(action, target).all<{ actor_id: number; reason: string; detail: string }>();
  return results;
}

/** The token of the statement link in the newest mail of the account. */
async function statementToken(email: string): Promise<string> {
  const mail = await lastMail(email, 'restriction');
  const token = /\/account\/restriction\/([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
  expect(token, mail.text).toBeTruthy();
  return token!;
}

describe('a ban', () => {
  it("ends the member's logins, room socket and lobby socket at once; logins are refused; the statement is mailed and audited", async () => {
    const op = await operator();
    const { show, studio } = await liveShow(187);
    const m = await chatMember();
    const s = await startOk(m.client, show.universalId, 'free');
    const room = await viewer(show.id, s);
    const tab = await lobby(m.client);
    const device = new Client();
    await expectJson(await device.login(m.name, m.password), 200);

    const res = await expectJson<{ restriction: { id: number; kind: string; ends_at: number | null } }>(await restrict(op.client, m.id, BAN), 201);
    expect(res.restriction).toMatchObject({ kind: 'ban', ends_at: null });
    // Over when the answer came: both logins, the chat, the room token; the sockets close.
    expect(await m.client.me()).toBeNull();
    expect(await device.me()).toBeNull();
    expect((await m.client.get('/api/auth/user')).status).toBe(401);
    expect(await sessionRow(s.sessionId)).toMatchObject({ state: 'ended' });
    await within(room.closed);
    expect(await within(tab.closed)).toBe(4001);
    expect(tab.events.map((e) => e.type)).toContain('user:logout');
    expect((await openRoom(show.id, s.login, s.password)).status).toBe(401);
    expect(await count('auth_tokens', 'user_id = ?', m.id)).toBe(0);

    // The member cannot log in again: a clear code, no end for a ban.
    // (The answer carries the kind and end beside the message: expectError's shape check would refuse them.)
    expect(await expectJson(await new Client().login(m.name, m.password), 422)).toEqual({ message: 'account_restricted', restriction: 'ban', ends_at: null });

    // The statement of reasons in the account's language: what, why, category, how to appeal.
    const mail = await lastMail(m.email, 'restriction');
    expect(mail.text).toContain(BAN.reason);
    expect(mail.text).toContain('Harassment or threats');
    expect(mail.text).toMatch(/banned/);
    expect(mail.html).toContain('/account/restriction/');
    const [row] = await auditRows('account.banned', `user:${m.id}`);
    expect(row).toMatchObject({ actor_id: op.id, reason: BAN.reason });
    expect(JSON.parse(row.detail)).toMatchObject({ restriction: res.restriction.id, category: 'harassment', ends_at: null });
    studio.ws.close(1000);
  });

  it('of a performer closes the studio socket and takes the show offline', async () => {
    const op = await operator();
    const { show, performer, studio } = await liveShow(188);
    const me = (await performer.me())!;
    const r = await expectJson<{ restriction: { id: number } }>(await restrict(op.client, me.id, { ...BAN, reason_category: 'illegal_content' }), 201);
    expect(await within(studio.closed)).toBe(4001);
    expect(await performer.me()).toBeNull();
    expect(await env.DB.prepare('SELECT online FROM shows WHERE id = ?').bind(show.id).first('online')).toBe(0);
    const summary = await expectJson<AccountSummary>(await op.client.get(`/api/operator/users/${me.id}`), 200);
    expect(summary.show?.id).toBe(show.id);
    expect(summary.restrictions[0]).toMatchObject({ id: r.restriction.id, active: true, kind: 'ban' });
    // Lifted again (the demo performer serves other tests).
    await expectJson(await op.client.post(`/api/operator/restrictions/${r.restriction.id}/lift`, { reason: 'Performer cleanup after the test.' }), 200);
  });

  it('20 parallel identical requests make one active restriction, one mail, one audit row', async () => {
    const op = await operator();
    const m = await registerMember({ verified: true });
    const answers = await Promise.all(Array.from({ length: 20 }, () => restrict(op.client, m.id, BAN)));
    expect(answers.map((a) => a.status).sort()).toEqual([201, ...Array(19).fill(409)]);
    expect(await count('restrictions', 'user_id = ? AND lifted_at IS NULL', m.id)).toBe(1);
    expect((await mailsTo(m.email)).filter((x) => x.kind === 'restriction')).toHaveLength(1);
    expect(await auditRows('account.banned', `user:${m.id}`)).toHaveLength(1);
  });
});

describe('a login that outlives the sweep', () => {
  it('is refused by the visitor check while a restriction is active (a login made while the ban was written)', async () => {
    const m = await registerMember({ verified: true });
    const op = await operator();
    // The restriction row alone, its tokens left in place: as if the login came in after the sweep.
    await env.DB.prepare("INSERT INTO restrictions (user_id, kind, reason_category, reason, created_by, created_at, statement_hash) VALUES (?, 'ban', 'spam', 'Raced login test row.', ?, ?, ?)")
      .bind(m.id, op.id, Math.floor(Date.now() / 1000), `race-${m.id}`)
      .run();
    expect(await count('auth_tokens', 'user_id = ?', m.id)).toBeGreaterThan(0);
    expect(await m.client.me()).toBeNull();
    await env.DB.prepare('UPDATE restrictions SET lifted_at = ?, lifted_by = ? WHERE user_id = ?').bind(Math.floor(Date.now() / 1000), op.id, m.id).run();
    expect((await m.client.me())?.id).toBe(m.id);
  });
});

describe('refusals change nothing', () => {
  it('bad input is a 422 with field errors; no self, no operator, no unknown account', async () => {
    const op = await operator();
    const other = await operator();
    const m = await registerMember({ verified: true });
    const before = { r: await count('restrictions'), a: await count('audit_log'), t: await count('auth_tokens', 'user_id = ?', m.id) };
    const bad: [unknown, string, string][] = [
      [{}, 'kind', 'kind_invalid'],
      [{ ...BAN, kind: 'warning' }, 'kind', 'kind_invalid'],
      [{ ...BAN, reason_category: 'rudeness' }, 'reason_category', 'category_invalid'],
      [{ ...BAN, reason: 'short' }, 'reason', 'too_short'],
      [{ ...BAN, reason: 'x'.repeat(2001) }, 'reason', 'too_long'],
      [{ ...BAN, days: 3 }, 'days', 'days_invalid'],
      [{ ...BAN, kind: 'suspension' }, 'days', 'days_required'],
      [{ ...BAN, kind: 'suspension', days: 0 }, 'days', 'days_invalid'],
      [{ ...BAN, kind: 'suspension', days: 366 }, 'days', 'days_invalid'],
      [{ ...BAN, kind: 'suspension', days: 1.5 }, 'days', 'days_invalid'],
      [{ ...BAN, kind: 'suspension', days: '3' }, 'days', 'days_invalid'],
    ];
    for (const [body, field, code] of bad) await expectError(await restrict(op.client, m.id, body), 422, 'validation_failed', [field, code]);
    await expectError(await restrict(op.client, op.id, BAN), 422, 'target_self');
    await expectError(await restrict(op.client, other.id, BAN), 422, 'target_operator');
    await expectError(await restrict(op.client, 999_999_999, BAN), 404, 'not_found');
    await expectError(await op.client.post('/api/operator/restrictions/999999999/lift', { reason: 'No such restriction here.' }), 404, 'not_found');
    await expectError(await op.client.post('/api/operator/restrictions/1/lift', { reason: 'x' }), 422, 'validation_failed', ['reason', 'too_short']);
    await expectError(await op.client.post('/api/operator/appeals/1/decide', { outcome: 'maybe', answer: 'An answer long enough.' }), 422, 'validation_failed', ['outcome', 'outcome_invalid']);
    await expectError(await op.client.post('/api/operator/appeals/999999999/decide', { outcome: 'upheld', answer: 'An answer long enough.' }), 404, 'not_found');
    expect({ r: await count('restrictions'), a: await count('audit_log'), t: await count('auth_tokens', 'user_id = ?', m.id) }).toEqual(before);
    expect((await m.client.me())?.id).toBe(m.id);
  });
});

describe('a suspension', () => {
  it('refuses logins until it ends, then ends by itself; a lift ends it early', async () => {
    const op = await operator();
    const m = await registerMember({ verified: true });
    const at = Math.floor(Date.now() / 1000);
    const r = await expectJson<{ restriction: { id: number; ends_at: number } }>(await restrict(op.client, m.id, { ...BAN, kind: 'suspension', reason_category: 'spam', days: 3 }), 201);
    expect(r.restriction.ends_at).toBeGreaterThanOrEqual(at + 3 * 86_400);
    expect(r.restriction.ends_at).toBeLessThanOrEqual(at + 3 * 86_400 + 5);
    expect(await m.client.me()).toBeNull();
    expect(await expectJson(await new Client().login(m.email, m.password), 422)).toEqual({ message: 'account_restricted', restriction: 'suspension', ends_at: r.restriction.ends_at });
    expect((await lastMail(m.email, 'restriction')).text).toContain('suspended your account until');
    await expectJson(await op.client.get(`/api/operator/users/${m.id}`), 200);

    // Three days later (the end moved into the past): the suspension is over by itself.
    await env.DB.prepare('UPDATE restrictions SET ends_at = ? WHERE id = ?').bind(Math.floor(Date.now() / 1000) - 1, r.restriction.id).run();
    const again = new Client();
    await expectJson(await again.login(m.email, m.password), 200);
    expect((await again.me())?.id).toBe(m.id);
    await expectError(await op.client.post(`/api/operator/restrictions/${r.restriction.id}/lift`, { reason: 'It is over anyway, nothing to lift.' }), 409, 'not_active');

    // A new suspension is lifted early: the login works again, the account is told, the lift is audited.
    const second = await expectJson<{ restriction: { id: number } }>(await restrict(op.client, m.id, { ...BAN, kind: 'suspension', reason_category: 'spam', days: 30 }), 201);
    expect(await again.me()).toBeNull();
    await expectJson(await op.client.post(`/api/operator/restrictions/${second.restriction.id}/lift`, { reason: 'Mistaken identity, sorry about that.' }), 200);
    await expectJson(await new Client().login(m.email, m.password), 200);
    expect((await lastMail(m.email, 'restriction_lifted')).text).toContain('Mistaken identity');
    expect(await auditRows('restriction.lifted', `user:${m.id}`)).toHaveLength(1);
    expect(await auditRows('account.suspended', `user:${m.id}`)).toHaveLength(2);
  });
});

describe('the statement and the appeal', () => {
  it('the account reads its statement by the mailed link, appeals once, and an operator lifts it on appeal', async () => {
    const op = await operator();
    const m = await registerMember({ verified: true });
    await expectJson(await restrict(op.client, m.id, BAN), 201);
    const token = await statementToken(m.email);
    const visitor = new Client();

    const statement = await expectJson<Statement>(await visitor.get(`/api/restrictions/${token}`), 200);
    expect(statement).toMatchObject({ name: m.name, can_appeal: true, restriction: { kind: 'ban', reason: BAN.reason, active: true } });
    expect(statement.restriction).not.toHaveProperty('created_by');
    const page = await visitor.get(`/account/restriction/${token}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('data-testid="appeal-form"');
    expect((await visitor.get('/account/restriction/not-a-real-token-at-all-0000')).status).toBe(404);
    await expectError(await visitor.get('/api/restrictions/not-a-real-token-at-all-0000'), 404, 'not_found');

    const text = 'I did not threaten anyone; the messages were a quote from a film.';
    await expectError(await visitor.post(`/api/restrictions/${token}/appeal`, { text: 'too short' }), 422, 'validation_failed', ['text', 'too_short']);
    await expectError(await visitor.post(`/api/restrictions/${token}/appeal`, { text: 'y'.repeat(4001) }), 422, 'validation_failed', ['text', 'too_long']);
    const appeal = await expectJson<{ appeal: { id: number } }>(await visitor.post(`/api/restrictions/${token}/appeal`, { text }), 201);
    await expectError(await visitor.post(`/api/restrictions/${token}/appeal`, { text }), 409, 'appeal_open');
    expect((await expectJson<Statement>(await visitor.get(`/api/restrictions/${token}`), 200)).can_appeal).toBe(false);

    const queue = await expectJson<{ data: OpenAppeal[] }>(await op.client.get('/api/operator/appeals'), 200);
    const ids = queue.data.map((a) => a.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(queue.data.find((a) => a.id === appeal.appeal.id)).toMatchObject({ text, user: { id: m.id }, restriction: { kind: 'ban' } });

    await expectError(await op.client.post(`/api/operator/appeals/${appeal.appeal.id}/decide`, { outcome: 'lifted', answer: 'short' }), 422, 'validation_failed', ['answer', 'too_short']);
    await expectJson(await op.client.post(`/api/operator/appeals/${appeal.appeal.id}/decide`, { outcome: 'lifted', answer: 'We checked the chat log: it was a quote.' }), 200);
    await expectError(await op.client.post(`/api/operator/appeals/${appeal.appeal.id}/decide`, { outcome: 'upheld', answer: 'Changing my mind here.' }), 409, 'already_decided');
    const back = new Client();
    await expectJson(await back.login(m.name, m.password), 200);
    expect((await back.me())?.id).toBe(m.id);
    expect((await lastMail(m.email, 'restriction_appeal_lifted')).text).toContain('We checked the chat log');
    expect(await auditRows('appeal.lifted', `user:${m.id}`)).toHaveLength(1);
    const summary = await expectJson<AccountSummary>(await op.client.get(`/api/operator/users/${m.id}`), 200);
    expect(summary.restrictions[0]).toMatchObject({ active: false, appeals: [{ id: appeal.appeal.id, outcome: 'lifted' }] });
    expect((await expectJson<{ data: OpenAppeal[] }>(await op.client.get('/api/operator/appeals'), 200)).data.map((a) => a.id)).not.toContain(appeal.appeal.id);
    // Over: no further appeal.
    await expectError(await visitor.post(`/api/restrictions/${token}/appeal`, { text }), 409, 'not_active');
  });

  it('an upheld appeal keeps the ban and tells the account; the search finds accounts by id, name and address', async () => {
    const op = await operator();
    const m = await registerMember({ verified: true });
    await expectJson(await restrict(op.client, m.id, BAN), 201);
    const token = await statementToken(m.email);
    const appeal = await expectJson<{ appeal: { id: number } }>(await new Client().post(`/api/restrictions/${token}/appeal`, { text: 'Please look at this again, it was a misunderstanding.' }), 201);
    await expectJson(await op.client.post(`/api/operator/appeals/${appeal.appeal.id}/decide`, { outcome: 'upheld', answer: 'The log shows repeated threats.' }), 200);
    expect(await expectJson(await new Client().login(m.name, m.password), 422)).toMatchObject({ message: 'account_restricted' });
    expect((await lastMail(m.email, 'restriction_appeal_upheld')).text).toContain('repeated threats');
    expect(await auditRows('appeal.upheld', `user:${m.id}`)).toHaveLength(1);
    for (const q of [String(m.id), m.name, m.email, m.name.slice(0, 6).toUpperCase()]) {
      const hits = await expectJson<{ data: { id: number; restricted: boolean }[] }>(await op.client.get(`/api/operator/users?q=${encodeURIComponent(q)}`), 200);
      expect(hits.data.find((h) => h.id === m.id), q).toMatchObject({ restricted: true });
    }
    expect((await op.client.get(`/operator/users?q=${encodeURIComponent(m.name)}`)).status).toBe(200);
    const accountPage = await op.client.get(`/operator/users/${m.id}`);
    expect(accountPage.status).toBe(200);
    expect(await accountPage.text()).toContain('data-testid="lift-form"');
    expect((await op.client.get('/operator/appeals')).status).toBe(200);
    expect((await op.client.get('/operator/users/999999999')).status).toBe(404);
  });
});
