import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import type { Session, User } from '../../src/shared/session';
import { count, DEMO, insertToken, lastMail, mailedToken, mailsTo, registerMember, sha256Hex, uniq } from './account-helpers';
import { Client, expectError, expectJson, setCookies } from './helpers';

// auth/* of docs/api-accounts.md: login (password), logout, user, send, reset, token_login, and
// the login throttle (8 failures per account, 40 per address, in 15 minutes).

// Generous: the suite runs many workerd instances at once, and PBKDF2 logins are CPU-bound.
vi.setConfig({ testTimeout: 60_000 });

interface Auth {
  user: User;
  session: Session;
}

describe('POST auth/login (password)', () => {
  it('logs in by username: user, session and an HttpOnly auth cookie tied to the session', async () => {
    const client = new Client();
    const res = await client.login(DEMO.name, DEMO.password);
    const body = await expectJson<Auth>(res, 200);
    expect(body.user).toMatchObject({ name: 'demo', email: DEMO.email, is_verified: true });
    expect(body.user).not.toHaveProperty('password_hash');
    expect(body.session.session_id).toBeTruthy();
    const line = setCookies(res).find((l) => l.startsWith('auth._token='));
    expect(line).toMatch(/HttpOnly/i);
    expect(line).toMatch(/Max-Age=172800/i);
    expect(line).toMatch(/SameSite=Lax/i);
    const token = decodeURIComponent(client.cookie('auth._token') ?? '');
    const row = await env.DB.prepare('SELECT user_id, session_id FROM auth_tokens WHERE token_hash = ?')
      .bind(await sha256Hex(token))
      .first<{ user_id: number; session_id: string }>();
    expect(row).toEqual({ user_id: body.user.id, session_id: body.session.session_id });
    // Only the hash is stored.
    expect(await count('auth_tokens', 'token_hash = ?', token)).toBe(0);
    expect((await client.me())?.name).toBe('demo');
  });

  it('logs in by e-mail, case-insensitively, and trims the login', async () => {
    for (const login of [DEMO.email, 'DEMO@Example.COM', '  demo@example.com  ', 'DeMo']) {
      const client = new Client();
      const body = await expectJson<Auth>(await client.login(login, DEMO.password), 200);
      expect(body.user.name, login).toBe('demo');
    }
  });

  it('401 unknown_credentials for a wrong password and for an unknown user (same answer)', async () => {
    const client = new Client();
    const wrong = await expectError(await client.login(DEMO.name, 'not-the-password'), 401, 'unknown_credentials');
    const unknown = await expectError(await client.login(`nobody-${uniq()}`, 'whatever-password'), 401, 'unknown_credentials');
    expect(wrong).toEqual(unknown);
    expect(client.cookie('auth._token')).toBeUndefined();
    expect(await client.me()).toBeNull();
  });

  it('422 user_blocked for a blocked member with the right password; a blocked member loses the auth cookie too', async () => {
    const m = await registerMember();
    expect(await m.client.me()).not.toBeNull();
    await env.DB.prepare('UPDATE users SET blocked = 1 WHERE id = ?').bind(m.id).run();
    expect(await m.client.me()).toBeNull();
    const other = new Client();
    await expectError(await other.login(m.email, m.password), 422, 'user_blocked');
    expect(other.cookie('auth._token')).toBeUndefined();
    // A wrong password still answers 401: the block is not revealed without the password.
    await expectError(await other.login(m.email, 'wrong-password'), 401, 'unknown_credentials');
  });

  it('422 with field errors for missing or oversize fields', async () => {
    const client = new Client();
    await expectError(await client.post('/api/auth/login', { username: 'demo' }), 422, 'validation_failed');
    await expectError(await client.post('/api/auth/login', { password: 'x' }), 422, 'validation_failed');
    await expectError(await client.post('/api/auth/login', { username: '   ', password: 'x' }), 422, 'validation_failed');
    await expectError(await client.post('/api/auth/login', { username: 'demo', password: 'x'.repeat(1025) }), 422, 'validation_failed');
  });
});

