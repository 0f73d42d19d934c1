import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csrf, req } from './helpers';

// Bad input never yields a 5xx (and never changes data: these routes write nothing).
const PATHS = ['/', '/shows/all-shows', '/shows/categories', '/shows/1/a/b', '/faq', '/contact', '/version', '/api/session/splash18', '/img/show/1/1.svg'];

describe('hostile input', () => {
  it('absurd paths', async () => {
    const paths = [
      '/%',
      '/%E0%A4%A',
      '/..%2F..%2Fetc%2Fpasswd',
      '/shows/%00/%FF/x',
      `/${'a'.repeat(8000)}`,
      '/shows/99999999999999999999/x/y',
      '/img/show/-1/1.svg',
      '/img/show/1/999.svg',
      '/img/video/abc.svg',
      '/api/',
      '/api/%zz',
      '//double//slashes//',
      '/assets/../../wrangler.toml',
    ];
    for (const p of paths) {
      const res = await req(p);
      expect(res.status, p).toBeLessThan(500);
    }
  });

  it('random query values on every page', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...PATHS),
        fc.dictionary(fc.constantFrom('page', 'lang', 'l', 'h', 'search', 'cat', 'tags', 'sort'), fc.string({ maxLength: 40 }), { maxKeys: 5 }),
        async (path, query) => {
          const res = await req(`${path}?${new URLSearchParams(query)}`);
          expect(res.status).toBeLessThan(500);
          await res.arrayBuffer();
        },
      ),
      { numRuns: 150 },
    );
  });

  it('text cut at a length limit never splits a character into a 5xx', async () => {
    // An emoji is two UTF-16 units; placed across common cut points (40, 64, 80, 200, 500, 1000)
    // a cut by units leaves half of it, which breaks encodeURIComponent and friends.
    const values = [40, 64, 80, 200, 500, 1000].map((n) => `${'a'.repeat(n - 1)}😀😀`);
    const paths = [
      '/search', '/search/shows', '/search/videos', '/search/galleries', '/~search', '/contact', '/login', '/users/signup',
      '/users/reset', '/billing/transfer', '/avs', '/api/search/all', '/api/search/shows', '/api/shows', '/api/tags',
    ];
    for (const path of paths) {
      for (const value of values) {
        const query = new URLSearchParams({ search: value, subject: value, code: value, paymenttypename: value, email: value, tags: value, redirect: value, target: value });
        const res = await req(`${path}?${query}`);
        expect(res.status, `${path} ${value.length}`).toBeLessThan(500);
        await res.arrayBuffer();
      }
    }
    for (const value of values) {
      const res = await req(`/users/signup/coupon/${encodeURIComponent(value)}`);
      expect(res.status, `coupon ${value.length}`).toBeLessThan(500);
      await res.arrayBuffer();
    }
  });

  it('huge and malformed headers and cookies', async () => {
    const cases: Record<string, string>[] = [
      { Cookie: 'x'.repeat(16_000) },
      { Cookie: 'i18n_redirected=%%%; layout=%E0; splash18=%' },
      { 'Accept-Language': `${'de;q=0.5,'.repeat(2000)}` },
      { 'Accept-Language': ';;;,,,q=abc' },
      { 'X-Request-Id': 'y'.repeat(10_000) },
      { 'X-XSRF-TOKEN': 'z'.repeat(10_000) },
    ];
    for (const headers of cases) {
      for (const path of ['/', '/api/session/splash18']) {
        const res = await req(path, { headers });
        expect(res.status, `${path} ${Object.keys(headers)}`).toBeLessThan(500);
      }
    }
  });

  it('random bodies to the write endpoints', async () => {
    const headers = { ...(await csrf()).headers, 'Content-Type': 'application/json' };
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('/api/log', '/api/session/splash18', '/api/nope'), fc.oneof(fc.string(), fc.json()), async (path, body) => {
        const res = await req(path, { method: 'POST', headers, body });
        expect(res.status).toBeLessThan(500);
        await res.arrayBuffer();
      }),
      { numRuns: 150 },
    );
  });
});
