import { env } from 'cloudflare:workers';
import { Hono } from 'hono';
import { describe, expect, it, vi } from 'vitest';
import type { AppEnv } from '../../src/server/env';
import { requireVerified } from '../../src/server/features/session/session.service';
import { ApiError } from '../../src/server/lib/errors';
import type { Session, User } from '../../src/shared/session';
import { count, DEMO, mailedToken, mailsTo, PASSWORD, registerMember, uniq, uniqueEmail, userRow } from './account-helpers';
import { Client, expectError, expectJson } from './helpers';

// user/* of docs/api-accounts.md.

// Generous: the suite runs many workerd instances at once, and PBKDF2 logins are CPU-bound.
vi.setConfig({ testTimeout: 60_000 });

type UserBody = { user: User };

const nick = () => `n${uniq()}`.slice(0, 15);

describe('user/* when logged out', () => {
  it('answers 401 unauthenticated on every member route and changes nothing', async () => {
    const client = new Client();
    const calls: [string, string, unknown][] = [
      ['POST', '/api/user/email_validate', { token: 'x'.repeat(43) }],
      ['PUT', '/api/user/update_newsletter', { newsletter: true }],
      ['PUT', '/api/user/update', { locale: 'de' }],
      ['POST', '/api/user/reset_email', undefined],
      ['POST', '/api/user/nickname/add', { nickname: 'somebody' }],
      ['POST', '/api/user/nickname/activate/1', undefined],
      ['DELETE', '/api/user/nickname/remove/1', undefined],
      ['POST', '/api/user/cancel', { password: DEMO.password }],
    ];
    const before = await count('nicknames');
    for (const [method, path, body] of calls) {
      await expectError(await client.fetch(path, { method, body }), 401, 'unauthenticated');
    }
    expect(await count('nicknames')).toBe(before);
    // Logged out with a revoked cookie is the same.
    const m = await registerMember();
    const copy = m.client.clone();
    await expectJson(await m.client.post('/api/auth/logout'), 200);
    for (const [method, path, body] of calls) {
      await expectError(await copy.fetch(path, { method, body }), 401, 'unauthenticated');
    }
  });
});

describe('requireVerified (403 not_verified)', () => {
  // No route of the account API uses requireVerified yet (reported to the lead); its behaviour
  // is pinned here on a minimal app with the same error handling as the worker.
  function app(user: Partial<User> | null) {
    return new Hono<AppEnv>()
      .use(async (c, next) => {
        c.set('user', user as User | null);
        await next();
      })
      .get('/x', requireVerified, (c) => c.json({ ok: true }))
      .onError((err, c) => (err instanceof ApiError ? c.json({ message: err.message }, err.status as 401) : c.json({ message: 'server_error' }, 500)));
  }

  it('401 logged out, 403 unverified, passes verified members', async () => {
    expect(await (await app(null).request('/x')).json()).toEqual({ message: 'unauthenticated' });
    const unverified = await app({ id: 1, is_verified: false }).request('/x');
    expect(unverified.status).toBe(403);
    expect(await unverified.json()).toEqual({ message: 'not_verified' });
    const verified = await app({ id: 1, is_verified: true }).request('/x');
    expect(verified.status).toBe(200);
  });
});

describe('POST user/email_validate', () => {
  it('verifies the logged-in member with their mailed token, once (again: already confirmed)', async () => {
    const m = await registerMember();
    const token = await mailedToken(m.email, 'verify');
    const body = await expectJson<UserBody>(await m.client.post('/api/user/email_validate', { token }), 200);
    expect(body.user.is_verified).toBe(true);
    expect((await userRow(m.id))?.is_verified).toBe(1);
    // Issue 9 point 17: a used link of a verified member says "already confirmed", not "invalid".
    expect(await expectJson(await m.client.post('/api/user/email_validate', { token }), 200)).toMatchObject({ status: 'already_verified' });
  });

  it("422 token_invalid for another member's token: it does not verify either account", async () => {
    const a = await registerMember();
    const b = await registerMember();
    const tokenB = await mailedToken(b.email, 'verify');
    await expectError(await a.client.post('/api/user/email_validate', { token: tokenB }), 422, 'token_invalid', ['token', 'token_invalid']);
    expect((await userRow(a.id))?.is_verified).toBe(0);
    expect((await userRow(b.id))?.is_verified).toBe(0);
  });
});

