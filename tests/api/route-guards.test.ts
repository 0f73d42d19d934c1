import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { req } from './helpers';

/**
 * A fresh session: its cookie header. A splash target is set the way the server sets it (issue 9:
 * never from a query), straight on the row.
 */
async function newSession(splashTarget?: string): Promise<string> {
  const res = await req('/api/session/init');
  const sid = /lc_sid=([^;]+)/.exec(res.headers.get('Set-Cookie') ?? '')?.[1];
  expect(sid).toBeTruthy();
  const id = ((await res.json()) as { session: { session_id: string } }).session.session_id;
  if (splashTarget !== undefined) await env.DB.prepare('UPDATE sessions SET redirect_splash = ? WHERE id = ?').bind(splashTarget, id).run();
  return `lc_sid=${sid}`;
}

describe('page route guards', () => {
  it('redirect_splash: pages bounce to the target and come back after splash_checked', async () => {
    const cookie = await newSession('/faq?x=1');
    const first = await req('/shows/all-shows?page=2', { headers: { Cookie: cookie }, redirect: 'manual' });
    expect(first.status).toBe(302);
    expect(first.headers.get('Location')).toBe('/faq?x=1');
    const remembered = /splash_route=([^;]+)/.exec(first.headers.get('Set-Cookie') ?? '')?.[1];
    expect(decodeURIComponent(remembered ?? '')).toBe('/shows/all-shows?page=2');

    // Exempt static routes stay reachable.
    expect((await req('/terms', { headers: { Cookie: cookie }, redirect: 'manual' })).status).toBe(200);

    const back = await req('/?splash_checked=1', { headers: { Cookie: `${cookie}; splash_route=${remembered}` }, redirect: 'manual' });
    expect(back.status).toBe(302);
    expect(back.headers.get('Location')).toBe('/shows/all-shows?page=2');
    expect(back.headers.get('Set-Cookie')).toMatch(/splash_route=;/);
    // The detour is forgotten: the page now renders.
    expect((await req('/shows/all-shows', { headers: { Cookie: cookie }, redirect: 'manual' })).status).toBe(200);
  });

  it('ignores absolute or protocol-relative splash targets', async () => {
    for (const target of ['https://evil.example/', '//evil.example/x', '\\\\evil']) {
      const cookie = await newSession(target);
      expect((await req('/shows/all-shows', { headers: { Cookie: cookie }, redirect: 'manual' })).status).toBe(200);
    }
  });

  it('splash_checked never redirects off-site', async () => {
    const res = await req('/?splash_checked=1', { headers: { Cookie: 'splash_route=//evil.example' }, redirect: 'manual' });
    expect(res.headers.get('Location')).toBe('/');
  });

  it('voice-call sessions are sent home from pages not allowed in that mode', async () => {
    const cookie = await newSession();
    const id = (await env.DB.prepare('SELECT id FROM sessions ORDER BY created_at DESC, rowid DESC LIMIT 1').first<{ id: string }>())!.id;
    await env.DB.prepare('UPDATE sessions SET voicecall = 1 WHERE id = ?').bind(id).run();
    for (const path of ['/users/profile', '/billing', '/messages']) {
      const res = await req(path, { headers: { Cookie: cookie }, redirect: 'manual' });
      expect(res.status, path).toBe(302);
      expect(res.headers.get('Location')).toBe('/');
    }
    expect((await req('/faq', { headers: { Cookie: cookie }, redirect: 'manual' })).status).toBe(200);
    expect((await req('/bill-of-rights', { headers: { Cookie: cookie }, redirect: 'manual' })).status).toBe(404);
  });
});
