import { describe, expect, it, vi } from 'vitest';
import { LOGIN_LIMIT_ACCOUNT, LOGIN_WINDOW_S } from '../../src/server/features/account/account.service';
import { DEMO, mailedToken, mailsTo, registerMember, uniqueEmail, userRow } from './account-helpers';
import { Client, expectError, expectJson } from './helpers';

// Issue 24, points 10, 12 and 14a (found by a hostile probe): the CSRF pair of another login,
// mailed links that outlive their address, and a login throttle that locked the owner out.

vi.setConfig({ testTimeout: 60_000 });

async function pageView(client: Client): Promise<void> {
  await (await client.get('/faq')).arrayBuffer();
}

/** `client`'s cookies with the session cookie and CSRF pair of `pair` (what someone kept from before). */
function withPair(client: Client, pair: Client): Client {
  const mixed = client.clone();
  mixed.jar.set('lc_sid', pair.cookie('lc_sid') as string);
  mixed.jar.set('XSRF-TOKEN', pair.cookie('XSRF-TOKEN') as string);
  return mixed;
}

describe('point 14a: the CSRF pair belongs to one login', () => {
  it('the pre-login session cookie and XSRF token are refused (419) beside the new login cookie', async () => {
    const client = new Client();
    await pageView(client);
    await expectJson(await client.get('/api/session/init'), 200);
    const before = client.clone();
    await expectJson(await client.login(DEMO.name, DEMO.password), 200);
    expect(client.cookie('auth._token')).toBeTruthy();

    const stale = withPair(client, before);
    await expectError(await stale.post('/api/session/welcome_shown'), 419, 'csrf_token_mismatch');
    await expectError(await stale.post('/api/auth/logout'), 419, 'csrf_token_mismatch');
    // The login's own pair works, and the login is still there.
    await expectJson(await client.post('/api/session/welcome_shown'), 200);
    expect((await client.me())?.name).toBe(DEMO.name);
  });

  it("after logout the logged-in pair is refused, also with another login's cookie", async () => {
    const client = new Client();
    await pageView(client);
    await expectJson(await client.login(DEMO.name, DEMO.password), 200);
    const loggedIn = client.clone();
    await expectJson(await client.post('/api/auth/logout'), 200);
    expect(client.cookie('auth._token')).toBeUndefined();

    // The pair of the ended login, without its auth cookie (the browser dropped it).
    const dropped = loggedIn.clone();
    dropped.jar.delete('auth._token');
    await expectError(await dropped.post('/api/session/welcome_shown'), 419, 'csrf_token_mismatch');
    // The same pair beside a fresh login of another browser.
    const other = new Client();
    await expectJson(await other.login(DEMO.name, DEMO.password), 200);
    await expectError(await withPair(other, loggedIn).post('/api/session/welcome_shown'), 419, 'csrf_token_mismatch');
    await expectJson(await client.post('/api/session/welcome_shown'), 200);
    await expectJson(await other.post('/api/session/welcome_shown'), 200);
  });
});

