import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import type { Session, User } from '../../src/shared/session';
import { count, counts, DEMO, registerMember, uniq, uniqueEmail, userRow } from './account-helpers';
import { Client, expectError, expectJson } from './helpers';
import { googleIdToken, untrustedKey } from './google-keys';

// POST auth/login with { credential, register? }: Google ID tokens, verified against the JWKS
// in GOOGLE_JWKS_JSON (a key pair made by vitest.workers.config.ts).

// Generous: the suite runs many workerd instances at once, and PBKDF2 logins are CPU-bound.
vi.setConfig({ testTimeout: 60_000 });

interface Auth {
  user: User;
  session: Session;
}

const login = (client: Client, credential: string, register?: boolean) =>
  client.post('/api/auth/login', register === undefined ? { credential } : { credential, register });

describe('third-party login (Google ID token)', () => {
  it('a valid token for an existing address logs that member in and links the Google account', async () => {
    const m = await registerMember();
    const sub = `sub-${uniq()}`;
    const client = new Client();
    const res = await login(client, await googleIdToken({ sub, email: m.email.toUpperCase() }));
    const body = await expectJson<Auth>(res, 200);
    expect(body.user.id).toBe(m.id);
    // Google vouches for the address.
    expect(body.user.is_verified).toBe(true);
    expect(client.cookie('auth._token')).toBeTruthy();
    expect((await client.me())?.id).toBe(m.id);
    expect((await userRow(m.id))?.google_sub).toBe(sub);

    // Linked by subject from now on, even after an e-mail change on either side.
    const again = await expectJson<Auth>(await login(new Client(), await googleIdToken({ sub, email: uniqueEmail('other') })), 200);
    expect(again.user.id).toBe(m.id);
  });

  it('logs the demo member in by e-mail', async () => {
    const body = await expectJson<Auth>(await login(new Client(), await googleIdToken({ email: DEMO.email })), 200);
    expect(body.user.name).toBe('demo');
  });

  it('422 google_not_registered with the e-mail when the address is unknown and register is not set; nothing stored', async () => {
    const email = uniqueEmail('g');
    const before = await counts();
    const client = new Client();
    for (const register of [undefined, false]) {
      const res = await login(client, await googleIdToken({ email }), register);
      expect(await expectJson(res, 422)).toEqual({ message: 'google_not_registered', email });
    }
    expect(await counts()).toEqual(before);
    expect(client.cookie('auth._token')).toBeUndefined();
  });

  it('register: true creates a member (201), verified when Google says so, with a free username', async () => {
    const email = uniqueEmail('g');
    const sub = `sub-${uniq()}`;
    const client = new Client();
    const before = await count('users');
    const res = await login(client, await googleIdToken({ sub, email, name: 'demo' }), true);
    const body = await expectJson<Auth>(res, 201);
    expect(body.user).toMatchObject({ email, is_verified: true });
    // "demo" is taken: another name is derived.
    expect(body.user.name).not.toBe('demo');
    expect(body.user.name).toMatch(/^[\p{L}\p{N}._-]{3,30}$/u);
    expect(await count('users')).toBe(before + 1);
    expect((await userRow(body.user.id))?.google_sub).toBe(sub);
    expect((await client.me())?.id).toBe(body.user.id);
    // Next time the same Google account just logs in.
    const next = await expectJson<Auth>(await login(new Client(), await googleIdToken({ sub, email }), true), 200);
    expect(next.user.id).toBe(body.user.id);
    expect(await count('users')).toBe(before + 1);
  });

  it('an unverified Google e-mail does not take over an existing account with that address', async () => {
    const m = await registerMember({ verified: true });
    const client = new Client();
    for (const register of [undefined, true]) {
      // 409 exists: the member logs in with the password instead (and may then link Google).
      await expectError(await login(client, await googleIdToken({ email: m.email, email_verified: false }), register), 409, 'exists');
    }
    expect(client.cookie('auth._token')).toBeUndefined();
    expect(await client.me()).toBeNull();
    expect((await userRow(m.id))?.google_sub).toBeNull();
  });

  it('an unverified Google e-mail that is new registers an unverified member', async () => {
    const email = uniqueEmail('g');
    const body = await expectJson<Auth>(await login(new Client(), await googleIdToken({ email, email_verified: false }), true), 201);
    expect(body.user).toMatchObject({ email, is_verified: false });
  });

  it('422 user_blocked for a blocked member', async () => {
    const m = await registerMember();
    await env.DB.prepare('UPDATE users SET blocked = 1 WHERE id = ?').bind(m.id).run();
    await expectError(await login(new Client(), await googleIdToken({ email: m.email })), 422, 'user_blocked');
  });

  it('401 credential_invalid for a wrong audience, a wrong issuer, a foreign signature, an expired token or garbage', async () => {
    const m = await registerMember();
    const foreign = await untrustedKey();
    const valid = await googleIdToken({ email: m.email });
    const [header, payload, signature] = valid.split('.');
    const tamperedPayload = btoa(JSON.stringify({ ...JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))), email: DEMO.email }))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '');
    const cases: Record<string, string> = {
      audience: await googleIdToken({ email: m.email, aud: 'someone-else.apps.googleusercontent.com' }),
      issuer: await googleIdToken({ email: m.email, iss: 'https://evil.example' }),
      signature: await googleIdToken({ email: m.email, key: foreign }),
      'signature, unknown kid': await googleIdToken({ email: m.email, key: foreign, kid: 'other-key' }),
      expired: await googleIdToken({ email: m.email, expiresIn: -120 }),
      'tampered payload': `${header}.${tamperedPayload}.${signature}`,
      'alg none': `${btoa(JSON.stringify({ alg: 'none', typ: 'JWT' })).replace(/=+$/, '')}.${payload}.`,
      garbage: 'x'.repeat(100),
    };
    const before = await counts();
    for (const [what, credential] of Object.entries(cases)) {
      const client = new Client();
      await expectError(await login(client, credential, true), 401, 'credential_invalid');
      expect(client.cookie('auth._token'), what).toBeUndefined();
    }
    expect(await counts()).toEqual(before);
    expect((await userRow(m.id))?.google_sub).toBeNull();
  });

  it('422 for a credential that is too short or too long', async () => {
    await expectError(await login(new Client(), 'short'), 422, 'validation_failed', ['credential', 'credential_invalid']);
    await expectError(await login(new Client(), 'x'.repeat(9000)), 422, 'validation_failed', ['credential', 'too_long']);
  });
});
