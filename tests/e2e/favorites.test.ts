import type { Browser as PwBrowser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShowDetail, ShowSummary } from '../../src/shared/shows';
import { baseUrl, open } from './browser';
import { mails, newMember, type Lang } from './members';
import { msg, performerStudio, person, roomsBrowser, type Device } from './rooms-helpers';

// Issue 14, favourites and history in the browser, in German on a phone:
// a member favours a show from its page, sets a timespan window around now in the profile, the
// show's performer goes online from the studio, and the member's open tabs show the notice at
// once and one mail arrives (going offline and online again in the same window sends no
// second); the top bar's history lists the visited shows newest first and clears.

let browser: PwBrowser;
let shows: ShowDetail[];

beforeAll(async () => {
  browser = await roomsBrowser();
  // Offline partner-free shows from deep in the list, away from what other suites use.
  const list = (await (await fetch(`${baseUrl()}/api/shows?page=5`)).json()) as { data: ShowSummary[] };
  const picked = list.data.filter((s) => !s.online && s.contentproviderId === 1).slice(3, 7);
  shows = await Promise.all(picked.map(async (s) => (await (await fetch(`${baseUrl()}/api/shows/${s.id}`)).json()) as ShowDetail));
});

afterAll(async () => {
  await browser?.close();
});

const CASES: [Lang, Device, number][] = [['de', 'phone', 2]];

const showPath = (s: ShowDetail) => `/chat/${s.id}/${s.slugName}`;

async function favoriteMails(email: string): Promise<number> {
  return (await mails(email, { kind: 'favorite' })).length;
}

