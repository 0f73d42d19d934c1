import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import { makeState, resultSignature } from '../../src/server/features/avs/provider';
import type { Session, User } from '../../src/shared/session';
import { count, DEMO, insertToken, mailedToken, mailsTo, registerMember, uniqueEmail, userRow } from './account-helpers';
import { BASE, Client, dispatchWith, expectError, expectJson, setCookies, writeWith } from './helpers';

// Issue 9, points 1, 2, 5, 6, 7 and 8 (and the "already confirmed" of 17): planted and open
// redirects, links that outlive a reset, the Host header in mails, login/logout CSRF, session
// fixation and the session-bound CSRF token.

vi.setConfig({ testTimeout: 60_000 });

/** The open-redirect variants of the issue; each must end on our own `/`. */
const HOSTILE = ['/\t/evil.example', '/%09/evil.example', '//evil.example', 'https://evil.example', '/a%0ab', 'javascript:alert(1)'];
/** The same, as they arrive in a raw query string (a browser decodes %09 to TAB, %0a to LF). */
const RAW_QUERIES = ['/%09/evil.example', '/a%0ab', '%2F%09%2Fevil.example', '/%0d%0aSet-Cookie:%20x=1', '/a%00b'];

const sid = (client: Client) => decodeURIComponent(client.cookie('lc_sid') ?? '').split('.')[0];

async function pageView(client: Client, path = '/faq'): Promise<Response> {
  const res = await client.get(path);
  await res.arrayBuffer();
  return res;
}

