import { afterEach, describe, expect, it } from 'vitest';
import { daysUntil, launch, open, type Browser } from './browser';

describe('consent banner', () => {
  let b: Browser | undefined;
  afterEach(async () => {
    await b?.close();
    b = undefined;
  });

  it('accept stores consent_analytics=1 for a year and the banner stays away', async () => {
    b = await launch({ cookies: { splash: true } });
    await open(b.page, '/');
    const banner = b.page.locator('.consent');
    await banner.waitFor({ state: 'visible' });
    expect(await banner.locator('a[href="/privacy_policy#google_analytics"]').count()).toBe(1);
    // With script the banner answers in place: no form post, no reload (the page's marker survives).
    const posts: string[] = [];
    b.page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/consent') posts.push(r.url());
    });
    await b.page.evaluate(() => ((window as { __samePage?: boolean }).__samePage = true));
    await b.page.click('[data-action=consent-accept]');
    await banner.waitFor({ state: 'detached' });
    expect(await b.page.evaluate(() => (window as { __samePage?: boolean }).__samePage)).toBe(true);
    expect(posts).toEqual([]);
    const cookie = await b.cookie('consent_analytics');
    expect(cookie?.value).toBe('1');
    expect(daysUntil(cookie)).toBeGreaterThan(364);
    expect(daysUntil(cookie)).toBeLessThan(366);

    const res = await b.page.reload();
    expect(await res?.text()).not.toContain('data-action="consent-accept"');
    await open(b.page, '/faq');
    expect(await b.page.locator('.consent').count()).toBe(0);
    expect(b.unexpectedProblems()).toEqual([]);
  });

  it('decline stores consent_analytics=0 and the banner stays away', async () => {
    b = await launch({ cookies: { splash: true } });
    await open(b.page, '/');
    await b.page.click('[data-action=consent-decline]');
    await b.page.locator('.consent').waitFor({ state: 'detached' });
    expect((await b.cookie('consent_analytics'))?.value).toBe('0');
    await b.page.reload();
    await b.page.locator('.show-grid').waitFor();
    expect(await b.page.locator('.consent').count()).toBe(0);
  });
});
