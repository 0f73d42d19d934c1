import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import type { ContestAnswer } from '../../src/shared/contest';
import { call, GERMAN_PHONE, open, type Browser, type LaunchOptions } from './browser';
import { launchIn, MESSAGES, newMember, text, type Lang } from './members';

/** The demo performers' password (src/server/seed/seed.ts PERFORMER_PASSWORD). */
const PERFORMER_PASSWORD = 'studio-demo-1';

// Issue 14, point 8 in Chromium: a visitor sees the ranking and is asked to log in; a member votes,
// changes the vote, and the ranking follows at once; /contest/latest shows the last result.
// The vote in English on a desktop, the refusals in German on a phone, the last result in English.

const EN_DESKTOP: { lang: Lang; name: string; opts: LaunchOptions } = { lang: 'en', name: 'en desktop', opts: { viewport: { width: 1280, height: 900 } } };
const DE_PHONE: { lang: Lang; name: string; opts: LaunchOptions } = { lang: 'de', name: 'de phone', opts: GERMAN_PHONE };

const RANKING = '[data-testid=contest-ranking] > li';
const entryIds = (page: Page) => page.$$eval(RANKING, (els) => els.map((el) => Number(el.getAttribute('data-entry-id'))));
const serverOrder = async (page: Page) => (await call<ContestAnswer>(page, 'GET', 'contest')).body.contest!.entries;
const row = (id: number) => `${RANKING}[data-entry-id="${id}"]`;

/** Waits until the entry shows this score and the member's vote (1, -1) is the pressed button. */
async function waitForVote(page: Page, id: number, score: number, value: 1 | -1) {
  await page.waitForFunction(
    ({ sel, score, value }) => {
      const li = document.querySelector(sel);
      const pressed = li?.querySelector(`[data-action=contest-vote-${value === 1 ? 'up' : 'down'}]`)?.getAttribute('aria-pressed');
      return li?.getAttribute('data-score') === String(score) && pressed === 'true' && !li.querySelector('button:disabled');
    },
    { sel: row(id), score, value },
    { timeout: 15_000 },
  );
}

