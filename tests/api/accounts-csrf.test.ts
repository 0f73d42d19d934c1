import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import type { User } from '../../src/shared/session';
import { DEMO, insertToken, mailedToken, type Member, registerMember, uniq, uniqueEmail } from './account-helpers';
import { Client, expectError, expectJson } from './helpers';

// Every POST, PUT and DELETE of the account API without a matching X-XSRF-TOKEN header answers
// 419 csrf_token_mismatch and changes nothing, even with a body that would otherwise succeed.

// Generous: the suite runs many workerd instances at once, and PBKDF2 logins are CPU-bound.
vi.setConfig({ testTimeout: 60_000 });

const TABLES = ['users', 'nicknames', 'user_tokens', 'mails', 'auth_tokens', 'coupons', 'user_logs', 'sessions', 'throttle'];

interface Fixture {
  member: Member;
  nicknameIds: number[];
  verifyToken: string;
  resetToken: string;
  loginToken: string;
}

type Write = [method: 'POST' | 'PUT' | 'DELETE', path: (f: Fixture) => string, body: (f: Fixture) => unknown];

const WRITES: Write[] = [
  ['POST', () => '/api/session/splash18', () => undefined],
  ['POST', () => '/api/session/vid', () => ({ vid: 'visitor-12345678', confidence: 0.9 })],
  ['POST', () => '/api/session/welcome_shown', () => undefined],
  ['POST', () => '/api/session/incentive_tsp', () => ({ incentive_tsp: 1_800_000_000 })],
  ['POST', () => '/api/auth/login', () => ({ username: DEMO.name, password: DEMO.password })],
  ['POST', () => '/api/auth/login', (f) => ({ username: f.member.name, password: 'wrong-password' })],
  ['POST', () => '/api/auth/logout', () => undefined],
  ['POST', () => '/api/register', () => ({ email: uniqueEmail('csrf'), password: 'a-password-123', terms_check: true })],
  ['POST', () => '/api/register/coupon', () => ({ code: 'WELCOME50' })],
  ['POST', () => '/api/register/validate', (f) => ({ token: f.verifyToken })],
  ['POST', () => '/api/auth/send', (f) => ({ email: f.member.email })],
  ['POST', () => '/api/auth/reset', (f) => ({ token: f.resetToken, password: 'hijacked-pass-1', password_confirm: 'hijacked-pass-1' })],
  ['POST', () => '/api/auth/token_login', (f) => ({ token: f.loginToken })],
  ['POST', () => '/api/user/email_validate', (f) => ({ token: f.verifyToken })],
  ['PUT', () => '/api/user/update_newsletter', () => ({ newsletter: true })],
  ['PUT', () => '/api/user/update', (f) => ({ email: uniqueEmail('csrf'), current_password: f.member.password, locale: 'de' })],
  ['PUT', () => '/api/user/update', (f) => ({ password: 'hijacked-pass-1', password_confirm: 'hijacked-pass-1', current_password: f.member.password })],
  ['POST', () => '/api/user/reset_email', () => undefined],
  ['POST', () => '/api/user/nickname/add', () => ({ nickname: `c${uniq()}`.slice(0, 15) })],
  ['POST', (f) => `/api/user/nickname/activate/${f.nicknameIds[0]}`, () => undefined],
  ['DELETE', (f) => `/api/user/nickname/remove/${f.nicknameIds[1]}`, () => undefined],
  ['POST', () => '/api/user/cancel', (f) => ({ password: f.member.password })],
  ['POST', () => '/api/user/log', () => ({ version: '1.0.0', errors: ['x'] })],
  ['POST', () => '/api/log', () => ({ entries: [{ created: 1, message: 'm' }] })],
];

async function fixture(): Promise<Fixture> {
  const member = await registerMember({ verified: true });
  const verifyToken = await mailedToken(member.email, 'verify');
  const resetToken = await insertToken(member.id, 'reset');
  const loginToken = await insertToken(member.id, 'login');
  const nicknameIds: number[] = [];
  for (let i = 0; i < 2; i++) {
    const body = await expectJson<{ user: User }>(await member.client.post('/api/user/nickname/add', { nickname: `c${uniq()}`.slice(0, 15) }), 200);
    nicknameIds.push(body.user.nicknames.current_nickname as number);
  }
  return { member, nicknameIds, verifyToken, resetToken, loginToken };
}

async function snapshot(f: Fixture) {
  const results = await env.DB.batch([
    ...TABLES.map((t) => env.DB.prepare(`SELECT COUNT(*) AS n FROM ${t}`)),
    env.DB.prepare('SELECT * FROM users WHERE id = ?').bind(f.member.id),
    env.DB.prepare('SELECT * FROM sessions WHERE user_id = ? ORDER BY id').bind(f.member.id),
    env.DB.prepare('SELECT * FROM user_tokens WHERE user_id = ? ORDER BY token_hash').bind(f.member.id),
    env.DB.prepare('SELECT * FROM nicknames WHERE user_id = ? ORDER BY id').bind(f.member.id),
    env.DB.prepare('SELECT * FROM throttle ORDER BY key'),
  ]);
  return results.map((r) => r.results);
}

describe('CSRF on every write of the account API', () => {
  it('419 without the X-XSRF-TOKEN header, with a wrong one, or without the cookie; nothing changes', async () => {
    const f = await fixture();
    const client = f.member.client;
    await client.csrf();
    const token = client.cookie('XSRF-TOKEN') as string;
    const withoutCookie = client.clone();
    withoutCookie.jar.delete('XSRF-TOKEN');

    const variants: [string, Client, Record<string, string>][] = [
      ['no header', client, {}],
      ['wrong header', client, { 'X-XSRF-TOKEN': `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}` }],
      ['empty header', client, { 'X-XSRF-TOKEN': '' }],
      ['no cookie', withoutCookie, { 'X-XSRF-TOKEN': token }],
      ['short cookie and header', withoutCookie, { 'X-XSRF-TOKEN': 'abc', Cookie: `${withoutCookie.cookieHeader}; XSRF-TOKEN=abc` }],
    ];

    for (const [method, path, body] of WRITES) {
      for (const [variant, c, headers] of variants) {
        const p = path(f);
        const before = await snapshot(f);
        const res = await c.fetch(p, { method, body: body(f), headers, csrf: false });
        await expectError(res, 419, 'csrf_token_mismatch');
        expect(res.headers.get('Set-Cookie') ?? '', `${method} ${p} (${variant})`).not.toMatch(/auth\._token=/);
        expect(await snapshot(f), `${method} ${p} (${variant})`).toEqual(before);
      }
    }

    // Still logged in, nothing of the member changed, and the tokens all still work.
    expect((await client.me())?.id).toBe(f.member.id);
    await expectJson(await new Client().post('/api/auth/token_login', { token: f.loginToken }), 200);
    await expectJson(await new Client().post('/api/register/validate', { token: f.verifyToken }), 200);
    await expectJson(await new Client().login(f.member.name, f.member.password), 200);
  });

  it('the same writes pass the CSRF check with the header (sanity check of the list)', async () => {
    const f = await fixture();
    for (const [method, path, body] of WRITES) {
      const res = await f.member.client.fetch(path(f), { method, body: body(f) });
      expect(res.status, `${method} ${path(f)}`).not.toBe(419);
      expect(res.status, `${method} ${path(f)}`).toBeLessThan(500);
      await res.arrayBuffer();
    }
  });
});
