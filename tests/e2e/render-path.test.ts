import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json';
import { baseUrl, launch, open, type Browser } from './browser';

// Issue 15, render path against the real build: the entry is named by its content and cached for
// good, the stylesheet is inlined (no render-blocking request), and the islands get every text
// before they hydrate although the document embeds only what its render used.

const COOKIE = 'splash18=1; consent_analytics=1';

describe('render path', () => {
  let b: Browser;
  beforeAll(async () => {
    b = await launch({ cookies: { splash: true, consent: true }, viewport: { width: 390, height: 844 } });
  });
  afterAll(async () => {
    await b?.close();
  });

  it('links the hashed entry, inlines the stylesheet under the nonce, and serves built files as immutable', async () => {
    const res = await fetch(`${baseUrl()}/`, { headers: { Cookie: COOKIE } });
    const html = await res.text();
    const nonce = /'nonce-([^']+)'/.exec(res.headers.get('Content-Security-Policy') ?? '')?.[1];
    expect(nonce).toBeTruthy();
    const nonceAttr = `nonce="${nonce!.replace(/[+/=]/g, '\\$&')}"`;
    // Requested after the first paint: the start script under the nonce imports it.
    const entry = new RegExp(`<script type="module" ${nonceAttr}>[^<]*import\\("(/assets/main-[\\w-]{8}\\.js)"\\)`).exec(html)?.[1];
    expect(entry).toBeDefined();
    expect(html).not.toMatch(/<script[^>]*src=|modulepreload/);
    expect(html).not.toMatch(/<link[^>]*rel="stylesheet"/);
    expect(html).toMatch(new RegExp(`<style ${nonceAttr}>[^<]*\\.show-tile[^<]*</style>`));
    const js = await fetch(`${baseUrl()}${entry}`);
    expect(js.status).toBe(200);
    expect(js.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable');
    await js.arrayBuffer();
    const manifest = await fetch(`${baseUrl()}/asset-manifest.json`);
    expect(manifest.status).toBe(404);
    await manifest.arrayBuffer();
  });

  it('a first visit requests no stylesheet and hydrates with every text: the login panel is translated', async () => {
    const sheets: string[] = [];
    b.page.on('request', (r) => {
      if (r.resourceType() === 'stylesheet') sheets.push(r.url());
    });
    await open(b.page, '/');
    expect(sheets).toEqual([]);
    // The tile pictures are the server's JPEGs, and the browser decodes them (what is on screen).
    const first = b.page.locator('.show-grid img').first();
    await expect.poll(() => first.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(400);
    expect(await first.evaluate((img: HTMLImageElement) => [img.currentSrc.replace(/^.*\/img\//, '/img/'), img.naturalHeight])).toEqual([expect.stringMatching(/^\/img\/show\/\d+\/1\.jpg$/), 300]);
    // Styled by the inline rules: the tiles sit in a grid.
    expect(await b.page.$eval('.show-grid', (el) => getComputedStyle(el).display)).toBe('grid');
    // "auth" texts are not in the document; the panel still shows them (loaded before hydration).
    const embedded = await b.page.evaluate(() => Object.keys((JSON.parse(document.getElementById('__state')!.textContent!) as { messages: object }).messages));
    expect(embedded).not.toContain('auth');
    await b.page.click('[data-action=login-toggle]');
    await b.page.locator('#login-panel form[data-form=login]').waitFor();
    expect((await b.page.textContent('#login-panel-title'))?.trim()).toBe(en.auth.login.title);
    expect((await b.page.textContent('label[for=panel-username]'))?.trim()).toBe(en.auth.login.username);
    expect(await b.page.textContent('#login-panel')).not.toMatch(/\bauth\.[a-z]/);
    expect(b.unexpectedProblems()).toEqual([]);
  });
});