function islandProps(html: string, name: string): Record<string, unknown> {
  const raw = new RegExp(`data-island="${name}" data-props="([^"]*)"`).exec(html)?.[1];
  expect(raw, `island ${name}`).toBeTruthy();
  return JSON.parse((raw as string).replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&'));
}


describe('point 1: no redirect planted by a GET; stored text never breaks a header', () => {
  it('session/init stores nothing from its query, whatever the value', async () => {
    for (const value of ['/faq', ...HOSTILE]) {
      const client = new Client();
      const body = await expectJson<{ session: Session }>(await client.get(`/api/session/init?redirect_splash=${encodeURIComponent(value)}`), 200);
      expect(body.session.redirect_splash, value).toBeNull();
      const row = await env.DB.prepare('SELECT redirect_splash FROM sessions WHERE id = ?').bind(body.session.session_id).first<{ redirect_splash: string | null }>();
      expect(row?.redirect_splash, value).toBeNull();
      const page = await client.get('/shows/all-shows');
      expect(page.status, value).toBe(200);
      expect(page.headers.get('Location')).toBeNull();
      await page.arrayBuffer();
    }
    for (const raw of RAW_QUERIES) {
      const client = new Client();
      const body = await expectJson<{ session: Session }>(await client.get(`/api/session/init?redirect_splash=${raw}`), 200);
      expect(body.session.redirect_splash, raw).toBeNull();
    }
  });

  it('a stored splash target with CR, LF, NUL, TAB or another host is ignored: pages render (no 500), also logged in', async () => {
    for (const stored of ['/a\nb', '/a\r\nSet-Cookie: x=1', '/a\u0000b', '/\t/evil.example', '//evil.example', 'https://evil.example/']) {
      const client = new Client();
      await expectJson(await client.get('/api/session/init'), 200);
      await env.DB.prepare('UPDATE sessions SET redirect_splash = ? WHERE id = ?').bind(stored, sid(client)).run();
      const page = await client.get('/shows/all-shows');
      expect(page.status, JSON.stringify(stored)).toBe(200);
      expect(page.headers.get('Location')).toBeNull();
      await page.arrayBuffer();
      await expectJson(await client.login(DEMO.name, DEMO.password), 200);
      await env.DB.prepare('UPDATE sessions SET redirect_splash = ? WHERE id = ?').bind(stored, sid(client)).run();
      const member = await client.get('/faq?x=1');
      expect(member.status, JSON.stringify(stored)).toBe(200);
      await member.arrayBuffer();
    }
  });

  it('a target the server sets still works', async () => {
    const client = new Client();
    await expectJson(await client.get('/api/session/init'), 200);
    await env.DB.prepare("UPDATE sessions SET redirect_splash = '/faq?from=partner' WHERE id = ?").bind(sid(client)).run();
    const res = await client.get('/shows/all-shows');
    expect(res.status).toBe(302);
    expect(res.headers.get('Location')).toBe('/faq?from=partner');
  });
});

describe('point 2: every redirect target goes through safeRedirect', () => {
  it('/login?redirect= keeps own paths only', async () => {
    const ok = await (await new Client().get(`/login?redirect=${encodeURIComponent('/users/profile/coupons?x=1')}`)).text();
    expect(islandProps(ok, 'LoginScreen').redirect).toBe('/users/profile/coupons?x=1');
    for (const value of HOSTILE) {
      const html = await (await new Client().get(`/login?redirect=${encodeURIComponent(value)}`)).text();
      expect(islandProps(html, 'LoginScreen').redirect, value).toBeNull();
    }
    for (const raw of RAW_QUERIES) {
      const res = await new Client().get(`/login?redirect=${raw}`);
      expect(res.status, raw).toBe(200);
      expect(islandProps(await res.text(), 'LoginScreen').redirect, raw).toBeNull();
    }
  });

  async function passCheck(client: Client, query: string): Promise<Response> {
    const start = await client.get(`/avs?${query}`);
    expect(start.status, query).toBe(302);
    const sandbox = await client.get(start.headers.get('Location') ?? '');
    const html = await sandbox.text();
    const pass = /href="([^"]+)"[^>]*data-action="avs-pass"/.exec(html)?.[1]?.replace(/&amp;/g, '&') ?? '';
    expect(pass, query).toMatch(/^\/avs\/callback\?/);
    return client.get(pass);
  }

  it('/avs?target= returns home after the check for every hostile target (302 /, never 500)', async () => {
    const ok = await passCheck(new Client(), `kjm=0&target=${encodeURIComponent('/videos?page=2')}`);
    expect(ok.headers.get('Location')).toBe('/videos?page=2');
    for (const value of HOSTILE) {
      const res = await passCheck(new Client(), `kjm=0&target=${encodeURIComponent(value)}`);
      expect(res.status, value).toBe(302);
      expect(res.headers.get('Location'), value).toBe('/');
    }
    for (const raw of RAW_QUERIES) {
      const res = await passCheck(new Client(), `kjm=0&target=${raw}`);
      expect(res.status, raw).toBe(302);
      expect(res.headers.get('Location'), raw).toBe('/');
    }
  });

  it('the AVS callback answers a signed state whose target carries CR, LF or NUL with 302 / (was 500)', async () => {
    for (const target of ['/a\nb', '/a\r\nSet-Cookie: x=1', '/a\u0000b', '/\t/evil.example']) {
      const client = new Client();
      await expectJson(await client.get('/api/session/init'), 200);
      const state = await makeState(env, { sid: sid(client), target, exp: Math.floor(Date.now() / 1000) + 600, kjm: false });
      for (const result of ['pass', 'fail'] as const) {
        const res = await client.get(`/avs/callback?${new URLSearchParams({ state, result, sig: await resultSignature(env, state, result) })}`);
        expect(res.status, `${JSON.stringify(target)} ${result}`).toBe(302);
        const location = res.headers.get('Location') ?? '';
        if (result === 'pass') expect(location).toBe('/');
        else expect(new URL(location, BASE).searchParams.get('target')).toBe('/');
      }
    }
  });

  it('the /avs failure page links back only to own paths', async () => {
    for (const value of HOSTILE) {
      const html = await (await new Client().get(`/avs?failed=1&kjm=0&target=${encodeURIComponent(value)}`)).text();
      expect(html, value).not.toContain('evil.example');
      expect(html, value).not.toContain('javascript:');
      const retry = /href="([^"]+)"[^>]*data-action="avs-retry"/.exec(html)?.[1]?.replace(/&amp;/g, '&');
      expect(retry, value).toBe('/avs?kjm=0&target=%2F');
    }
  });

  it('splash_checked returns only to own paths', async () => {
    for (const value of HOSTILE) {
      const res = await new Client().get('/?splash_checked=1', { Cookie: `splash_route=${encodeURIComponent(value)}` });
      expect(res.status, value).toBe(302);
      expect(res.headers.get('Location'), value).toBe('/');
    }
    const ok = await new Client().get('/?splash_checked=1', { Cookie: `splash_route=${encodeURIComponent('/shows/all-shows?page=2')}` });
    expect(ok.headers.get('Location')).toBe('/shows/all-shows?page=2');
  });
});

