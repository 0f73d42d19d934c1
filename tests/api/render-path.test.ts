import { describe, expect, it } from 'vitest';
import { req } from './helpers';

// Issue 15, render path: what a phone's first and returning visit download. The document embeds
// only the texts its render used (once), and the islands' texts come from one cacheable file;
// generated pictures are cached and revalidated. (The built entry and the inlined stylesheet are
// checked against the real build in tests/e2e/render-path.test.ts: here the worker runs without it.)

const COOKIE = { Cookie: 'splash18=1; consent_analytics=1' };

async function home(headers: Record<string, string> = COOKIE) {
  const res = await req('/', { headers });
  const html = await res.text();
  const state = JSON.parse(/<script id="__state" type="application\/json">(.*?)<\/script>/s.exec(html)![1]) as {
    messages: Record<string, Record<string, unknown>>;
    textsUrl: string;
  };
  return { html, state };
}

describe('render path', () => {
  it('the first tile picture is fetched first and sized; later tiles load lazily', async () => {
    const { html } = await home();
    const imgs = [...html.matchAll(/<img [^>]*src="\/img\/show\/\d+\/1\.jpg"[^>]*>/g)].map((m) => m[0]);
    expect(imgs.length).toBe(36);
    expect(imgs[0]).toContain('fetchPriority="high"');
    expect(imgs[0]).toMatch(/width="400" height="300"/);
    expect(imgs.slice(1).every((i) => !i.includes('fetchPriority'))).toBe(true);
    // Two rows on a phone load at once; the rest when they near the viewport.
    expect(imgs.slice(0, 4).every((i) => i.includes('loading="eager"'))).toBe(true);
    expect(imgs.slice(4).every((i) => i.includes('loading="lazy"'))).toBe(true);
  });

  it('generated pictures are cached for 30 days and revalidated by ETag (304)', async () => {
    const first = await req('/img/show/7/1.svg');
    expect(first.status).toBe(200);
    expect(first.headers.get('Cache-Control')).toBe('public, max-age=2592000, stale-while-revalidate=86400');
    const etag = first.headers.get('ETag');
    expect(etag).toMatch(/^"[\w.-]+"$/);
    await first.text();
    const again = await req('/img/show/7/1.svg', { headers: { 'If-None-Match': etag! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const other = await req('/img/show/8/1.svg', { headers: { 'If-None-Match': etag! } });
    expect(other.status).toBe(200);
    expect(other.headers.get('ETag')).not.toBe(etag);
    await other.text();
  });

  it('show previews are JPEGs (a baseline JFIF, 400x300), drawn per show and revalidated by ETag', async () => {
    const res = await req('/img/show/7/1.jpg');
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('image/jpeg');
    expect(res.headers.get('Cache-Control')).toBe('public, max-age=2592000, stale-while-revalidate=86400');
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 4)]).toEqual([0xff, 0xd8, 0xff, 0xe0]);
    expect([...bytes.slice(-2)]).toEqual([0xff, 0xd9]);
    // SOF0 (baseline): 8 bits, height 300, width 400, three components.
    const sof = bytes.findIndex((b, i) => b === 0xff && bytes[i + 1] === 0xc0);
    expect([...bytes.slice(sof + 4, sof + 10)]).toEqual([8, 1, 44, 1, 144, 3]);
    expect(bytes.length).toBeGreaterThan(2000);
    expect(bytes.length).toBeLessThan(20000);
    const etag = res.headers.get('ETag');
    expect((await req('/img/show/7/1.jpg', { headers: { 'If-None-Match': etag! } })).status).toBe(304);
    const other = await req('/img/show/8/1.jpg');
    expect(other.headers.get('ETag')).not.toBe(etag);
    expect(new Uint8Array(await other.arrayBuffer())).not.toEqual(bytes);
    // The large one (the show page's gallery, video posters): 800x600.
    const large = new Uint8Array(await (await req('/img/show/7/1-l.jpg')).arrayBuffer());
    const lsof = large.findIndex((b, i) => b === 0xff && large[i + 1] === 0xc0);
    expect([...large.slice(lsof + 5, lsof + 9)]).toEqual([2, 88, 3, 32]);
    // The home tiles use them.
    const { html } = await home();
    expect(html).toMatch(/<img src="\/img\/show\/\d+\/1\.jpg"/);
    for (const bad of ['/img/show/7/0.jpg', '/img/show/7/13.jpg', '/img/show/x/1.jpg']) expect((await req(bad)).status, bad).toBe(404);
  });

  it('embeds the texts once: only the keys the render used; all island texts in one immutable file', async () => {
    for (const lang of ['en', 'de']) {
      const { state } = await home({ Cookie: `${COOKIE.Cookie}; i18n_redirected=${lang}` });
      // Dialogs that are not open (login, billing, coupons, the daily game) bring no text along.
      for (const group of ['auth', 'billing', 'coupons', 'game', 'profile', 'errors']) expect(state.messages[group], `${lang} ${group}`).toBeUndefined();
      // What the tiles show is there (hydration renders the same text without a request).
      expect(Object.keys(state.messages.shows ?? {})).toContain('online');
      expect(JSON.stringify(state.messages).length).toBeLessThan(5000);
      expect(state.textsUrl).toMatch(new RegExp(`^/i18n/${lang}\\.[a-z0-9]+\\.json$`));
      const res = await req(state.textsUrl);
      expect(res.status).toBe(200);
      expect(res.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable');
      const all = (await res.json()) as Record<string, unknown>;
      for (const group of ['auth', 'billing', 'coupons', 'errors', 'chat', 'store']) expect(all[group], `${lang} ${group}`).toBeTypeOf('object');
    }
    // A name of another build gets today's texts, revalidated; a bad name is a 404.
    const stale = await req('/i18n/en.oldhash1.json');
    expect(stale.status).toBe(200);
    expect(stale.headers.get('Cache-Control')).toBe('public, no-cache');
    await stale.text();
    for (const path of ['/i18n/xx.abc.json', '/i18n/en.json', '/i18n/en.ABC.json']) {
      const bad = await req(path);
      expect(bad.status, path).toBe(404);
      await bad.text();
    }
  });
});