describe('PUT user/update_newsletter', () => {
  it('switches the newsletter on and off', async () => {
    const m = await registerMember();
    expect((await expectJson<UserBody>(await m.client.put('/api/user/update_newsletter', { newsletter: true }), 200)).user.newsletter).toBe(true);
    expect((await userRow(m.id))?.newsletter).toBe(1);
    expect((await expectJson<UserBody>(await m.client.put('/api/user/update_newsletter', { newsletter: false }), 200)).user.newsletter).toBe(false);
    expect((await userRow(m.id))?.newsletter).toBe(0);
  });

  it('422 for a non-boolean', async () => {
    const m = await registerMember();
    for (const newsletter of ['true', 1, null]) {
      await expectError(await m.client.put('/api/user/update_newsletter', { newsletter }), 422, 'validation_failed', ['newsletter', 'invalid_type']);
    }
    await expectError(await m.client.put('/api/user/update_newsletter', {}), 422, 'validation_failed');
  });
});

describe('PUT user/update', () => {
  it('changes the locale without the current password', async () => {
    const m = await registerMember();
    await expectJson(await m.client.put('/api/user/update', { locale: 'de' }), 200);
    expect((await userRow(m.id))?.locale).toBe('de');
    await expectError(await m.client.put('/api/user/update', { locale: 'fr' }), 422, 'validation_failed', ['locale', 'invalid_value']);
  });

  it('an e-mail change needs the current password, resets is_verified and mails the new address', async () => {
    const m = await registerMember({ verified: true });
    const next = uniqueEmail('new');
    await expectError(await m.client.put('/api/user/update', { email: next }), 422, 'validation_failed', ['current_password', 'required']);
    await expectError(await m.client.put('/api/user/update', { email: next, current_password: 'wrong-password' }), 422, 'wrong_password', [
      'current_password',
      'wrong_password',
    ]);
    expect((await userRow(m.id))?.email).toBe(m.email);

    const body = await expectJson<UserBody>(await m.client.put('/api/user/update', { email: next, current_password: m.password }), 200);
    expect(body.user).toMatchObject({ email: next, is_verified: false });
    expect(await userRow(m.id)).toMatchObject({ email: next, is_verified: 0 });
    expect((await mailsTo(next)).map((x) => x.kind)).toEqual(['verify']);
    // The new address logs in; the old one no longer does.
    await expectJson(await new Client().login(next, m.password), 200);
    await expectError(await new Client().login(m.email, m.password), 401, 'unknown_credentials');
    // The link in the mail verifies the new address.
    const token = await mailedToken(next, 'verify');
    expect((await expectJson<UserBody>(await m.client.post('/api/user/email_validate', { token }), 200)).user.is_verified).toBe(true);
  });

  it("422 exists for another member's address (any case) and for an invalid one; the same address changes nothing", async () => {
    const a = await registerMember({ verified: true });
    const b = await registerMember();
    await expectError(await a.client.put('/api/user/update', { email: b.email.toUpperCase(), current_password: a.password }), 422, 'validation_failed', [
      'email',
      'exists',
    ]);
    await expectError(await a.client.put('/api/user/update', { email: 'nope', current_password: a.password }), 422, 'validation_failed', ['email', 'email_invalid']);
    const mails = (await mailsTo(a.email)).length;
    const same = await expectJson<UserBody>(await a.client.put('/api/user/update', { email: a.email.toUpperCase(), current_password: a.password }), 200);
    expect(same.user.is_verified).toBe(true);
    expect((await mailsTo(a.email)).length).toBe(mails);
  });

  it('a password change requires the right current password and matching confirmation', async () => {
    const m = await registerMember();
    const next = 'a-new-password-9';
    await expectError(await m.client.put('/api/user/update', { password: next, password_confirm: next }), 422, 'validation_failed', [
      'current_password',
      'required',
    ]);
    await expectError(await m.client.put('/api/user/update', { password: next, password_confirm: next, current_password: 'wrong-password' }), 422, 'wrong_password');
    await expectError(
      await m.client.put('/api/user/update', { password: next, password_confirm: 'different-1', current_password: m.password }),
      422,
      'validation_failed',
      ['password_confirm', 'password_mismatch'],
    );
    await expectError(await m.client.put('/api/user/update', { password: 'short', password_confirm: 'short', current_password: m.password }), 422, 'validation_failed', [
      'password',
      'password_too_short',
    ]);
    await expectJson(await new Client().login(m.name, m.password), 200);

    await expectJson(await m.client.put('/api/user/update', { password: next, password_confirm: next, current_password: m.password }), 200);
    await expectError(await new Client().login(m.name, m.password), 401, 'unknown_credentials');
    await expectJson(await new Client().login(m.name, next), 200);
    // The member stays logged in on this device.
    expect((await m.client.me())?.id).toBe(m.id);
  });
});