describe('point 5: a password reset or change revokes the other reset links and logins', () => {
  it('after a reset, the other outstanding reset link is invalid and every other login ends', async () => {
    const m = await registerMember({ verified: true });
    const other = new Client();
    await expectJson(await other.login(m.name, m.password), 200);
    await expectJson(await new Client().post('/api/auth/send', { email: m.email }), 200);
    const first = await mailedToken(m.email, 'reset');
    await expectJson(await new Client().post('/api/auth/send', { email: m.email }), 200);
    const second = await mailedToken(m.email, 'reset');
    expect(second).not.toBe(first);

    const resetter = new Client();
    await expectJson(await resetter.post('/api/auth/reset', { token: second, password: 'new-pass-2026-a', password_confirm: 'new-pass-2026-a' }), 200);
    await expectError(
      await new Client().post('/api/auth/reset', { token: first, password: 'evil-pass-2026', password_confirm: 'evil-pass-2026' }),
      422,
      'token_invalid',
      ['token', 'token_invalid'],
    );
    expect(await other.me()).toBeNull();
    expect(await m.client.me()).toBeNull();
    expect((await resetter.me())?.id).toBe(m.id);
    await expectJson(await new Client().login(m.name, 'new-pass-2026-a'), 200);
  });

  it('after a password change, outstanding reset and login links are invalid and other logins end', async () => {
    const m = await registerMember({ verified: true });
    const other = new Client();
    await expectJson(await other.login(m.name, m.password), 200);
    const reset = await insertToken(m.id, 'reset');
    const login = await insertToken(m.id, 'login');
    await expectJson(await m.client.put('/api/user/update', { password: 'changed-pass-1', password_confirm: 'changed-pass-1', current_password: m.password }), 200);
    await expectError(await new Client().post('/api/auth/reset', { token: reset, password: 'evil-pass-2026', password_confirm: 'evil-pass-2026' }), 422, 'token_invalid');
    await expectError(await new Client().post('/api/auth/token_login', { token: login }), 422, 'token_invalid');
    expect(await other.me()).toBeNull();
    expect((await m.client.me())?.id).toBe(m.id);
  });
});

describe('point 6: links in mails use PUBLIC_ORIGIN, never the Host header', () => {
  it('production without PUBLIC_ORIGIN refuses to mail (503 mail_unavailable) and stores nothing', async () => {
    const m = await registerMember({ verified: true });
    const prod = { ENVIRONMENT: 'production', PUBLIC_ORIGIN: undefined };
    const tokensBefore = await count('user_tokens', 'user_id = ?', m.id);
    const mailsBefore = (await mailsTo(m.email)).length;
    await expectError(await writeWith(prod, new Client(), `${BASE}/api/auth/send`, { email: m.email }), 503, 'mail_unavailable');
    await expectError(await writeWith(prod, m.client, `${BASE}/api/user/reset_email`, {}), 503, 'mail_unavailable');
    expect(await count('user_tokens', 'user_id = ?', m.id)).toBe(tokensBefore);
    expect((await mailsTo(m.email)).length).toBe(mailsBefore);

    const email = uniqueEmail('nomail');
    await expectError(await writeWith(prod, new Client(), `${BASE}/api/register`, { email, password: 'a-password-123', terms_check: true }), 503, 'mail_unavailable');
    expect(await count('users', 'email = ?', email)).toBe(0);
  });

  it('a forged Host gets links to PUBLIC_ORIGIN; in development without it, to the dev origin', async () => {
    const m = await registerMember({ verified: true });
    const configured = { ENVIRONMENT: 'production', PUBLIC_ORIGIN: 'https://www.livecam.test' };
    await expectJson(await writeWith(configured, new Client(), 'http://evil.example/api/auth/send', { email: m.email }), 200);
    expect((await mailsTo(m.email))[0].text).toContain('https://www.livecam.test/users/reset/');

    const dev = { ENVIRONMENT: 'development', PUBLIC_ORIGIN: undefined };
    await expectJson(await writeWith(dev, new Client(), 'http://evil.example/api/auth/send', { email: m.email }), 200);
    const mail = (await mailsTo(m.email))[0];
    expect(mail.text).toContain('http://127.0.0.1:8787/users/reset/');
    expect(mail.text + mail.html).not.toContain('evil.example');

    const email = uniqueEmail('host');
    await expectJson(await writeWith(configured, new Client(), 'http://evil.example/api/register', { email, password: 'a-password-123', terms_check: true }), 201);
    const verify = (await mailsTo(email))[0];
    expect(verify.text).toContain('https://www.livecam.test/users/activate?token=');
    expect(verify.text + verify.html).not.toContain('evil.example');
  });
});