describe.each(CASES)('favourites and history (%s, %s)', (lang, device, pick) => {
  it('favours a show, sets a timespan window, is told in every open tab and by one mail when it goes online; history lists and clears', async () => {
    const m = msg(lang);
    const show = shows[pick];
    const other = shows[pick + 1];
    expect(show && other, 'two offline shows').toBeTruthy();
    const [member, studio] = await Promise.all([person(browser, lang, device), person(browser, lang, device)]);
    const me = await newMember(member);
    await performerStudio(studio, show, { online: false });

    // The other show first, then the show: both land in the history (opening a show page records it).
    await open(member, showPath(other));
    await open(member, showPath(show));
    const heart = member.locator('.show-header [data-testid=favorite-button]');
    await expect(heart.getAttribute('aria-label')).resolves.toBe(m.favorites.add.replace('{{name}}', show.name));
    await expect(heart.getAttribute('aria-pressed')).resolves.toBe('false');
    const box = await heart.boundingBox();
    expect(box!.width).toBeGreaterThanOrEqual(44);
    expect(box!.height).toBeGreaterThanOrEqual(44);
    const added = member.waitForResponse((r) => r.url().endsWith(`/api/favorites/${show.id}`) && r.status() === 201);
    await heart.click();
    await added;
    await expect(heart.getAttribute('aria-pressed')).resolves.toBe('true');
    await expect(heart.getAttribute('aria-label')).resolves.toBe(m.favorites.remove.replace('{{name}}', show.name));

    // The profile's favourites tab lists it; the cog opens the settings; a timespan around now.
    await open(member, '/users/profile/favorites');
    const item = member.locator(`[data-testid=favorites-list] .fav-item[data-show-id="${show.id}"]`);
    await item.waitFor();
    await expect(item.locator('[data-testid=favorite-envelope]').count()).resolves.toBe(0);
    await item.locator('[data-testid=favorite-cog]').click();
    const dialog = member.locator('[data-testid=favorite-settings]');
    await dialog.waitFor();
    await dialog.locator('[data-testid=fav-mode-timespan]').check();
    // Saving a timespan without both times is refused on the page.
    await dialog.locator('[data-testid=favorite-settings-save]').click();
    await expect(dialog.locator('[data-testid=favorite-settings-error]').textContent()).resolves.toBe(m.errors.favorites.time_required);
    const [from, until] = await member.evaluate(() => {
      const d = new Date();
      const start = Math.floor((d.getHours() * 60 + d.getMinutes()) / 15) * 15;
      return [String(start), String((start + 30) % 1440)];
    });
    await dialog.locator('[data-testid=fav-from]').selectOption(from);
    await dialog.locator('[data-testid=fav-until]').selectOption(until);
    const saved = member.waitForResponse((r) => r.url().endsWith(`/api/favorites/${show.id}`) && r.request().method() === 'PUT' && r.status() === 200);
    await dialog.locator('[data-testid=favorite-settings-save]').click();
    await saved;
    await dialog.waitFor({ state: 'detached' });
    await item.locator('[data-testid=favorite-envelope]').waitFor();

    // Two open tabs of the member; the performer goes online from the studio.
    const second = await member.context().newPage();
    await open(second, '/');
    // The top bar's two menus fit the phone's width.
    expect(await second.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(device === 'phone' ? 390 : 1280);
    const notice = m.favorites.onlineNow.replace('{{name}}', show.name);
    const answered = studio.waitForResponse((r) => r.url().endsWith('/api/studio/status') && r.status() === 200);
    await studio.click('[data-testid=studio-online]');
    await answered;
    for (const tab of [member, second]) {
      const bar = tab.locator('[data-testid=snackbar]', { hasText: notice });
      await bar.waitFor({ timeout: 5_000 });
      await expect(bar.locator('a').getAttribute('href')).resolves.toBe(showPath(show));
    }
    // The list shows it online live, and the top bar's favourites badge counts it.
    await member.locator(`[data-testid=favorites-list] .fav-item[data-show-id="${show.id}"][data-online="1"]`).waitFor();
    await expect(member.locator('[data-testid=favorites-badge]').textContent()).resolves.toBe('1');
    await expect.poll(() => favoriteMails(me.email), { timeout: 10_000 }).toBe(1);
    const [mail] = await mails(me.email, { kind: 'favorite' });
    expect(mail.subject).toContain(show.name);
    expect(mail.text).toContain(showPath(show));

    // Offline and online again inside the same window: no second mail.
    await studio.click('[data-testid=studio-online]');
    await studio.locator('[data-testid=studio][data-state=offline]').waitFor();
    await studio.click('[data-testid=studio-online]');
    await studio.locator('[data-testid=studio][data-state=online]').waitFor();
    await member.locator(`.fav-item[data-show-id="${show.id}"][data-online="1"]`).waitFor();
    expect(await favoriteMails(me.email)).toBe(1);

    // The favourites menu lists it online and links to the profile tab.
    await member.click('[data-testid=favorites-toggle]');
    const favMenu = member.locator('[data-testid=favorites-menu]');
    await favMenu.locator(`a[data-show-id="${show.id}"][data-online="1"]`).waitFor();
    await expect(favMenu.locator('[data-testid=favorites-all]').getAttribute('href')).resolves.toBe('/users/profile/favorites');
    await member.keyboard.press('Escape');

    // History: newest first, online state shown, cleared on request.
    await member.click('[data-testid=history-toggle]');
    const history = member.locator('[data-testid=history-list] a');
    await history.first().waitFor();
    await expect(history.evaluateAll((as) => as.map((a) => Number(a.getAttribute('data-show-id'))))).resolves.toEqual([show.id, other.id]);
    await expect(history.first().getAttribute('data-online')).resolves.toBe('1');
    await member.click('[data-testid=history-clear]');
    await member.locator('[data-testid=history-empty]').waitFor();
    await expect(member.locator('[data-testid=history-empty]').textContent()).resolves.toBe(m.favorites.historyEmpty);

    // Removing the favourite asks first.
    await item.locator('[data-testid=favorite-delete]').click();
    await member.locator('.dialog.confirm').waitFor();
    await member.locator('.dialog.confirm .btn-primary').click();
    await item.waitFor({ state: 'detached' });

    await studio.click('[data-testid=studio-online]');
    await member.context().close();
    await studio.context().close();
  });
});
