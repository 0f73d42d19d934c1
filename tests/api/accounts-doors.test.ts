import { describe, expect, it, vi } from 'vitest';
import { Client, DEMO, expectError, expectJson } from './account-helpers';

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
