import type { Browser as PwBrowser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VOYEUR_PERCENT } from '../../src/shared/chat';
import type { ShowDetail } from '../../src/shared/shows';
import { call, open } from './browser';
import { newMember } from './members';
import { barCoins, msg, overlay, performerStudio, person, roomsBrowser, showPath, showsByIds, startChat } from './rooms-helpers';

// What the meter bills, as a person sees it (issue 24; a 4 s minute, the default 30 s grace): a
// voyeur's chat ends with the private it watched (told so, the bar no longer says Voyeur, no
// further charge); the performer leaving costs the member nothing more; a member who closed the
// page mid-private is told on return that the chat ended and what it cost.

let browser: PwBrowser;
let shows: ShowDetail[];

beforeAll(async () => {
  browser = await roomsBrowser();
  // A fixed range of ids of its own (rooms-logout takes the range below); each test brings its performer online.
  shows = await showsByIds(250, 264, (s) => s.freemode && s.exclusivemode && !s.exclusiveOnly && s.contentproviderId === 1);
  if (shows.length < 3) throw new Error(`not enough live shows for the meter suite: ${shows.length}`);
});

afterAll(async () => {
  await browser?.close();
});

interface HistoryRow {
  sessionId: string;
  type: string;
  end_reason: string | null;
  minutes: number;
  coins: number;
}

async function coinsOf(page: Page): Promise<number> {
  return (await call<{ user: { coins: number } }>(page, 'GET', 'auth/user')).body.user.coins;
}

async function latestChat(page: Page): Promise<HistoryRow> {
  return (await call<{ data: HistoryRow[] }>(page, 'GET', 'user/chathistory')).body.data[0];
}

/** A member's private chat with the show, accepted in the studio; answers the member's coins before it. */
async function runningPrivate(studio: Page, member: Page, show: ShowDetail, coins: number): Promise<{ nick: string }> {
  const { nick } = await newMember(member, { coins, ageChecked: true, nickname: true });
  await startChat(member, show, 'private');
  await overlay(member).and(member.locator('[data-state=pending]')).waitFor();
  await studio.locator('.studio-request').filter({ hasText: nick ?? '' }).locator('[data-testid=studio-accept]').click();
  await overlay(member).and(member.locator('[data-state=running]')).waitFor();
  await member.locator('[data-testid=chat-minutes][data-minutes="1"]').waitFor();
  return { nick: nick ?? '' };
}