describe('GET auth/user', () => {
  it('401 unauthenticated when logged out, and for a made-up auth cookie', async () => {
    await expectError(await new Client().get('/api/auth/user'), 401, 'unauthenticated');
    const forged = new Client();
    forged.jar.set('auth._token', 'A'.repeat(43));
    await expectError(await forged.get('/api/auth/user'), 401, 'unauthenticated');
    const huge = new Client();
    huge.jar.set('auth._token', 'A'.repeat(5000));
    await expectError(await huge.get('/api/auth/user'), 401, 'unauthenticated');
  });

  it('401 once the auth token expired', async () => {
    const m = await registerMember();
    await env.DB.prepare('UPDATE auth_tokens SET expires_at = ? WHERE user_id = ?').bind(Math.floor(Date.now() / 1000) - 1, m.id).run();
    expect(await m.client.me()).toBeNull();
  });
});

describe('POST auth/logout', () => {
  it('clears the cookie and revokes the token server-side: a replayed copy gets 401', async () => {
    const client = new Client();
    await expectJson(await client.login(DEMO.name, DEMO.password), 200);
    const stolen = client.clone();
    expect((await stolen.me())?.name).toBe('demo');
    const token = decodeURIComponent(client.cookie('auth._token') ?? '');

    const res = await client.post('/api/auth/logout');
    const body = await expectJson<{ session: Session }>(res, 200);
    expect(body.session.session_id).toBeTruthy();
    expect(setCookies(res).some((l) => l.startsWith('auth._token=;') || /^auth\._token=.*Max-Age=0/i.test(l))).toBe(true);
    expect(client.cookie('auth._token')).toBeUndefined();
    expect(await count('auth_tokens', 'token_hash = ?', await sha256Hex(token))).toBe(0);

    await expectError(await stolen.get('/api/auth/user'), 401, 'unauthenticated');
    const row = await env.DB.prepare('SELECT user_id FROM sessions WHERE id = ?').bind(body.session.session_id).first<{ user_id: number | null }>();
    expect(row?.user_id).toBeNull();
  });

  it('is harmless when logged out', async () => {
    const body = await expectJson<{ session: Session }>(await new Client().post('/api/auth/logout'), 200);
    expect(body.session).toBeTruthy();
  });

  it('only ends this login: another device of the same member stays logged in', async () => {
    const m = await registerMember();
    const other = new Client();
    await expectJson(await other.login(m.name, m.password), 200);
    await expectJson(await m.client.post('/api/auth/logout'), 200);
    expect(await m.client.me()).toBeNull();
    expect((await other.me())?.id).toBe(m.id);
  });
});