describe('point 7: activation and logout cannot be triggered from another site', () => {
  it("an attacker's activation link verifies their address but logs nobody else in", async () => {
    const attacker = await registerMember();
    const token = await mailedToken(attacker.email, 'verify');

    const visitor = new Client();
    await pageView(visitor);
    const res = await expectJson<{ status: string; user: User | null }>(await visitor.post('/api/register/validate', { token }), 200);
    expect(res.status).toBe('verified');
    expect(res.user).toBeNull();
    expect(visitor.cookie('auth._token')).toBeUndefined();
    expect(await visitor.me()).toBeNull();
    expect((await userRow(attacker.id))?.is_verified).toBe(1);

    // A logged-in victim stays who they are.
    const other = await registerMember();
    const victim = new Client();
    await expectJson(await victim.login(DEMO.name, DEMO.password), 200);
    const answer = await expectJson<{ user: User | null }>(await victim.post('/api/register/validate', { token: await mailedToken(other.email, 'verify') }), 200);
    expect(answer.user?.name).toBe(DEMO.name);
    expect((await victim.me())?.name).toBe(DEMO.name);
    expect((await userRow(other.id))?.is_verified).toBe(1);
  });

  it('logs in the session that registered, even when its login has gone', async () => {
    const m = await registerMember();
    const token = await mailedToken(m.email, 'verify');
    m.client.jar.delete('auth._token');
    expect(await m.client.me()).toBeNull();
    // The CSRF token is bound to the login too: without it the browser fetches the token again (page view, or the client's retry after 419).
    await m.client.csrf();
    const res = await expectJson<{ status: string; user: User }>(await m.client.post('/api/register/validate', { token }), 200);
    expect(res.status).toBe('verified');
    expect(res.user).toMatchObject({ id: m.id, is_verified: true });
    expect((await m.client.me())?.id).toBe(m.id);
  });

  it('a used link tells the verified member "already confirmed" (point 17), not "invalid"', async () => {
    const m = await registerMember();
    const token = await mailedToken(m.email, 'verify');
    await expectJson(await m.client.post('/api/register/validate', { token }), 200);
    const again = await expectJson<{ status: string; user: User | null }>(await m.client.post('/api/register/validate', { token }), 200);
    expect(again.status).toBe('already_verified');
    expect(again.user?.id).toBe(m.id);
    // Anyone else: the same answer, and still no login.
    const stranger = new Client();
    const answer = await expectJson<{ status: string; user: User | null }>(await stranger.post('/api/register/validate', { token }), 200);
    expect(answer).toMatchObject({ status: 'already_verified', user: null });
    expect(await stranger.me()).toBeNull();

    const b = await registerMember();
    const tokenB = await mailedToken(b.email, 'verify');
    await expectJson(await b.client.post('/api/user/email_validate', { token: tokenB }), 200);
    expect((await expectJson<{ status: string }>(await b.client.post('/api/user/email_validate', { token: tokenB }), 200)).status).toBe('already_verified');
    // An unknown token is still invalid.
    await expectError(await new Client().post('/api/register/validate', { token: 'q'.repeat(43) }), 422, 'token_invalid');
  });

  it('GET /logout changes nothing: it renders a button that POSTs', async () => {
    const client = new Client();
    await expectJson(await client.login(DEMO.name, DEMO.password), 200);
    const page = await client.get('/logout');
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(islandProps(html, 'LogoutPage')).toEqual({ loggedIn: true });
    expect(html).toContain('data-action="logout-confirm"');
    expect((await client.me())?.name).toBe(DEMO.name);
    await expectJson(await client.post('/api/auth/logout'), 200);
    expect(await client.me()).toBeNull();
    expect(islandProps(await (await client.get('/logout')).text(), 'LogoutPage')).toEqual({ loggedIn: false });
  });
});

