import { describe, expect, it, vi } from 'vitest';
import type { Bindings } from '../../src/server/env';
import { mailsTo, registerMember, uniqueEmail } from './account-helpers';
import { BASE, Client, expectJson, writeWith } from './helpers';

// Issue 24 point 15 (f): `npm start` announces 127.0.0.1, so its mail links go there (a link to
// localhost arrives without the session cookie), and every link carries the language the member
// asked in (?lang), so it opens in that language even in a browser that never saw the site.

vi.setConfig({ testTimeout: 60_000 });


async function post(bindings: Partial<Bindings>, client: Client, path: string, body: unknown, lang: string): Promise<Response> {
  // The CSRF cookie's GET in the same language: its answer remembers the language in a cookie.
  if (!client.cookie('XSRF-TOKEN')) await client.get('/api/auth/csrf-cookie', { 'Accept-Language': lang });
  return writeWith(bindings, client, `${BASE}${path}`, body, { 'Accept-Language': lang });
}

const DEV = { ENVIRONMENT: 'development', PUBLIC_ORIGIN: undefined };
const linkIn = (text: string) => /https?:\/\/\S+/.exec(text)?.[0] ?? '';

describe('mail links: origin and language', () => {
  it('in development without PUBLIC_ORIGIN the links go to 127.0.0.1:8787, where npm start serves', async () => {
    const m = await registerMember({ verified: true });
    await expectJson(await post(DEV, new Client(), '/api/auth/send', { email: m.email }, 'en'), 200);
    const link = new URL(linkIn((await mailsTo(m.email))[0].text));
    expect(link.origin).toBe('http://127.0.0.1:8787');
  });

  it('a German request gets German links (?lang=de) that open the page in German; an English one ?lang=en', async () => {
    const m = await registerMember({ verified: true });
    const configured = { PUBLIC_ORIGIN: 'https://www.livecam.test' };
    await expectJson(await post(configured, new Client(), '/api/auth/send', { email: m.email }, 'de-DE,de;q=0.9'), 200);
    const de = (await mailsTo(m.email))[0];
    const link = new URL(linkIn(de.text));
    expect(link.origin).toBe('https://www.livecam.test');
    expect(link.pathname).toMatch(/^\/users\/reset\//);
    expect(link.searchParams.get('lang')).toBe('de');
    expect(de.html).toContain(link.href.replace(/&/g, '&amp;'));

    // Opened in a browser with an English Accept-Language and no cookie: the page is German.
    const page = await new Client().get(`${link.pathname}${link.search}`, { 'Accept-Language': 'en-GB,en;q=0.9' });
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<html[^>]* lang="de"/);

    await expectJson(await post(configured, new Client(), '/api/auth/send', { email: m.email }, 'en-GB,en;q=0.9'), 200);
    expect(new URL(linkIn((await mailsTo(m.email))[0].text)).searchParams.get('lang')).toBe('en');
  });

  it('the verification link of a German sign-up keeps its token and carries ?lang=de', async () => {
    const email = uniqueEmail('lang');
    await expectJson(await post({ PUBLIC_ORIGIN: 'https://www.livecam.test' }, new Client(), '/api/register', { email, password: 'a-password-123', terms_check: true }, 'de'), 201);
    const link = new URL(linkIn((await mailsTo(email))[0].text));
    expect(link.pathname).toBe('/users/activate');
    expect(link.searchParams.get('token')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(link.searchParams.get('lang')).toBe('de');
  });
});