describe('login throttle', () => {
  it('429 with Retry-After by the 9th wrong password for one account; then the right password is refused too', async () => {
    const m = await registerMember();
    const attacker = new Client();
    const statuses: number[] = [];
    let throttled: Response | null = null;
    for (let i = 0; i < 9; i++) {
      const res = await attacker.login(m.name, `wrong-${i}-password`);
      statuses.push(res.status);
      if (res.status === 429) {
        throttled = res;
        break;
      }
      await expectError(res, 401, 'unknown_credentials');
    }
    expect(statuses.length, statuses.join(',')).toBeLessThanOrEqual(9);
    expect(throttled, statuses.join(',')).not.toBeNull();
    const retry = Number(throttled?.headers.get('Retry-After'));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(15 * 60);
    await expectError(throttled as Response, 429, 'too_many_attempts');

    // The right password does not get through while throttled, from another address either.
    await expectError(await attacker.login(m.name, m.password), 429, 'too_many_attempts');
    const elsewhere = new Client();
    const res = await elsewhere.login(m.name, m.password);
    await expectError(res, 429, 'too_many_attempts');
    expect(Number(res.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(elsewhere.cookie('auth._token')).toBeUndefined();
  });

  it('counts the account, not the spelling of its login (name, e-mail, case)', async () => {
    const m = await registerMember();
    const attacker = new Client();
    const logins = [m.name, m.email, m.email.toUpperCase(), m.name.toUpperCase()];
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++) {
      const res = await attacker.login(logins[i % logins.length], `wrong-${i}-password`);
      statuses.push(res.status);
      await res.arrayBuffer();
      if (res.status === 429) break;
    }
    expect(statuses, statuses.join(',')).toContain(429);
    await expectError(await attacker.login(m.email, m.password), 429, 'too_many_attempts');
  });

  it('expires with the window: an old counter no longer blocks', async () => {
    const m = await registerMember();
    const attacker = new Client();
    for (let i = 0; i < 8; i++) await (await attacker.login(m.name, `wrong-${i}-password`)).arrayBuffer();
    await expectError(await attacker.login(m.name, m.password), 429, 'too_many_attempts');
    await env.DB.prepare("UPDATE throttle SET reset_at = ? WHERE key LIKE 'login:%'").bind(Math.floor(Date.now() / 1000) - 1).run();
    await expectJson(await new Client().login(m.name, m.password), 200);
  });

  it('limits one address across many account names (40 failures), other addresses unaffected', async () => {
    const attacker = new Client();
    let throttledAt = 0;
    for (let i = 1; i <= 45; i++) {
      const res = await attacker.login(`nobody-${uniq()}`, 'some-password');
      await res.arrayBuffer();
      if (res.status === 429) {
        throttledAt = i;
        expect(Number(res.headers.get('Retry-After'))).toBeGreaterThan(0);
        break;
      }
      expect(res.status).toBe(401);
    }
    expect(throttledAt).toBe(41);
    // Every account is refused from this address, the right password included ...
    await expectError(await attacker.login(DEMO.name, DEMO.password), 429, 'too_many_attempts');
    // ... while the member logs in fine from elsewhere.
    await expectJson(await new Client().login(DEMO.name, DEMO.password), 200);
  });
});

describe('POST auth/send (password reset mail)', () => {
  it('422 unknown_credentials for an unknown address and sends no mail', async () => {
    const before = await count('mails');
    const email = `nobody-${uniq()}@example.org`;
    await expectError(await new Client().post('/api/auth/send', { email }), 422, 'unknown_credentials');
    expect(await count('mails')).toBe(before);
  });

  it('mails a reset link for a known address or username', async () => {
    const m = await registerMember();
    const res = await new Client().post('/api/auth/send', { email: m.email.toUpperCase() });
    expect(await expectJson(res, 200)).toEqual({ sent: true });
    const mail = await lastMail(m.email, 'reset');
    expect(mail.text).toMatch(/http:\/\/localhost\/users\/reset\/[A-Za-z0-9_-]{40,}/);
    const first = await mailedToken(m.email, 'reset');
    expect(await expectJson(await new Client().post('/api/auth/send', { email: m.name }), 200)).toEqual({ sent: true });
    const second = await mailedToken(m.email, 'reset');
    expect(second).not.toBe(first);
    // Only hashes of tokens are stored.
    expect(await count('user_tokens', 'token_hash = ?', second)).toBe(0);
    expect(await count('user_tokens', 'token_hash = ? AND kind = ?', await sha256Hex(second), 'reset')).toBe(1);
  });

  it('422 user_blocked for a blocked member', async () => {
    const m = await registerMember();
    await env.DB.prepare('UPDATE users SET blocked = 1 WHERE id = ?').bind(m.id).run();
    await expectError(await new Client().post('/api/auth/send', { email: m.email }), 422, 'user_blocked');
    expect((await mailsTo(m.email)).filter((x) => x.kind === 'reset')).toHaveLength(0);
  });

  it('429 with Retry-After after 5 mails to one address within the hour', async () => {
    const m = await registerMember();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await new Client().post('/api/auth/send', { email: m.email })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const res = await new Client().post('/api/auth/send', { email: m.email });
    await expectError(res, 429, 'too_many_attempts');
    expect(Number(res.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect((await mailsTo(m.email)).filter((x) => x.kind === 'reset')).toHaveLength(5);
  });
});

describe('POST auth/reset', () => {
  async function requestReset() {
    const m = await registerMember();
    await expectJson(await new Client().post('/api/auth/send', { email: m.email }), 200);
    return { m, token: await mailedToken(m.email, 'reset') };
  }

  it('422 for a password mismatch or a short password, and the token stays usable', async () => {
    const { token } = await requestReset();
    const client = new Client();
    await expectError(
      await client.post('/api/auth/reset', { token, password: 'new-password-1', password_confirm: 'new-password-2' }),
      422,
      'validation_failed',
      ['password_confirm', 'password_mismatch'],
    );
    await expectError(await client.post('/api/auth/reset', { token, password: 'short', password_confirm: 'short' }), 422, 'validation_failed', [
      'password',
      'password_too_short',
    ]);
    await expectJson(await client.post('/api/auth/reset', { token, password: 'new-password-1', password_confirm: 'new-password-1' }), 200);
  });

  it('sets the password, logs in, revokes every other login of the account; the token works once', async () => {
    const { m, token } = await requestReset();
    const otherDevice = new Client();
    await expectJson(await otherDevice.login(m.name, m.password), 200);
    expect(await m.client.me()).not.toBeNull();

    const client = new Client();
    const res = await client.post('/api/auth/reset', { token, password: 'brand-new-pass', password_confirm: 'brand-new-pass' });
    const body = await expectJson<Auth>(res, 200);
    expect(body.user.id).toBe(m.id);
    // Following the mailed link proves the address.
    expect(body.user.is_verified).toBe(true);
    expect((await client.me())?.id).toBe(m.id);

    expect(await otherDevice.me()).toBeNull();
    expect(await m.client.me()).toBeNull();
    await expectError(await new Client().login(m.name, m.password), 401, 'unknown_credentials');
    await expectJson(await new Client().login(m.name, 'brand-new-pass'), 200);

    await expectError(
      await new Client().post('/api/auth/reset', { token, password: 'another-pass-1', password_confirm: 'another-pass-1' }),
      422,
      'token_invalid',
      ['token', 'token_invalid'],
    );
    await expectJson(await new Client().login(m.name, 'brand-new-pass'), 200);
  });

  it('422 token_invalid for an expired token, an unknown token, and a token of another kind', async () => {
    const { m, token } = await requestReset();
    await env.DB.prepare('UPDATE user_tokens SET expires_at = ? WHERE token_hash = ?').bind(Math.floor(Date.now() / 1000) - 1, await sha256Hex(token)).run();
    const body = { password: 'brand-new-pass', password_confirm: 'brand-new-pass' };
    await expectError(await new Client().post('/api/auth/reset', { token, ...body }), 422, 'token_invalid');
    await expectError(await new Client().post('/api/auth/reset', { token: 'x'.repeat(43), ...body }), 422, 'token_invalid');
    const verify = await mailedToken(m.email, 'verify');
    await expectError(await new Client().post('/api/auth/reset', { token: verify, ...body }), 422, 'token_invalid');
    await expectError(await new Client().post('/api/auth/reset', { token: 'short', ...body }), 422, 'validation_failed', ['token', 'token_invalid']);
    // The password did not change.
    await expectJson(await new Client().login(m.name, m.password), 200);
  });
});

describe('POST auth/token_login', () => {
  it('logs in with a one-time login token, once', async () => {
    const m = await registerMember();
    const token = await insertToken(m.id, 'login');
    const client = new Client();
    const body = await expectJson<Auth>(await client.post('/api/auth/token_login', { token }), 200);
    expect(body.user.id).toBe(m.id);
    expect((await client.me())?.id).toBe(m.id);
    await expectError(await new Client().post('/api/auth/token_login', { token }), 422, 'token_invalid');
  });

  it('422 token_invalid for expired, unknown or other-kind tokens', async () => {
    const m = await registerMember();
    const expired = await insertToken(m.id, 'login', -1);
    await expectError(await new Client().post('/api/auth/token_login', { token: expired }), 422, 'token_invalid');
    const reset = await insertToken(m.id, 'reset');
    await expectError(await new Client().post('/api/auth/token_login', { token: reset }), 422, 'token_invalid');
    await expectError(await new Client().post('/api/auth/token_login', { token: 'y'.repeat(43) }), 422, 'token_invalid');
  });
});