describe('POST user/reset_email', () => {
  it('mails the verification link again; a second call within 60 s is 429 with Retry-After', async () => {
    const m = await registerMember();
    expect((await mailsTo(m.email)).length).toBe(1);
    expect(await expectJson(await m.client.post('/api/user/reset_email'), 200)).toEqual({ sent: true });
    expect((await mailsTo(m.email)).map((x) => x.kind)).toEqual(['verify', 'verify']);

    const res = await m.client.post('/api/user/reset_email');
    await expectError(res, 429, 'too_many_attempts');
    const retry = Number(res.headers.get('Retry-After'));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(60);
    expect((await mailsTo(m.email)).length).toBe(2);

    // Once the window has passed it works again; each mailed token verifies.
    await env.DB.prepare('UPDATE throttle SET reset_at = ? WHERE key = ?').bind(Math.floor(Date.now() / 1000) - 1, `verify-mail:${m.id}`).run();
    await expectJson(await m.client.post('/api/user/reset_email'), 200);
    const token = await mailedToken(m.email, 'verify');
    expect((await expectJson<UserBody>(await m.client.post('/api/register/validate', { token }), 200)).user.is_verified).toBe(true);
  });
});

describe('user/nickname/*', () => {
  it('add makes the new one current; activate switches; remove of the current one falls back to the oldest', async () => {
    const m = await registerMember({ verified: true });
    const [n1, n2, n3] = [nick(), nick(), nick()];
    const a = await expectJson<UserBody>(await m.client.post('/api/user/nickname/add', { nickname: n1 }), 200);
    const id1 = a.user.nicknames.data.find((x) => x.nickname === n1)?.id as number;
    expect(a.user.nicknames.current_nickname).toBe(id1);
    const b = await expectJson<UserBody>(await m.client.post('/api/user/nickname/add', { nickname: n2 }), 200);
    const id2 = b.user.nicknames.data.find((x) => x.nickname === n2)?.id as number;
    expect(b.user.nicknames.current_nickname).toBe(id2);
    const c = await expectJson<UserBody>(await m.client.post('/api/user/nickname/add', { nickname: `  ${n3}  ` }), 200);
    const id3 = c.user.nicknames.data.find((x) => x.nickname === n3)?.id as number;
    expect(c.user.nicknames.data.map((x) => x.nickname)).toEqual([n1, n2, n3]);

    const act = await expectJson<UserBody>(await m.client.post(`/api/user/nickname/activate/${id2}`), 200);
    expect(act.user.nicknames.current_nickname).toBe(id2);
    expect((await m.client.me())?.nicknames.current_nickname).toBe(id2);

    // Removing a nickname that is not current keeps the current one.
    const r3 = await expectJson<UserBody>(await m.client.del(`/api/user/nickname/remove/${id3}`), 200);
    expect(r3.user.nicknames).toEqual({ data: [{ id: id1, nickname: n1 }, { id: id2, nickname: n2 }], current_nickname: id2 });
    // Removing the current one falls back to the oldest remaining.
    const r2 = await expectJson<UserBody>(await m.client.del(`/api/user/nickname/remove/${id2}`), 200);
    expect(r2.user.nicknames).toEqual({ data: [{ id: id1, nickname: n1 }], current_nickname: id1 });
    const r1 = await expectJson<UserBody>(await m.client.del(`/api/user/nickname/remove/${id1}`), 200);
    expect(r1.user.nicknames).toEqual({ data: [], current_nickname: null });
    await expectError(await m.client.del(`/api/user/nickname/remove/${id1}`), 404, 'not_found');
  });

  it('422 nickname_pattern for bad nicknames', async () => {
    const m = await registerMember({ verified: true });
    for (const nickname of ['ab', 'x'.repeat(16), 'bad name!', '', '<b>hi</b>', 'a/b/c', 123]) {
      const err = await expectError(await m.client.post('/api/user/nickname/add', { nickname }), 422, 'validation_failed');
      expect(err.errors, String(nickname)).toEqual({ nickname: [typeof nickname === 'string' ? 'nickname_pattern' : 'invalid_type'] });
    }
    expect(await count('nicknames', 'user_id = ?', m.id)).toBe(0);
  });

  it('422 nickname_taken for a nickname or username of another member (any case)', async () => {
    const a = await registerMember({ verified: true });
    const b = await registerMember({ verified: true });
    const n = nick();
    await expectJson(await a.client.post('/api/user/nickname/add', { nickname: n }), 200);
    await expectError(await b.client.post('/api/user/nickname/add', { nickname: n }), 422, 'validation_failed', ['nickname', 'nickname_taken']);
    await expectError(await b.client.post('/api/user/nickname/add', { nickname: n.toUpperCase() }), 422, 'validation_failed', ['nickname', 'nickname_taken']);
    await expectError(await b.client.post('/api/user/nickname/add', { nickname: 'demo' }), 422, 'validation_failed', ['nickname', 'nickname_taken']);
    if (a.name.length <= 15) {
      await expectError(await b.client.post('/api/user/nickname/add', { nickname: a.name }), 422, 'validation_failed', ['nickname', 'nickname_taken']);
    }
    // Twice the own nickname is taken as well.
    await expectError(await a.client.post('/api/user/nickname/add', { nickname: n }), 422, 'validation_failed', ['nickname', 'nickname_taken']);
    expect(await count('nicknames', 'user_id = ?', b.id)).toBe(0);
    expect(await count('nicknames', 'user_id = ?', a.id)).toBe(1);
  });

  it("404 for activating or removing another member's nickname (nothing changes)", async () => {
    const a = await registerMember({ verified: true });
    const b = await registerMember({ verified: true });
    const body = await expectJson<UserBody>(await a.client.post('/api/user/nickname/add', { nickname: nick() }), 200);
    const id = body.user.nicknames.data[0].id;
    await expectError(await b.client.post(`/api/user/nickname/activate/${id}`), 404, 'not_found');
    await expectError(await b.client.del(`/api/user/nickname/remove/${id}`), 404, 'not_found');
    expect(await count('nicknames', 'id = ? AND user_id = ?', id, a.id)).toBe(1);
    expect((await userRow(b.id))?.current_nickname_id).toBeNull();
    expect((await userRow(a.id))?.current_nickname_id).toBe(id);
    await expectError(await b.client.post('/api/user/nickname/activate/999999999'), 404, 'not_found');
    await expectError(await b.client.post('/api/user/nickname/activate/abc'), 422, 'validation_failed', ['id', 'id_invalid']);
    await expectError(await b.client.del('/api/user/nickname/remove/1e3'), 422, 'validation_failed');
    await expectError(await b.client.del(`/api/user/nickname/remove/${'9'.repeat(30)}`), 422, 'validation_failed');
  });

  it('422 nickname_limit beyond 10 nicknames', async () => {
    const m = await registerMember({ verified: true });
    for (let i = 0; i < 10; i++) await expectJson(await m.client.post('/api/user/nickname/add', { nickname: nick() }), 200);
    await expectError(await m.client.post('/api/user/nickname/add', { nickname: nick() }), 422, 'validation_failed', ['nickname', 'nickname_limit']);
    expect(await count('nicknames', 'user_id = ?', m.id)).toBe(10);
  });
});

