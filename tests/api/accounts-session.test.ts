import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import type { Session, User } from '../../src/shared/session';
import { count } from './account-helpers';
import { Client, expectError, expectJson, setCookies } from './helpers';

// session/* and pixel.gif of docs/api-accounts.md.

// Generous: the suite runs many workerd instances at once, and PBKDF2 logins are CPU-bound.
vi.setConfig({ testTimeout: 60_000 });

interface InitBody {
  session: Session;
  user: User | null;
}

describe('GET session/init', () => {
  it('creates the session row and a signed HttpOnly cookie, then resumes it', async () => {
    const client = new Client();
    const before = await count('sessions');
    const res = await client.get('/api/session/init');
    const body = await expectJson<InitBody>(res, 200);
    expect(body.user).toBeNull();
    expect(body.session.session_id).toMatch(/^[A-Za-z0-9_-]{16,}$/);
    expect(await count('sessions')).toBe(before + 1);
    expect(await count('sessions', 'id = ?', body.session.session_id)).toBe(1);

    const cookieLine = setCookies(res).find((l) => l.startsWith('lc_sid='));
    expect(cookieLine).toBeTruthy();
    expect(cookieLine).toMatch(/HttpOnly/i);
    expect(cookieLine).toMatch(/Path=\//i);
    // value.signature: the id itself, then an HMAC.
    const value = decodeURIComponent(client.cookie('lc_sid') ?? '');
    expect(value.startsWith(`${body.session.session_id}.`)).toBe(true);

    const again = await expectJson<InitBody>(await client.get('/api/session/init'), 200);
    expect(again.session.session_id).toBe(body.session.session_id);
    expect(await count('sessions')).toBe(before + 1);
  });

  it('a page view hands out the session id and the CSRF token; the first calls of the page share them', async () => {
    const client = new Client();
    const before = await count('sessions');
    const page = await client.get('/faq');
    expect(page.status).toBe(200);
    await page.arrayBuffer();
    // The page view costs no D1 write, only cookies.
    expect(await count('sessions')).toBe(before);
    const id = decodeURIComponent(client.cookie('lc_sid') ?? '').split('.')[0];
    const token = client.cookie('XSRF-TOKEN');
    expect(id).toMatch(/^[A-Za-z0-9_-]{16,}$/);
    expect(token).toMatch(/^[A-Za-z0-9_-]{32,64}$/);

    // Session calls racing each other (and the cookie endpoint) all land on that one id and token.
    const results = await Promise.all([
      client.get('/api/session/init'),
      client.get('/api/session/init'),
      client.post('/api/session/welcome_shown'),
      client.get('/api/auth/csrf-cookie'),
    ]);
    for (const res of results) expect(res.status).toBeLessThan(300);
    const bodies = await Promise.all(results.slice(0, 2).map((r) => r.json() as Promise<InitBody>));
    expect(bodies.map((b) => b.session.session_id)).toEqual([id, id]);
    expect(await count('sessions')).toBe(before + 1);
    expect(decodeURIComponent(client.cookie('lc_sid') ?? '').split('.')[0]).toBe(id);
    expect(client.cookie('XSRF-TOKEN')).toBe(token);

    // A later page view keeps both.
    await (await client.get('/faq')).arrayBuffer();
    expect(client.cookie('XSRF-TOKEN')).toBe(token);
    expect(decodeURIComponent(client.cookie('lc_sid') ?? '').split('.')[0]).toBe(id);
  });

  it('gives a tampered or forged lc_sid a fresh session', async () => {
    const client = new Client();
    const first = await expectJson<InitBody>(await client.get('/api/session/init'), 200);
    const id = first.session.session_id as string;
    const signed = decodeURIComponent(client.cookie('lc_sid') ?? '');

    const forgeries = [
      `${id}.${'A'.repeat(43)}`, // right id, wrong signature
      `${id}x.${signed.slice(id.length + 1)}`, // other id, old signature
      id, // no signature at all
      `${signed}x`,
      '',
    ];
    for (const forged of forgeries) {
      const other = new Client();
      other.jar.set('lc_sid', encodeURIComponent(forged));
      const res = await expectJson<InitBody>(await other.get('/api/session/init'), 200);
      expect(res.session.session_id, forged).not.toBe(id);
      expect(res.session.session_id).toBeTruthy();
    }
  });

  // Issue 9 point 1: a GET never changes what a session does; redirect_splash is set by the
  // server (campaign or partner entry), never from the query (it used to be stored from it).
  it('stores no redirect_splash from the query, relative or not', async () => {
    for (const value of ['/shows/all-shows', 'https://evil.example/', '//evil.example/x', '/\\evil.example', '/\t/evil.example']) {
      const c = new Client();
      const res = await expectJson<InitBody>(await c.get(`/api/session/init?redirect_splash=${encodeURIComponent(value)}`), 200);
      expect(res.session.redirect_splash, value).toBeNull();
    }
  });

  it('answers the logged-in member with the session', async () => {
    const client = new Client();
    await expectJson(await client.login('demo', 'demo-pass-2026'), 200);
    const body = await expectJson<InitBody>(await client.get('/api/session/init'), 200);
    expect(body.user?.name).toBe('demo');
    const row = await env.DB.prepare('SELECT user_id FROM sessions WHERE id = ?').bind(body.session.session_id).first<{ user_id: number }>();
    expect(row?.user_id).toBe(body.user?.id);
  });
});

describe('session/splash18', () => {
  it('GET reflects the confirmation, POST stores it on the session and the device cookie', async () => {
    const client = new Client();
    expect(await expectJson(await client.get('/api/session/splash18'), 200)).toEqual({ splash18_confirmed: false });
    const res = await client.post('/api/session/splash18');
    const body = await expectJson<{ session: Session }>(res, 200);
    expect(body.session.splash18_confirmed).toBe(true);
    expect(client.cookie('splash18')).toBe('1');
    const row = await env.DB.prepare('SELECT splash18_confirmed FROM sessions WHERE id = ?').bind(body.session.session_id).first<{ splash18_confirmed: number }>();
    expect(row?.splash18_confirmed).toBe(1);
    // Without the device cookie the session row alone still remembers it.
    client.jar.delete('splash18');
    expect(await expectJson(await client.get('/api/session/splash18'), 200)).toEqual({ splash18_confirmed: true });
  });
});

describe('POST session/vid', () => {
  it('stores the visitor id and confidence', async () => {
    const client = new Client();
    const body = await expectJson<{ session: Session }>(await client.post('/api/session/vid', { vid: 'visitor-abcdef12', confidence: 0.75 }), 200);
    expect(body.session.visitor_id).toBe('visitor-abcdef12');
    const row = await env.DB.prepare('SELECT visitor_id, vid_confidence FROM sessions WHERE id = ?')
      .bind(body.session.session_id)
      .first<{ visitor_id: string; vid_confidence: number }>();
    expect(row).toEqual({ visitor_id: 'visitor-abcdef12', vid_confidence: 0.75 });
  });

  it('422 with field errors for a short vid, a bad confidence or a missing field', async () => {
    const client = new Client();
    await expectError(await client.post('/api/session/vid', { vid: 'short', confidence: 0.5 }), 422, 'validation_failed', ['vid', 'vid_invalid']);
    await expectError(await client.post('/api/session/vid', { vid: 'visitor-abcdef12', confidence: 2 }), 422, 'validation_failed');
    await expectError(await client.post('/api/session/vid', { vid: 'visitor-abcdef12' }), 422, 'validation_failed');
    await expectError(await client.post('/api/session/vid', { vid: 'x'.repeat(129), confidence: 0.5 }), 422, 'validation_failed', ['vid', 'too_long']);
  });
});

describe('POST session/welcome_shown', () => {
  it('clears the welcome dialog for the session', async () => {
    const client = new Client();
    const init = await expectJson<InitBody>(await client.get('/api/session/init'), 200);
    expect(init.session.welcome_dialog).toEqual({ video: true, voucher: true });
    const body = await expectJson<{ session: Session }>(await client.post('/api/session/welcome_shown'), 200);
    expect(body.session.welcome_dialog).toBeNull();
    const again = await expectJson<InitBody>(await client.get('/api/session/init'), 200);
    expect(again.session.welcome_dialog).toBeNull();
  });
});

describe('POST session/incentive_tsp', () => {
  it('keeps the first value: a later call cannot restart the countdown; the start is server time, not the client\'s', async () => {
    const client = new Client();
    const before = Math.floor(Date.now() / 1000);
    const first = await expectJson<{ incentive_tsp: number; video_id: number | null; voucher_percent: number; session: Session }>(
      await client.post('/api/session/incentive_tsp', { incentive_tsp: 1_800_000_000 }),
      200,
    );
    // The welcome offer's window is decided from this start, so the client's value is not taken.
    expect(first.incentive_tsp).toBeGreaterThanOrEqual(before);
    expect(first.incentive_tsp).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    expect(first.session.incentive_tsp).toBe(first.incentive_tsp);
    expect(first.voucher_percent).toBe(20);
    expect(typeof first.video_id).toBe('number');

    const second = await expectJson<{ incentive_tsp: number; session: Session }>(
      await client.post('/api/session/incentive_tsp', { incentive_tsp: 1_900_000_000 }),
      200,
    );
    expect(second.incentive_tsp).toBe(first.incentive_tsp);
    expect(second.session.incentive_tsp).toBe(first.incentive_tsp);
    const row = await env.DB.prepare('SELECT incentive_tsp FROM sessions WHERE id = ?').bind(first.session.session_id).first<{ incentive_tsp: number }>();
    expect(row?.incentive_tsp).toBe(first.incentive_tsp);
  });

  it('422 for negative, fractional, absurd or non-numeric values', async () => {
    const client = new Client();
    for (const v of [-1, 1.5, 9_999_999_999, '1800000000', null]) {
      await expectError(await client.post('/api/session/incentive_tsp', { incentive_tsp: v }), 422, 'validation_failed');
    }
  });
});

describe('GET pixel.gif', () => {
  it('answers a 1x1 GIF that is not cached and counts the hit per day and website', async () => {
    const site = 100_000 + Math.floor(Math.random() * 800_000);
    const day = new Date().toISOString().slice(0, 10);
    const hits = async () =>
      (await env.DB.prepare('SELECT hits FROM counter_hits WHERE day = ? AND website_id = ?').bind(day, site).first<{ hits: number }>())?.hits ?? 0;
    const client = new Client();
    for (let i = 0; i < 2; i++) {
      const res = await client.get(`/api/pixel.gif?webid=19&session=abc&websiteid=${site}&noredirect=1&mid=7`);
      expect(res.status).toBe(200);
      expect(res.headers.get('Content-Type')).toBe('image/gif');
      expect(res.headers.get('Cache-Control')).toContain('no-store');
      const bytes = new Uint8Array(await res.arrayBuffer());
      expect(new TextDecoder().decode(bytes.slice(0, 6))).toBe('GIF89a');
    }
    // The count is written after the response (waitUntil).
    for (let i = 0; i < 500 && (await hits()) < 2; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await hits()).toBe(2);
  });

  it('falls back to the counter website for a bad websiteid and never fails', async () => {
    const client = new Client();
    for (const q of ['websiteid=abc', 'websiteid=-5', 'websiteid=99999999999', '', `websiteid=${'9'.repeat(5000)}`]) {
      const res = await client.get(`/api/pixel.gif?${q}`);
      expect(res.status, q).toBe(200);
      expect(res.headers.get('Content-Type')).toBe('image/gif');
      await res.arrayBuffer();
    }
  });
});
