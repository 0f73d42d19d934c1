import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launch, open, waitForIslands, type Browser } from './browser';
import { loginDemo } from './members';

// axe-core in Chromium: every WCAG 2.0-2.2 A/AA rule (target-size included) plus axe's best
// practices, on the pages a first visit and a member see, at a phone and a desktop width, in a
// dark and a light layout, and with the splash, the consent banner, the login panel and the
// drawer open. One page load per page, width and layout keeps the file fast; the overlays are
// opened on the loads that are there anyway.
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa', 'best-practice'];
const WIDTHS = [390, 1280] as const;
const LAYOUTS = ['redhot', 'greyhound'] as const;
/** axe takes about a second on a full tile grid; a busy CI machine may need several. */
const SLOW = 240_000;

/** Runs axe on the page and returns each violation as a readable line (empty: none). */
async function violations(page: Page, label: string): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE_SOURCE });
  const found = await page.evaluate(async (tags) => {
    type AxeNode = { target: string[]; failureSummary?: string };
    type AxeResult = { violations: { id: string; impact: string; nodes: AxeNode[] }[] };
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: unknown): Promise<AxeResult> } }).axe;
    const res = await axe.run(document, { runOnly: { type: 'tag', values: tags }, rules: { 'target-size': { enabled: true } }, resultTypes: ['violations'] });
    return res.violations.flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}) ${n.target.join(' ')}: ${(n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 240)}`));
  }, TAGS);
  return found.map((line) => `${label}: ${line}`);
}

function withLayout(path: string, layout: string): string {
  return `${path}${path.includes('?') ? '&' : '?'}l=${layout}`;
}

/** Opens path at width and layout (the viewport first, so the page renders for that width). */
async function load(page: Page, path: string, width: number, layout: string): Promise<void> {
  await page.setViewportSize({ width, height: 844 });
  // axe reads the DOM: no need to wait for every tile picture (the load event).
  await page.goto(new URL(withLayout(path, layout), baseUrl()).href, { waitUntil: 'domcontentloaded' });
  await waitForIslands(page);
}

describe('axe: 0 violations', () => {
  let visitor: Browser;
  let member: Browser;
  let showPath = '';

  beforeAll(async () => {
    visitor = await launch({ cookies: { splash: true, consent: true } });
    await open(visitor.page, '/');
    showPath = (await visitor.page.getAttribute('.show-grid .show-tile a[href]', 'href')) ?? '';
  });
  afterAll(async () => {
    await visitor?.close();
    await member?.close();
  });

  it.each(LAYOUTS)('in %s on home (with the drawer and the login panel open), a show page, search, categories, an info page and sign-up, at 390 and 1280 px', async (layout) => {
    expect(showPath).toMatch(/^\/chat\/\d+\//);
    const pages = ['/', showPath, '/search?search=berlin', '/shows/categories', '/faq', '/users/signup'];
    const found: string[] = [];
    for (const width of WIDTHS) {
      for (const path of pages) {
        const page = visitor.page;
        await load(page, path, width, layout);
        const at = `${layout} ${width}px ${path}`;
        found.push(...(await violations(page, at)));
        if (path !== '/') continue;
        if (width < 1264) {
          await page.click('.drawer-toggle');
          await page.locator('nav#app-drawer').waitFor({ state: 'visible' });
          found.push(...(await violations(page, `${at} drawer open`)));
          await page.keyboard.press('Escape');
          await page.locator('nav#app-drawer').waitFor({ state: 'hidden' });
        }
        await page.click('[data-action=login-toggle]');
        await page.locator('#login-panel form[data-form=login]').waitFor({ state: 'visible' });
        found.push(...(await violations(page, `${at} login panel open`)));
      }
    }
    expect(found).toEqual([]);
  }, SLOW);

  it('with the age splash and then the consent banner open (first visit), at 390 and 1280 px in two layouts', async () => {
    const first = await launch();
    try {
      const found: string[] = [];
      for (const [width, layout] of [
        [390, 'redhot'],
        [1280, 'greyhound'],
      ] as const) {
        await first.context.clearCookies();
        await load(first.page, '/', width, layout);
        await first.page.locator('.splash').waitFor({ state: 'visible' });
        found.push(...(await violations(first.page, `${layout} ${width}px splash open`)));
        await first.context.addCookies([{ name: 'splash18', value: '1', url: first.base }]);
        await load(first.page, '/faq', width, layout);
        await first.page.locator('.consent').waitFor({ state: 'visible' });
        found.push(...(await violations(first.page, `${layout} ${width}px consent banner open`)));
      }
      expect(found).toEqual([]);
    } finally {
      await first.close();
    }
  }, SLOW);

  it('on the profile and billing pages of a member, at 390 and 1280 px in two layouts', async () => {
    member = await launch({ cookies: { splash: true, consent: true } });
    await loginDemo(member.page);
    const found: string[] = [];
    for (const layout of LAYOUTS) {
      for (const width of WIDTHS) {
        for (const path of ['/users/profile', '/billing']) {
          await load(member.page, path, width, layout);
          found.push(...(await violations(member.page, `${layout} ${width}px ${path}`)));
        }
      }
    }
    expect(found).toEqual([]);
  }, SLOW);
});