describe('point 10: a mailed link acts only on the address it was sent to', () => {
  it("a verification link for the own address does not verify an address changed to later (someone else's)", async () => {
    const m = await registerMember();
    await expectJson(await m.client.post('/api/user/reset_email'), 200);
    const link = await mailedToken(m.email, 'verify');
    const victim = uniqueEmail('victim');
    await expectJson(await m.client.put('/api/user/update', { email: victim, current_password: m.password }), 200);

    await expectError(await m.client.post('/api/user/email_validate', { token: link }), 422, 'token_invalid', ['token', 'token_invalid']);
    await expectError(await new Client().post('/api/register/validate', { token: link }), 422, 'token_invalid', ['token', 'token_invalid']);
    expect(await userRow(m.id)).toMatchObject({ email: victim, is_verified: 0 });
    // The link mailed to the new address verifies it.
    await expectJson(await m.client.post('/api/user/email_validate', { token: await mailedToken(victim, 'verify') }), 200);
    expect(await userRow(m.id)).toMatchObject({ email: victim, is_verified: 1 });
  });

  it('changing the address back does not revive a link mailed before; reset links to the old address end too', async () => {
    const m = await registerMember();
    const first = await mailedToken(m.email, 'verify');
    await expectJson(await new Client().post('/api/auth/send', { email: m.email }), 200);
    const reset = await mailedToken(m.email, 'reset');
    await expectJson(await m.client.put('/api/user/update', { email: uniqueEmail('other'), current_password: m.password }), 200);
    await expectJson(await m.client.put('/api/user/update', { email: m.email, current_password: m.password }), 200);

    await expectError(await m.client.post('/api/user/email_validate', { token: first }), 422, 'token_invalid');
    await expectError(await new Client().post('/api/auth/reset', { token: reset, password: 'evil-pass-2026', password_confirm: 'evil-pass-2026' }), 422, 'token_invalid');
    expect(await userRow(m.id)).toMatchObject({ email: m.email, is_verified: 0 });
  });

  it('a link issued while the address changes (a race) is still bound to the address it went to', async () => {
    const m = await registerMember();
    const victim = uniqueEmail('victim');
    // The link goes to the own address, and the address changes in the same moment.
    await Promise.all([m.client.post('/api/user/reset_email'), m.client.put('/api/user/update', { email: victim, current_password: m.password })]);
    const links = (await mailsTo(m.email)).filter((mail) => mail.kind === 'verify').map((mail) => /token=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1] as string);
    // The sign-up's link and the one sent again.
    expect(links).toHaveLength(2);
    for (const link of links) await expectError(await m.client.post('/api/user/email_validate', { token: link }), 422, 'token_invalid');
    expect(await userRow(m.id)).toMatchObject({ email: victim, is_verified: 0 });
  });
});

/** Fresh clients, each from its own address, that already hold their CSRF cookie. */
async function strangers(n: number): Promise<Client[]> {
  const list = Array.from({ length: n }, () => new Client());
  await Promise.all(list.map((c) => c.csrf()));
  return list;
}

describe('point 12: guesses from anywhere do not lock the owner out', () => {
  it('after a burst of 100 wrong passwords from 100 addresses the owner still gets in from a browser that logged in before; a new browser is told how long to wait', async () => {
    const m = await registerMember();
    await expectJson(await m.client.post('/api/auth/logout'), 200);
    const guesses = await Promise.all((await strangers(100)).map((a, i) => a.login(m.name, `wrong-guess-${i}`)));
    const statuses = guesses.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(LOGIN_LIMIT_ACCOUNT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(100 - LOGIN_LIMIT_ACCOUNT);

    // A stranger's browser, even with the right password: 429 with the wait (at most the window).
    const fresh = await new Client().login(m.name, m.password);
    await expectError(fresh, 429, 'too_many_attempts');
    const wait = Number(fresh.headers.get('Retry-After'));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(LOGIN_WINDOW_S);

    // The owner's browser is not refused for the strangers' guesses.
    const own = await expectJson<{ user: { id: number } }>(await m.client.login(m.name, m.password), 200);
    expect(own.user.id).toBe(m.id);
    // Their getting in does not forgive the strangers: the account stays closed to new browsers.
    await expectError(await new Client().login(m.email, m.password), 429, 'too_many_attempts');
  });

  it("a known browser's own guesses are throttled like the account's; a made-up device cookie counts as a stranger", async () => {
    const m = await registerMember();
    await expectJson(await m.client.post('/api/auth/logout'), 200);
    const tabs = Array.from({ length: 30 }, () => m.client.clone());
    const statuses = (await Promise.all(tabs.map((t, i) => t.login(m.name, `wrong-own-${i}`)))).map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(LOGIN_LIMIT_ACCOUNT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30 - LOGIN_LIMIT_ACCOUNT);
    await expectError(await m.client.clone().login(m.name, m.password), 429, 'too_many_attempts');

    // Nobody can claim to be a known browser: an unsigned cookie naming the account is ignored.
    const forged = new Client();
    forged.jar.set('lc_dev', `${m.id}:AAAAAAAAAAAAAAAAAAAAAAAA.forged`);
    const other = await registerMember();
    await expectJson(await other.client.post('/api/auth/logout'), 200);
    const burst = (await strangers(LOGIN_LIMIT_ACCOUNT)).map((a, i) => a.login(other.name, `wrong-${i}`));
    await Promise.all(burst);
    forged.jar.set('lc_dev', `${other.id}:AAAAAAAAAAAAAAAAAAAAAAAA.forged`);
    await expectError(await forged.login(other.name, other.password), 429, 'too_many_attempts');
    await expectJson(await other.client.login(other.name, other.password), 200);
  });
});