describe('POST user/cancel', () => {
  it('422 wrong_password leaves the account alone', async () => {
    const m = await registerMember();
    await expectError(await m.client.post('/api/user/cancel', { password: 'wrong-password' }), 422, 'wrong_password');
    await expectError(await m.client.post('/api/user/cancel', {}), 422, 'validation_failed', ['password', 'invalid_type']);
    await expectError(await m.client.post('/api/user/cancel', { password: '' }), 422, 'validation_failed', ['password', 'required']);
    expect((await userRow(m.id))?.cancelled_at).toBeNull();
    expect(await m.client.me()).not.toBeNull();
  });

  it('anonymises the account and logs out everywhere: e-mail gone, login and auth cookies refused', async () => {
    const m = await registerMember({ verified: true });
    await expectJson(await m.client.post('/api/user/nickname/add', { nickname: nick() }), 200);
    await expectJson(await m.client.put('/api/user/update_newsletter', { newsletter: true }), 200);
    const otherDevice = new Client();
    await expectJson(await otherDevice.login(m.email, m.password), 200);
    const stolen = m.client.clone();

    const res = await m.client.post('/api/user/cancel', { password: m.password });
    const body = await expectJson<{ session: Session }>(res, 200);
    expect(body.session).toBeTruthy();
    expect(m.client.cookie('auth._token')).toBeUndefined();

    const row = await userRow(m.id);
    expect(row).toMatchObject({ name: `deleted-${m.id}`, email: `deleted-${m.id}@invalid`, newsletter: 0, current_nickname_id: null });
    expect(row?.cancelled_at).toBeTypeOf('number');
    expect(row?.password_hash).toBe('!');
    expect(await count('users', 'email = ? OR name = ?', m.email, m.name)).toBe(0);
    expect(await count('nicknames', 'user_id = ?', m.id)).toBe(0);
    expect(await count('auth_tokens', 'user_id = ?', m.id)).toBe(0);
    expect(await count('user_tokens', 'user_id = ?', m.id)).toBe(0);

    await expectError(await new Client().login(m.email, m.password), 401, 'unknown_credentials');
    await expectError(await new Client().login(m.name, m.password), 401, 'unknown_credentials');
    await expectError(await stolen.get('/api/auth/user'), 401, 'unauthenticated');
    await expectError(await otherDevice.get('/api/auth/user'), 401, 'unauthenticated');
    await expectError(await new Client().post('/api/auth/send', { email: m.email }), 422, 'unknown_credentials');
    // The address is free again.
    await expectJson(await new Client().post('/api/register', { email: m.email, password: PASSWORD, terms_check: true }), 201);
  });
});

