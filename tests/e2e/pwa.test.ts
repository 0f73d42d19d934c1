import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { type Browser, baseUrl, call, open } from './browser';
import { BROWSER_ARGS, CHROMIUM } from './chromium';
import { logoutByMenu } from './accounts-helpers';
import { launchIn, MESSAGES, newMember } from './members';

// Issue 30 point 5: the installable web app and its service worker, and the push opt-in.
// Chromium here reaches no real push service (no network): the opt-in is exercised with the
// browser's PushManager.subscribe replaced in the page by a stub that makes real P-256 keys and a
// made-up https endpoint; everything after it (the API, the switches, turning off) is real.

const SHELL = ['/offline', '/static/offline.css', '/static/icons/icon-192.png', '/favicon.svg', '/manifest.webmanifest'];

async function controlled(b: Browser): Promise<void> {
  await b.page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 20_000 });
}

/** Every URL path in the page's Cache Storage. */
function cachedPaths(b: Browser): Promise<string[]> {
  return b.page.evaluate(async () => {
    const out: string[] = [];
    for (const name of await caches.keys()) for (const r of await (await caches.open(name)).keys()) out.push(new URL(r.url).pathname + new URL(r.url).search);
    return out;
  });
}

describe('installable web app', () => {
  let b: Browser | undefined;
  afterEach(async () => {
    await b?.context.setOffline(false).catch(() => undefined);
    await b?.close();
    b = undefined;
  });

  it('links a valid manifest with 192/512 and maskable icons, and registers a service worker that controls the page', async () => {
    b = await launchIn('en');
    await open(b.page, '/');
    const href = await b.page.getAttribute('link[rel=manifest]', 'href');
    expect(href).toBe('/manifest.webmanifest');
    const res = await b.page.request.get(new URL(href!, b.base).href);
    expect(res.status()).toBe(200);
    const manifest = (await res.json()) as { name: string; short_name: string; start_url: string; display: string; theme_color: string; icons: { src: string; sizes: string; type: string; purpose: string }[] };
    expect(manifest).toMatchObject({ name: 'LiveCam', short_name: 'LiveCam', start_url: '/', display: 'standalone' });
    expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
    for (const [size, purpose] of [['192x192', 'any'], ['512x512', 'any'], ['512x512', 'maskable']]) {
      const icon = manifest.icons.find((i) => i.sizes === size && i.purpose === purpose);
      expect(icon, `${size} ${purpose}`).toBeTruthy();
      const img = await b.page.request.get(new URL(icon!.src, b.base).href);
      expect(img.status()).toBe(200);
      expect(img.headers()['content-type']).toBe('image/png');
    }
    await controlled(b);
    expect(b.unexpectedProblems()).toEqual([]);
  });

  it("Chromium's own installability check (what Lighthouse's installability audit reads) finds no error", async () => {
    // The run's shared browser gives incognito contexts, which Chromium never installs from: this
    // check runs in a profile of its own on disk, as a member's browser is.
    const dir = mkdtempSync(join(tmpdir(), 'pwa-'));
    const context = await chromium.launchPersistentContext(dir, { executablePath: CHROMIUM, headless: true, args: BROWSER_ARGS });
    try {
      const base = baseUrl();
      await context.addCookies([{ name: 'splash18', value: '1', url: base }, { name: 'consent_analytics', value: '0', url: base }]);
      const page = context.pages()[0] ?? (await context.newPage());
      await page.goto(new URL('/', base).href, { timeout: 60_000 });
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 20_000 });
      const cdp = await context.newCDPSession(page);
      const app = (await cdp.send('Page.getAppManifest')) as { url: string; errors: unknown[] };
      expect(app.url).toContain('/manifest.webmanifest');
      expect(app.errors).toEqual([]);
      const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: { errorId: string }[] };
      expect(installabilityErrors).toEqual([]);
    } finally {
      await context.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('caches only the static shell; after logout, offline, a member page shows the offline page and no API answer comes from a cache', async () => {
    b = await launchIn('en');
    const m = await newMember(b.page);
    await open(b.page, '/users/profile');
    expect(await b.page.textContent('main')).toContain(m.name);
    await controlled(b);
    // A reload under the worker's control: the page went through it (network only).
    await open(b.page, '/users/profile/settings');
    expect(await b.page.textContent('main')).toContain(m.email);
    const cached = await cachedPaths(b);
    expect(cached.sort()).toEqual([...SHELL].sort());

    expect((await call(b.page, 'POST', 'auth/logout')).status).toBe(200);
    await b.context.setOffline(true);
    await b.page.goto(new URL('/users/profile/settings', b.base).href).catch(() => undefined);
    await b.page.waitForSelector('[data-testid=offline-page]');
    const shown = (await b.page.textContent('body')) ?? '';
    expect(shown).toContain('You are offline');
    expect(shown).toContain('Du bist offline');
    expect(shown).not.toContain(m.name);
    expect(shown).not.toContain(m.email);
    const api = await b.page.evaluate(() =>
      fetch('/api/auth/user', { credentials: 'same-origin' }).then(
        (r) => `status ${r.status}`,
        () => 'network error',
      ),
    );
    expect(api).toBe('network error');
    expect(await cachedPaths(b)).toEqual(expect.not.arrayContaining([expect.stringMatching(/^\/(api|users)\//)]));

    await b.context.setOffline(false);
    await b.page.goto(new URL('/users/profile/settings', b.base).href);
    // Back online the server answers, and it knows the member logged out.
    expect(new URL(b.page.url()).pathname).toBe('/login');
  });
});

describe('push notifications: opt-in (de, phone)', () => {
  let b: Browser | undefined;
  afterEach(async () => {
    await b?.close();
    b = undefined;
  });

  it('asks nothing before the member presses "turn on"; then subscribes this browser, switches kinds and turns off; a logout ends it', async () => {
    const t = MESSAGES.de.profile.settings.push;
    b = await launchIn('de', { viewport: { width: 390, height: 844 } });
    await b.context.grantPermissions(['notifications'], { origin: b.base });
    await b.context.addInitScript(() => {
      const w = window as unknown as { __asks: number; __sub: unknown };
      w.__asks = 0;
      const ask = Notification.requestPermission.bind(Notification);
      Notification.requestPermission = ((...args: Parameters<typeof Notification.requestPermission>) => {
        w.__asks++;
        return ask(...args);
      }) as typeof Notification.requestPermission;
      const b64u = (bytes: ArrayBuffer | Uint8Array) => btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
      // The stub push service: real keys, a made-up endpoint (the page never reaches a push service here).
      PushManager.prototype.subscribe = async function () {
        const pair = (await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits'])) as CryptoKeyPair;
        const p256dh = b64u(await crypto.subtle.exportKey('raw', pair.publicKey));
        const auth = b64u(crypto.getRandomValues(new Uint8Array(16)));
        const endpoint = `https://push.example.test/e2e/${crypto.randomUUID()}`;
        const sub = { endpoint, toJSON: () => ({ endpoint, keys: { p256dh, auth } }), unsubscribe: async () => ((w.__sub = null), true) };
        w.__sub = sub;
        return sub as unknown as PushSubscription;
      };
      PushManager.prototype.getSubscription = async () => (w.__sub ?? null) as PushSubscription | null;
    });
    const m = await newMember(b.page);
    await open(b.page, '/');
    await open(b.page, '/users/profile/settings');
    const box = b.page.locator('[data-testid=push-settings]');
    await expect.poll(() => box.getAttribute('data-state')).toBe('off');
    expect(await b.page.evaluate(() => (window as unknown as { __asks: number }).__asks)).toBe(0);
    const on = b.page.locator('[data-action=push-on]');
    expect((await on.textContent())?.trim()).toBe(t.turnOn);
    const size = await on.boundingBox();
    expect(size!.height).toBeGreaterThanOrEqual(24);
    expect(size!.x + size!.width).toBeLessThanOrEqual(390);

    await on.click();
    await expect.poll(() => box.getAttribute('data-state')).toBe('on');
    expect(await b.page.evaluate(() => (window as unknown as { __asks: number }).__asks)).toBe(1);
    const endpoint = await b.page.evaluate(() => (window as unknown as { __sub: { endpoint: string } }).__sub.endpoint);
    const stored = async () => (await call<{ subscription: { kinds: Record<string, boolean> } | null }>(b!.page, 'GET', `push/subscription?endpoint=${encodeURIComponent(endpoint)}`)).body.subscription;
    expect((await stored())?.kinds).toEqual({ favorite_online: true, message: true });
    expect((await box.textContent()) ?? '').toContain(t.favorite_online);

    await b.page.locator('label:has([data-testid=push-kind-message])').click();
    await expect.poll(async () => (await stored())?.kinds.message).toBe(false);
    expect(await b.page.locator('[data-testid=push-kind-message]').isChecked()).toBe(false);

    await b.page.locator('[data-action=push-off]').click();
    await expect.poll(() => box.getAttribute('data-state')).toBe('off');
    expect(await stored()).toBeNull();

    // On again, then a logout from the member menu: the next person at this device gets nothing.
    await on.click();
    await expect.poll(() => box.getAttribute('data-state')).toBe('on');
    const second = await b.page.evaluate(() => (window as unknown as { __sub: { endpoint: string } }).__sub.endpoint);
    await logoutByMenu(b.page);
    expect((await call(b.page, 'POST', 'auth/login', { username: m.name, password: m.password })).status).toBe(200);
    expect((await call<{ subscription: unknown }>(b.page, 'GET', `push/subscription?endpoint=${encodeURIComponent(second)}`)).body.subscription).toBeNull();
    expect(b.unexpectedProblems()).toEqual([]);
  });
});
