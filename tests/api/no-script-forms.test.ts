import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import { LOGIN_LIMIT_ACCOUNT } from '../../src/server/features/account/account.service';
import { DEMO, uniq, uniqueEmail } from './account-helpers';
import { req, setCookies, uniqueIp } from './helpers';

// The forms a browser posts without script (age splash, consent banner, login, sign-up): they carry the session's
// CSRF token in the hidden `_token` field, which the server checks like the X-XSRF-TOKEN header.

vi.setConfig({ testTimeout: 60_000 });

/** A first page view: its cookies and the token the page rendered into its forms. */
async function visit(path = '/login', headers: Record<string, string> = {}): Promise<{ cookie: string; token: string }> {
  const res = await req(path, { headers });
  expect(res.status).toBe(200);
  const cookie = setCookies(res)
    .map((l) => l.split(';')[0])
    .filter((p) => /^(lc_sid|XSRF-TOKEN)=/.test(p))
    .join('; ');
  const token = /name="_token" value="([^"]+)"/.exec(await res.text())?.[1] ?? '';
  expect(token).not.toBe('');
  return { cookie, token };
}

function post(path: string, cookie: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
  return req(path, {
    method: 'POST',
    redirect: 'manual',
    headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

const count = async (sql: string, ...args: unknown[]) => (await env.DB.prepare(sql).bind(...args).first<{ n: number }>())?.n ?? -1;

describe('forms posted without script', () => {
  it('the first page a visitor sees renders the age splash with a form to /splash18 carrying the CSRF token', async () => {
    const res = await req('/');
    const html = await res.text();
    expect(html).toMatch(/<form[^>]*action="\/splash18"[^>]*method="post"/);
    const token = /name="_token" value="([^"]+)"/.exec(html)?.[1];
    const xsrf = setCookies(res).find((l) => l.startsWith('XSRF-TOKEN='))?.split(';')[0].slice('XSRF-TOKEN='.length);
    expect(token).toBe(xsrf);
    // The page behind the splash is inert before any script runs.
    expect(html).toMatch(/<div class="app" inert="" data-modal-inert="">/);
  });

  it('the splash confirm records it (splash18 cookie, session row) and goes back to the page; without the token 419 and nothing', async () => {
    const { cookie, token } = await visit('/search?q=liv');
    const sessions = await count('SELECT COUNT(*) AS n FROM sessions WHERE splash18_confirmed = 1');

    for (const fields of [{}, { _token: 'forged' }, { _token: `${token}x` }] as Record<string, string>[]) {
      const bad = await post('/splash18', cookie, { redirect: '/', ...fields });
      expect(bad.status).toBe(419);
      expect(setCookies(bad).some((l) => l.startsWith('splash18='))).toBe(false);
    }
    // The right token with another session's cookie does not pass either.
    const other = await visit();
    expect((await post('/splash18', other.cookie, { _token: token })).status).toBe(419);
    expect(await count('SELECT COUNT(*) AS n FROM sessions WHERE splash18_confirmed = 1')).toBe(sessions);

    const ok = await post('/splash18', cookie, { _token: token, redirect: '/faq' }, { Referer: 'http://localhost/search?q=liv' });
    expect(ok.status).toBe(303);
    expect(ok.headers.get('Location')).toBe('/search?q=liv');
    expect(setCookies(ok).find((l) => l.startsWith('splash18='))).toMatch(/^splash18=1;.*HttpOnly/i);
    expect(await count('SELECT COUNT(*) AS n FROM sessions WHERE splash18_confirmed = 1')).toBe(sessions + 1);

    // Another host as the target falls back to home.
    const away = await post('/splash18', cookie, { _token: token, redirect: 'https://evil.example/' }, { Referer: 'https://evil.example/x' });
    expect(away.headers.get('Location')).toBe('/');
  });

  it('a page whose splash is answered renders the consent banner as a form to /consent: token, where to return, one submit button per answer', async () => {
    const html = await (await req('/faq', { headers: { Cookie: 'splash18=1' } })).text();
    const form = /<form[^>]*action="\/consent"[^>]*method="post"[^>]*>(.*?)<\/form>/s.exec(html)?.[1] ?? '';
    expect(form).toMatch(/name="_token" value="[^"]+"/);
    expect(form).toContain('name="redirect" value="/faq"');
    const buttons = form.match(/<button[^>]*>/g) ?? [];
    expect(buttons).toHaveLength(2);
    for (const [value, action] of [['0', 'consent-decline'], ['1', 'consent-accept']]) {
      const button = buttons.find((tag) => tag.includes(`data-action="${action}"`)) ?? '';
      for (const attr of ['type="submit"', 'name="answer"', `value="${value}"`]) expect(button).toContain(attr);
    }
    // Answered (either way): no banner.
    expect(await (await req('/faq', { headers: { Cookie: 'splash18=1; consent_analytics=0' } })).text()).not.toContain('action="/consent"');
  });

  it('the consent form sets consent_analytics (1 or 0, a year, readable by the page) and goes back; 419 without the token, 422 for a bad answer, nothing set', async () => {
    const { cookie, token } = await visit('/search?q=liv');
    const consentCookie = (res: Response) => setCookies(res).find((l) => l.startsWith('consent_analytics='));

    const forged = await post('/consent', cookie, { _token: 'forged', answer: '1' });
    expect(forged.status).toBe(419);
    expect(consentCookie(forged)).toBeUndefined();

    for (const answer of [undefined, '', 'yes', '2', '1 ', 'true', '01']) {
      const bad = await post('/consent', cookie, { _token: token, redirect: '/faq', ...(answer === undefined ? {} : { answer }) });
      expect(bad.status).toBe(422);
      expect(bad.headers.get('Location')).toBeNull();
      expect(consentCookie(bad)).toBeUndefined();
      await bad.body?.cancel();
    }
    const json = await req('/consent', { method: 'POST', redirect: 'manual', headers: { Cookie: cookie, 'Content-Type': 'application/json' }, body: JSON.stringify({ _token: token, answer: '1' }) });
    expect(json.status).toBe(422);
    expect(consentCookie(json)).toBeUndefined();

    const accepted = await post('/consent', cookie, { _token: token, answer: '1', redirect: '/faq' }, { Referer: 'http://localhost/search?q=liv' });
    expect(accepted.status).toBe(303);
    expect(accepted.headers.get('Location')).toBe('/search?q=liv');
    const set = consentCookie(accepted) ?? '';
    expect(set).toMatch(/^consent_analytics=1;/);
    expect(set).toMatch(/Max-Age=31536000/);
    expect(set).toMatch(/Path=\//);
    expect(set).toMatch(/SameSite=Lax/i);
    // The page's own banner code writes and reads the same cookie: not HttpOnly.
    expect(set).not.toMatch(/HttpOnly/i);

    // No Referer: the path the form named.
    const declined = await post('/consent', cookie, { _token: token, answer: '0', redirect: '/faq?x=1' });
    expect(declined.status).toBe(303);
    expect(declined.headers.get('Location')).toBe('/faq?x=1');
    expect(consentCookie(declined)).toMatch(/^consent_analytics=0;/);
  });

  it('the consent form never sends anyone to another host: foreign or malformed targets fall back to home', async () => {
    const { cookie, token } = await visit('/');
    for (const redirect of ['https://evil.example/', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)', '/faq%0d%0aSet-Cookie:%20a=b']) {
      const res = await post('/consent', cookie, { _token: token, answer: '1', redirect }, { Referer: 'https://evil.example/page' });
      expect(res.status).toBe(303);
      expect(res.headers.get('Location')).toBe('/');
      expect(setCookies(res).some((l) => l.startsWith('a='))).toBe(false);
    }
    // A control character in a field (`/\t/evil.example` reads as `//evil.example`) is no form at all.
    const tab = await post('/consent', cookie, { _token: token, answer: '1', redirect: '/\t/evil.example' });
    expect(tab.status).toBe(422);
    expect(setCookies(tab).some((l) => l.startsWith('consent_analytics='))).toBe(false);
  });

  it('login: 419 without the token; wrong password renders the form again (401) with the error; right one logs in and redirects', async () => {
    const { cookie, token } = await visit('/login?redirect=/favorites');
    const denied = await post('/login', cookie, { username: DEMO.name, password: DEMO.password });
    expect(denied.status).toBe(419);
    expect(setCookies(denied).some((l) => l.startsWith('auth._token='))).toBe(false);

    const wrong = await post('/login', cookie, { _token: token, username: DEMO.name, password: 'wrong-password', redirect: '/favorites' });
    expect(wrong.status).toBe(401);
    const page = await wrong.text();
    expect(page).toContain('data-testid="login-error"');
    expect(page).toContain('name="redirect" value="/favorites"');
    expect(page).toContain(`value="${DEMO.name}"`);
    expect(page).not.toContain('wrong-password');

    const empty = await post('/login', cookie, { _token: token, username: '', password: '' });
    expect(empty.status).toBe(422);
    expect(await empty.text()).toContain('id="page-login-username-error"');

    const ok = await post('/login', cookie, { _token: token, username: DEMO.name, password: DEMO.password, redirect: '/favorites' });
    expect(ok.status).toBe(303);
    expect(ok.headers.get('Location')).toBe('/favorites');
    expect(setCookies(ok).some((l) => l.startsWith('auth._token='))).toBe(true);
  });

  it('sign-up: 419 without the token; errors render the form again (422, 409); a valid one creates the account and goes to the success page', async () => {
    const { cookie, token } = await visit('/users/signup');
    const email = uniqueEmail('nojs');
    const users = () => count('SELECT COUNT(*) AS n FROM users WHERE email = ?', email);
    const fields = { email, username: `nojs${Date.now().toString(36).slice(-6)}`, password: 'a-password-123', terms_check: 'on' };

    expect((await post('/users/signup', cookie, fields)).status).toBe(419);
    expect(await users()).toBe(0);

    const noTerms = await post('/users/signup', cookie, { ...fields, _token: token, terms_check: '' });
    expect(noTerms.status).toBe(422);
    expect(await noTerms.text()).toContain('id="signup-reg-terms-error"');
    expect(await users()).toBe(0);

    const exists = await post('/users/signup', cookie, { ...fields, _token: token, email: DEMO.email });
    expect(exists.status).toBe(409);
    expect(await exists.text()).toContain('data-testid="register-exists"');

    const ok = await post('/users/signup', cookie, { ...fields, _token: token });
    expect(ok.status).toBe(303);
    expect(ok.headers.get('Location')).toBe('/users/signup_success');
    expect(await users()).toBe(1);
  });

  it('a burst of wrong passwords through the form: exactly the account limit is checked (401), the rest 429 with Retry-After', async () => {
    const BURST = 30;
    const name = `nojs-burst-${uniq()}`;
    // Each try from its own address and session, so only the account's limit applies.
    const tries = await Promise.all(
      Array.from({ length: BURST }, async (_, i) => {
        const ip = { 'CF-Connecting-IP': uniqueIp() };
        const { cookie, token } = await visit('/login', ip);
        return () => post('/login', cookie, { _token: token, username: name, password: `wrong-${i}` }, ip);
      }),
    );
    const responses = await Promise.all(tries.map((send) => send()));
    const tally: Record<number, number> = {};
    for (const res of responses) {
      tally[res.status] = (tally[res.status] ?? 0) + 1;
      if (res.status === 429) expect(Number(res.headers.get('Retry-After'))).toBeGreaterThan(0);
      await res.body?.cancel();
    }
    expect(tally).toEqual({ 401: LOGIN_LIMIT_ACCOUNT, 429: BURST - LOGIN_LIMIT_ACCOUNT });
  });

  it('a burst of the same sign-up through the form creates one account: one 303, the rest 409 or 429, never a 5xx', async () => {
    const BURST = 12;
    const email = uniqueEmail('nojs-burst');
    const username = `nb${uniq().slice(-8)}`;
    const forms = await Promise.all(
      Array.from({ length: BURST }, async () => {
        const ip = { 'CF-Connecting-IP': uniqueIp() };
        const { cookie, token } = await visit('/users/signup', ip);
        return () => post('/users/signup', cookie, { _token: token, email, username, password: 'a-password-123', terms_check: 'on' }, ip);
      }),
    );
    const statuses = await Promise.all(
      forms.map(async (send) => {
        const res = await send();
        await res.body?.cancel();
        return res.status;
      }),
    );
    expect(statuses.filter((st) => st === 303)).toHaveLength(1);
    expect(statuses.every((st) => [303, 409, 429].includes(st))).toBe(true);
    expect(await count('SELECT COUNT(*) AS n FROM users WHERE email = ?', email)).toBe(1);
  });

  it('a malformed form body is 422, never a 5xx', async () => {
    const { cookie } = await visit();
    const res = await req('/login', { method: 'POST', headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' }, body: '_token=%00%01&username=a%0Ab' });
    expect(res.status).toBe(422);
  });
});