describe('POST user/log', () => {
  it('204 logged out and logged in (the member is noted)', async () => {
    const before = await count('user_logs');
    const res = await new Client().post('/api/user/log', { version: '1.2.3', errors: [{ message: 'boom' }] });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    const m = await registerMember();
    expect((await m.client.post('/api/user/log', { memberid: m.id, version: '1.2.3', errors: [] })).status).toBe(204);
    expect(await count('user_logs')).toBe(before + 2);
    expect(await count('user_logs', 'user_id = ?', m.id)).toBe(1);
  });

  it('422 for a missing version, too many errors or a bad memberid', async () => {
    const client = new Client();
    const before = await count('user_logs');
    await expectError(await client.post('/api/user/log', { errors: [] }), 422, 'validation_failed', ['version', 'invalid_type']);
    await expectError(await client.post('/api/user/log', { version: 'x'.repeat(65), errors: [] }), 422, 'validation_failed', ['version', 'too_long']);
    await expectError(await client.post('/api/user/log', { version: '1', errors: Array.from({ length: 51 }, () => 1) }), 422, 'validation_failed');
    await expectError(await client.post('/api/user/log', { version: '1', errors: [], memberid: -3 }), 422, 'validation_failed');
    await expectError(await client.post('/api/user/log', { version: '1', errors: 'nope' }), 422, 'validation_failed');
    expect(await count('user_logs')).toBe(before);
  });
});

describe('verification-only calls', () => {
  it('nickname calls answer 403 not_verified to unverified members', async () => {
    const m = await registerMember();
    const res = await m.client.post('/api/user/nickname/add', { nickname: nick() });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ message: 'not_verified' });
  });
});