describe('contest', () => {
  let b: Browser | undefined;
  afterEach(async () => {
    await b?.close();
    b = undefined;
  });

  {
    const { lang, name, opts } = EN_DESKTOP;
    const m = MESSAGES[lang];
    it(`${name}: a visitor sees the ranking and a login link; a member votes, changes the vote, and the ranking follows`, async () => {
      b = await launchIn(lang, opts);
      const page = b.page;

      // Visitor: the ranking, the countdown, a link to log in, no vote buttons.
      await open(page, '/contest');
      expect(await text(page, 'main h1')).toBe(m.contest.title);
      expect(await page.locator(RANKING).count()).toBe(12);
      expect(await text(page, '[data-testid=contest-countdown]')).toContain(m.contest.endsIn);
      expect(await text(page, '[data-testid=contest-visitor] p')).toBe(m.contest.visitor);
      const login = page.locator('[data-action=contest-login]');
      expect((await login.textContent())?.trim()).toBe(m.contest.login);
      expect(await login.getAttribute('href')).toBe('/login?redirect=%2Fcontest');
      expect(await page.locator('[data-action^=contest-vote]').count()).toBe(0);
      // The product's navigation links here.
      expect(await page.getAttribute('[data-drawer-item=contest]', 'href')).toBe('/contest');
      expect((await page.textContent('[data-drawer-item=contest]'))?.trim()).toBe(m.drawer.contest);

      // The link leads to the login, which returns to the contest.
      await login.click();
      await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('redirect') === '/contest');

      // A member: every entry has an up and a down button, none pressed yet.
      await newMember(page);
      await open(page, '/contest');
      expect(await page.locator('[data-testid=contest-visitor]').count()).toBe(0);
      expect(await page.locator('[data-action=contest-vote-up][aria-pressed=true], [data-action=contest-vote-down][aria-pressed=true]').count()).toBe(0);
      const before = await serverOrder(page);
      expect(await entryIds(page)).toEqual(before.map((e) => e.id));

      // Two neighbours with the same score (the seed makes ties): the lower one gets the vote.
      const i = before.findIndex((e, k) => k + 1 < before.length && before[k + 1].score === e.score);
      expect(i).toBeGreaterThanOrEqual(0);
      const [upper, target] = [before[i], before[i + 1]];
      expect(upper.rank).toBe(target.rank);

      // Vote up with the keyboard, change it with a click.
      const up = `${row(target.id)} [data-action=contest-vote-up]`;
      const down = `${row(target.id)} [data-action=contest-vote-down]`;
      expect(await page.getAttribute(up, 'aria-label')).toBe(m.contest.voteUp.replace('{{name}}', target.show.name));
      await page.focus(up);
      await page.keyboard.press('Enter');
      await waitForVote(page, target.id, target.score + 1, 1);
      expect(await page.getAttribute(down, 'aria-pressed')).toBe('false');
      let ids = await entryIds(page);
      expect(ids.indexOf(target.id)).toBeLessThan(ids.indexOf(upper.id));
      const afterUp = (await serverOrder(page)).find((e) => e.id === target.id)!;
      expect(ids).toEqual((await serverOrder(page)).map((e) => e.id));
      // Screen readers hear where the entry stands now.
      const voted = afterUp.score === 1 ? m.contest.voted_one : m.contest.voted_other;
      expect(await text(page, '[data-testid=contest-announce]')).toBe(
        voted.replace('{{name}}', target.show.name).replace('{{rank}}', String(afterUp.rank)).replace('{{count}}', String(afterUp.score)),
      );

      // Changed to a vote down: the score drops by 2 and the entry falls below its neighbour.
      await page.click(down);
      await waitForVote(page, target.id, target.score - 1, -1);
      expect(await page.getAttribute(up, 'aria-pressed')).toBe('false');
      ids = await entryIds(page);
      expect(ids.indexOf(target.id)).toBeGreaterThan(ids.indexOf(upper.id));
      const after = await serverOrder(page);
      expect(ids).toEqual(after.map((e) => e.id));
      expect(after.find((e) => e.id === target.id)?.score).toBe(target.score - 1);
      expect(Number(await page.getAttribute(row(target.id), 'data-rank'))).toBe(after.find((e) => e.id === target.id)?.rank);

      // Reloaded, the page shows the member's vote.
      await open(page, '/contest');
      expect(await page.getAttribute(down, 'aria-pressed')).toBe('true');
      expect(await page.getAttribute(up, 'aria-pressed')).toBe('false');
      expect((await call<{ votes: unknown[] }>(page, 'GET', 'contest/votes')).body.votes).toEqual([{ entry_id: target.id, value: -1 }]);
      // Every picture loaded and no script failed on the way.
      await page.waitForLoadState('networkidle');
      expect(b.unexpectedProblems(page)).toEqual([]);
    });

  }
  {
    const { lang, name, opts } = DE_PHONE;
    const m = MESSAGES[lang];
    it(`${name}: the page says why a vote is refused: an unconfirmed e-mail, and a performer's own show`, async () => {
      b = await launchIn(lang, opts);
      const page = b.page;
      // A member who has not confirmed their e-mail sees the buttons, but the vote is refused and said why.
      await newMember(page, { verified: false });
      await open(page, '/contest');
      const entries = await serverOrder(page);
      const first = entries[0];
      expect(await page.getAttribute(`${row(first.id)} [data-action=contest-vote-up]`, 'aria-label')).toBe(m.contest.voteUp.replace('{{name}}', first.show.name));
      await page.click(`${row(first.id)} [data-action=contest-vote-up]`);
      await page.waitForSelector('[data-testid=contest-error]');
      expect(await text(page, '[data-testid=contest-error] span')).toBe(m.errors.not_verified);
      // With the way to confirm it, the page stays where it is.
      expect(await page.getAttribute('[data-action=contest-verify]', 'href')).toBe('/verify');
      expect(await text(page, '[data-action=contest-verify]')).toBe(m.contest.verify);
      expect(new URL(page.url()).pathname).toBe('/contest');
      expect(await page.getAttribute(`${row(first.id)} [data-action=contest-vote-up]`, 'aria-pressed')).toBe('false');
      expect(await page.getAttribute(row(first.id), 'data-score')).toBe(String(first.score));

      // A performer on their own show's entry.
      const own = entries[entries.length - 1];
      const login = await call(page, 'POST', 'auth/login', { username: own.show.slugName, password: PERFORMER_PASSWORD });
      expect(login.status).toBe(200);
      await open(page, '/contest');
      expect(await page.locator('[data-testid=contest-error]').count()).toBe(0);
      await page.click(`${row(own.id)} [data-action=contest-vote-up]`);
      await page.waitForSelector('[data-testid=contest-error]');
      expect(await text(page, '[data-testid=contest-error] span')).toBe(m.errors.contest.own_show);
      expect(new URL(page.url()).pathname).toBe('/contest');
      expect(await page.getAttribute(`${row(own.id)} [data-action=contest-vote-up]`, 'aria-pressed')).toBe('false');
      expect((await serverOrder(page)).find((e) => e.id === own.id)?.score).toBe(own.score);
      await page.waitForLoadState('networkidle');
      // The refusals are answers the page expects, not failures.
      expect(b.unexpectedProblems(page).filter((p) => !/\/api\/contest\/\d+\/vote/.test(p))).toEqual([]);
    });

  }
  {
    const { lang, name, opts } = EN_DESKTOP;
    const m = MESSAGES[lang];
    it(`${name}: /contest/latest shows the final result of the last round`, async () => {
      b = await launchIn(lang, opts);
      const page = b.page;
      await open(page, '/contest');
      await page.click('[data-action=contest-latest]');
      await page.waitForURL('**/contest/latest');
      expect(await text(page, 'main h1')).toBe(m.contest.latest.title);
      const entries = page.locator('[data-testid=contest-final] > li');
      expect(await entries.count()).toBe(12);
      expect(await entries.first().getAttribute('data-rank')).toBe('1');
      const winner = await entries.first().locator('.contest-name').textContent();
      expect(await text(page, '[data-testid=contest-winner]')).toContain(winner?.trim());
      // The final result has no vote buttons.
      expect(await page.locator('[data-action^=contest-vote]').count()).toBe(0);
      await page.waitForLoadState('networkidle');
      expect(b.unexpectedProblems(page)).toEqual([]);
    });
  }
});
