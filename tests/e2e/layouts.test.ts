import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computed, daysUntil, launch, open, type Browser } from './browser';

const LAYOUTS = ['redhot', 'greenhorn', 'black-white', 'blue-valvet', 'greyhound', 'pink-pussy'] as const;

describe('colour layouts', () => {
  let b: Browser;
  const colours = new Map<string, string>();

  beforeAll(async () => {
    b = await launch({ cookies: { splash: true, consent: true } });
  });
  afterAll(async () => {
    await b?.close();
  });

  it('?l=<name> applies each of the six layouts with its own body colour and remembers it for a year', async () => {
    for (const name of LAYOUTS) {
      await open(b.page, `/?l=${name}`);
      expect(await b.page.getAttribute('html', 'data-layout')).toBe(name);
      colours.set(name, await computed(b.page, 'body', 'background-color'));
      const cookie = await b.cookie('layout');
      expect(cookie?.value).toBe(name);
      expect(daysUntil(cookie)).toBeGreaterThan(364);
      expect(daysUntil(cookie)).toBeLessThan(366);
      expect(await b.page.getAttribute('.footer .swatch.active', 'href')).toBe(`?l=${name}`);
    }
    expect(new Set(colours.values()).size).toBe(LAYOUTS.length);
    expect(b.unexpectedProblems()).toEqual([]);
  });

  it('the cookie alone applies the layout on a later plain visit', async () => {
    // The last ?l= above was pink-pussy.
    await open(b.page, '/faq');
    expect(await b.page.getAttribute('html', 'data-layout')).toBe('pink-pussy');
    expect(await computed(b.page, 'body', 'background-color')).toBe(colours.get('pink-pussy'));

    const other = await launch({ cookies: { splash: true, consent: true, layout: 'greenhorn' } });
    try {
      await open(other.page, '/');
      expect(await other.page.getAttribute('html', 'data-layout')).toBe('greenhorn');
      expect(await computed(other.page, 'body', 'background-color')).toBe(colours.get('greenhorn'));
    } finally {
      await other.close();
    }
  });

  it('?l=bogus is ignored: the default redhot stays and no cookie is written', async () => {
    const fresh = await launch({ cookies: { splash: true, consent: true } });
    try {
      await open(fresh.page, '/?l=bogus');
      expect(await fresh.page.getAttribute('html', 'data-layout')).toBe('redhot');
      expect(await computed(fresh.page, 'body', 'background-color')).toBe(colours.get('redhot'));
      expect(await fresh.cookie('layout')).toBeUndefined();
    } finally {
      await fresh.close();
    }
    // With a remembered layout, a bogus value keeps it.
    await open(b.page, '/?l=bogus');
    expect(await b.page.getAttribute('html', 'data-layout')).toBe('pink-pussy');
    expect((await b.cookie('layout'))?.value).toBe('pink-pussy');
  });

  it('?h=off hides the header', async () => {
    await open(b.page, '/');
    expect(await b.page.locator('.app-bar').count()).toBe(1);
    await open(b.page, '/?h=off');
    expect(await b.page.locator('.app-bar').count()).toBe(0);
    expect(await b.page.locator('.drawer-toggle').count()).toBe(0);
    // The page itself is still there.
    expect(await b.page.locator('.show-grid .show-tile').count()).toBeGreaterThan(0);
    expect(b.unexpectedProblems()).toEqual([]);
  });
});