describe('rooms: the meter', () => {
  it('a voyeur (en, phone) is told when the private ends; the bar stops saying Voyeur and nothing more is charged', async () => {
    const m = msg('en');
    const show = shows[0];
    const voyeurPrice = Math.max(1, Math.round((show.pricing.private * VOYEUR_PERCENT) / 100));
    const [studio, member, voyeur] = await Promise.all([person(browser, 'en', 'desktop'), person(browser, 'en', 'desktop'), person(browser, 'en', 'phone')]);
    await performerStudio(studio, show, { online: true });
    await runningPrivate(studio, member, show, show.pricing.private * 10);
    const v = await newMember(voyeur, { coins: voyeurPrice * 10, ageChecked: true, nickname: true });
    await startChat(voyeur, show, 'voyeur');
    await overlay(voyeur).and(voyeur.locator('[data-state=running][data-type=voyeur]')).waitFor();
    await expect(voyeur.locator('[data-testid=chat-type]').textContent()).resolves.toBe(m.chat.type.voyeur);
    await studio.locator(`.studio-person[data-nick="${v.nick}"]`).waitFor();

    // The member ends the private: the voyeur is told at once, and the studio no longer lists them.
    await member.click('[data-testid=chat-end]');
    await member.click('.dialog.confirm .btn-primary');
    await overlay(voyeur).and(voyeur.locator('[data-state=ended]')).waitFor();
    await expect(voyeur.locator('[data-testid=chat-stage]').textContent()).resolves.toBe(m.chat.ended.private_ended);
    await expect(voyeur.locator('[data-testid=chat-type]').textContent()).resolves.toBe(m.chat.bar.ended);
    await studio.locator(`.studio-person[data-nick="${v.nick}"]`).waitFor({ state: 'detached' });
    const after = await coinsOf(voyeur);
    const row = await latestChat(voyeur);
    expect(row).toMatchObject({ type: 'voyeur', end_reason: 'private_ended' });
    expect(after).toBe(voyeurPrice * 10 - row.minutes * voyeurPrice);
    // A whole minute later (4 s here, plus a margin) the voyeur has paid nothing more.
    await voyeur.waitForTimeout(5_000);
    expect(await coinsOf(voyeur)).toBe(after);
    expect((await latestChat(voyeur)).minutes).toBe(row.minutes);
    await Promise.all([studio, member, voyeur].map((p) => p.context().close()));
  });

  it('the performer leaving (de, desktop) costs the member nothing more: no minute while away, then "went offline"', async () => {
    const m = msg('de');
    const show = shows[1];
    const price = show.pricing.private;
    const [studio, member] = await Promise.all([person(browser, 'de', 'desktop'), person(browser, 'de', 'desktop')]);
    await performerStudio(studio, show, { online: true });
    await runningPrivate(studio, member, show, price * 20);
    // The studio's tab closes; the show goes offline after the grace period (30 s, more than seven
    // 4-s minutes), with no minute in between (at most one that began while the tab was closing).
    const before = Number(await member.locator('[data-testid=chat-minutes]').getAttribute('data-minutes'));
    await studio.context().close();
    await overlay(member).and(member.locator('[data-state=ended]')).waitFor({ timeout: 60_000 });
    await expect(member.locator('[data-testid=chat-stage]').textContent()).resolves.toBe(m.chat.ended.offline.replace('{{name}}', show.name));
    const row = await latestChat(member);
    expect(row).toMatchObject({ end_reason: 'offline', coins: row.minutes * price });
    expect(row.minutes).toBeLessThanOrEqual(before + 1);
    await expect(member.locator('[data-testid=chat-minutes]').getAttribute('data-minutes')).resolves.toBe(String(row.minutes));
    expect(await coinsOf(member)).toBe(price * 20 - row.minutes * price);
    expect(await barCoins(member)).toBe(price * 20 - row.minutes * price);
    await member.context().close();
  }, 120_000);

  it('a member who closed the page mid-private (de, phone) is told on return that the chat ended and what it cost', async () => {
    const m = msg('de');
    const show = shows[2];
    const price = show.pricing.private;
    const [studio, member] = await Promise.all([person(browser, 'de', 'desktop'), person(browser, 'de', 'phone')]);
    await performerStudio(studio, show, { online: true });
    await runningPrivate(studio, member, show, price * 20);
    const ctx = member.context();
    await member.close({ runBeforeUnload: true });
    const back = await ctx.newPage();
    await open(back, showPath(show));
    const dialog = back.locator('[data-testid=chat-left]');
    await dialog.waitFor();
    const row = await latestChat(back);
    expect(row.minutes).toBeGreaterThanOrEqual(1);
    expect(row.coins).toBe(row.minutes * price);
    const text = (row.minutes === 1 ? m.chat.abandoned.text_one : m.chat.abandoned.text_other)
      .replace('{{name}}', show.name)
      .replace('{{type}}', m.chat.type.private)
      .replace('{{count}}', String(row.minutes))
      .replace('{{coins}}', String(row.coins));
    await expect(dialog.locator('p').textContent()).resolves.toBe(text);
    await expect(dialog.locator('h2').textContent()).resolves.toBe(m.chat.abandoned.title);
    await dialog.locator('button').click();
    await dialog.waitFor({ state: 'detached' });
    // Told once: the next visit says nothing.
    await open(back, showPath(show));
    await back.locator('[data-testid=chat-actions]').waitFor();
    await expect(back.evaluate(() => localStorage.getItem('chat_running'))).resolves.toBeNull();
    await expect(back.locator('[data-testid=chat-left]').count()).resolves.toBe(0);
    await Promise.all([studio, back].map((p) => p.context().close()));
  });
});