describe('point 8: session fixation and the session-bound CSRF token', () => {
  it('login and logout rotate lc_sid and the CSRF token; the old ones stop working', async () => {
    const client = new Client();
    await pageView(client);
    await expectJson(await client.get('/api/session/init'), 200);
    const before = { sid: sid(client), token: client.cookie('XSRF-TOKEN') };
    const planted = client.clone();

    const login = await expectJson<{ session: Session }>(await client.login(DEMO.name, DEMO.password), 200);
    const after = { sid: sid(client), token: client.cookie('XSRF-TOKEN') };
    expect(after.sid).not.toBe(before.sid);
    expect(after.token).not.toBe(before.token);
    expect(login.session.session_id).toBe(after.sid);
    // The session's state moved with it.
    expect(await count('sessions', 'id = ?', before.sid)).toBe(0);
    expect(await count('sessions', 'id = ? AND user_id IS NOT NULL', after.sid)).toBe(1);

    // Whoever knew the old id (fixation) has no part in the login, and its token is dead.
    const init = await expectJson<{ session: Session; user: User | null }>(await planted.get('/api/session/init'), 200);
    expect(init.user).toBeNull();
    expect(init.session.session_id).toBe(before.sid);
    expect(init.session.session_id).not.toBe(after.sid);
    await expectError(await client.post('/api/session/welcome_shown', undefined, { csrf: false, headers: { 'X-XSRF-TOKEN': before.token as string } }), 419, 'csrf_token_mismatch');
    // The next write with the new token passes.
    await expectJson(await client.post('/api/session/welcome_shown'), 200);

    await expectJson(await client.post('/api/auth/logout'), 200);
    expect(sid(client)).not.toBe(after.sid);
    expect(client.cookie('XSRF-TOKEN')).not.toBe(after.token);
    expect(await count('sessions', 'id = ?', after.sid)).toBe(0);
    await expectJson(await client.post('/api/session/welcome_shown'), 200);
  });

  it('any equal cookie/header pair, or the token of another session, is refused (419)', async () => {
    const client = new Client();
    await pageView(client);
    const other = new Client();
    await pageView(other);
    const made = 'q'.repeat(43);
    const madeUp = client.clone();
    madeUp.jar.set('XSRF-TOKEN', made);
    await expectError(await madeUp.post('/api/session/welcome_shown', undefined, { csrf: false, headers: { 'X-XSRF-TOKEN': made } }), 419, 'csrf_token_mismatch');
    const foreign = client.clone();
    foreign.jar.set('XSRF-TOKEN', other.cookie('XSRF-TOKEN') as string);
    await expectError(await foreign.post('/api/session/welcome_shown'), 419, 'csrf_token_mismatch');
    // Without a session cookie no token passes.
    const noSession = client.clone();
    noSession.jar.delete('lc_sid');
    await expectError(await noSession.post('/api/session/welcome_shown'), 419, 'csrf_token_mismatch');
    // The session's own token does.
    await expectJson(await client.post('/api/session/welcome_shown'), 200);
  });

  it('on https the cookies carry the __Host- prefix, and only those count', async () => {
    const page = await dispatchWith({}, new Request('https://localhost/faq'));
    await page.arrayBuffer();
    const lines = setCookies(page);
    const sidLine = lines.find((l) => l.startsWith('__Host-lc_sid='));
    const tokenLine = lines.find((l) => l.startsWith('__Host-XSRF-TOKEN='));
    for (const line of [sidLine, tokenLine]) {
      expect(line).toMatch(/; Secure/i);
      expect(line).toMatch(/; Path=\//i);
      expect(line).not.toMatch(/Domain=/i);
    }
    expect(lines.some((l) => /^(lc_sid|XSRF-TOKEN)=/.test(l))).toBe(false);
    const sidCookie = (sidLine as string).split(';')[0];
    const token = decodeURIComponent((tokenLine as string).split(';')[0].split('=')[1]);
    const post = (cookie: string) =>
      dispatchWith({}, new Request('https://localhost/api/session/welcome_shown', { method: 'POST', headers: { Cookie: cookie, 'X-XSRF-TOKEN': token } }));
    const ok = await post(`${sidCookie}; __Host-XSRF-TOKEN=${token}`);
    expect(ok.status).toBe(200);
    await ok.arrayBuffer();
    // The plain names (which a sibling host or plain http could plant) are not read on https.
    const plain = `${sidCookie.replace('__Host-', '')}; XSRF-TOKEN=${token}`;
    await expectError(await post(plain), 419, 'csrf_token_mismatch');

    const login = await dispatchWith(
      {},
      new Request('https://localhost/api/auth/login', {
        method: 'POST',
        headers: { Cookie: `${sidCookie}; __Host-XSRF-TOKEN=${token}`, 'X-XSRF-TOKEN': token, 'Content-Type': 'application/json', 'CF-Connecting-IP': '10.77.0.1' },
        body: JSON.stringify({ username: DEMO.name, password: DEMO.password }),
      }),
    );
    expect(login.status).toBe(200);
    await login.arrayBuffer();
    const names = setCookies(login).map((l) => l.split('=')[0]);
    expect(names).toEqual(expect.arrayContaining(['__Host-lc_sid', '__Host-XSRF-TOKEN', '__Host-auth._token']));
    expect(names.filter((n) => /^(lc_sid|XSRF-TOKEN|auth\._token)$/.test(n))).toEqual([]);
  });
});
