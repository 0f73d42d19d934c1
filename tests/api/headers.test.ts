import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/app';
import { registerMember } from './account-helpers';
import { Client, req } from './helpers';

// Security headers: the CSP lets pages talk only to their own origin (and Google's sign-in, which
// the test bindings configure) and allows inline style only by the page's nonce; personal answers are never
// stored by a browser or proxy.

function directives(policy: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of policy.split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) out[name] = values.join(' ');
  }
  return out;
}

const GSI = 'https://accounts.google.com/gsi/';

describe('security headers', () => {
  it('sends exactly the expected CSP directives: own origin only, inline style only by nonce, no ws:/wss: to any host', async () => {
    const res = await req('/');
    const csp = directives(res.headers.get('Content-Security-Policy') ?? '');
    const nonce = /^'nonce-([A-Za-z0-9+/=]+)' 'strict-dynamic'$/.exec(csp['script-src'] ?? '')?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).toEqual({
      'default-src': "'self'",
      'script-src': `'nonce-${nonce}' 'strict-dynamic'`,
      // The document's own stylesheet is inlined with the page's nonce (issue 15: no render-blocking request).
      'style-src': `'self' 'nonce-${nonce}' ${GSI}style`,
      'img-src': "'self' data: blob:",
      // The studio reads a chosen video file through a blob: URL (uploads, issue 13).
      'media-src': "'self' blob:",
      'font-src': "'self'",
      // The service worker (/sw.js, issue 30 point 5).
      'worker-src': "'self'",
      'connect-src': `'self' ${GSI}`,
      'frame-src': 'https://accounts.google.com',
      'frame-ancestors': "'self'",
      'base-uri': "'self'",
      'form-action': "'self'",
      'object-src': "'none'",
    });
    // No style attributes; a style element only with the page's nonce (the inlined stylesheet).
    const html = await res.text();
    expect(html).not.toMatch(/<[a-z][^>]*\sstyle=/i);
    for (const tag of html.match(/<style[\s>][^>]*>?/gi) ?? []) expect(tag).toBe(`<style nonce="${nonce}">`);
  });

  it('every /api GET of the route table answers no-store, for visitors and members', async () => {
    const member = await registerMember({ verified: true });
    const visitor = new Client();
    const paths = new Set<string>();
    for (const r of createApp().routes) {
      if (r.method !== 'GET' || !r.path.startsWith('/api/') || r.path.includes('*')) continue;
      paths.add(r.path.replace(/:(\w+)(\{[^}]*\})?\??/g, '1'));
    }
    for (const known of ['/api/auth/user', '/api/billing', '/api/coupons', '/api/session/init', '/api/billing/check_phonecall']) expect(paths).toContain(known);
    for (const path of paths) {
      if (path === '/api/realtime') continue; // an upgrade, tested in realtime-limits.test.ts
      for (const [who, client] of [
        ['member', member.client],
        ['visitor', visitor],
      ] as const) {
        const res = await client.get(path);
        await res.arrayBuffer();
        expect(res.headers.get('Cache-Control'), `${who} ${path} ${res.status}`).toBe('no-store');
      }
    }
  });

  it("a member's pages answer no-store; a visitor's pages stay revalidated", async () => {
    const member = await registerMember({ verified: true });
    for (const path of ['/', '/billing', '/users/free_coins', '/users/cancel', '/shows/all-shows']) {
      const res = await member.client.get(path);
      const html = await res.text();
      expect(res.status, path).toBe(200);
      expect(res.headers.get('Cache-Control'), path).toBe('no-store');
      // style-src has no 'unsafe-inline': the member's pages carry no style attributes either.
      expect(html, path).not.toMatch(/<[a-z][^>]*\sstyle=/i);
    }
    const visitor = await req('/');
    expect(visitor.headers.get('Cache-Control')).toBe('private, no-cache');
  });
});
