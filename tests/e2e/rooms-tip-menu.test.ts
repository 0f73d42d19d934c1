import type { Browser as PwBrowser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShowDetail } from '../../src/shared/shows';
import { newMember, type Lang } from './members';
import { msg, overlay, performerStudio, person, roomsBrowser, showsByIds, startChat, type Device } from './rooms-helpers';

// Issue 30 points 1 and 2 in the browser: the performer sets a tip menu and a goal in the studio
// while two viewers are in the room; a member tips from the menu; both viewers and the studio see
// the announcement and the goal bar move; the next menu tip reaches the goal (announced); the
// performer starts a new goal. en on a desktop studio, de on a phone studio.

let browser: PwBrowser;
let shows: ShowDetail[];

beforeAll(async () => {
  browser = await roomsBrowser();
  // A fixed range of ids of its own; each test brings its performer online.
  shows = await showsByIds(141, 149, (s) => s.freemode && !s.exclusiveOnly && s.contentproviderId === 1);
  if (shows.length < 2) throw new Error(`not enough shows for the tip menu suite: ${shows.length}`);
});

afterAll(async () => {
  await browser?.close();
});

const bar = (page: Page) => page.locator('[data-testid=goal-bar]');
const fill = (t: string, vars: Record<string, string | number>) => Object.entries(vars).reduce((s, [k, v]) => s.replace(`{{${k}}}`, String(v)), t);

describe.each([
  ['en', 'desktop', 'phone', 0],
  ['de', 'phone', 'desktop', 1],
] as [Lang, Device, Device, number][])('rooms: tip menu and goal (%s, studio on a %s, viewers also on a %s)', (lang, studioDevice, otherDevice, index) => {
  it('menu and goal set live, a menu tip announced to both viewers and the studio, the bar moves, the goal completes, a new one starts', async () => {
    const m = msg(lang);
    const show = shows[index];
    const [studio, member, guest] = await Promise.all([studioDevice, studioDevice, otherDevice].map((d) => person(browser, lang, d)));
    const [, mem] = await Promise.all([performerStudio(studio, show, { online: true }), newMember(member, { coins: 200, ageChecked: true, nickname: true })]);
    await startChat(member, show, 'free');
    await startChat(guest, show, 'free');
    for (const v of [member, guest]) await overlay(v).and(v.locator('[data-state=running]')).waitFor();

    // The studio: a price below 1 is refused with the field's error, then two actions are saved.
    const tips = studio.locator('[data-testid=studio-tips]');
    await tips.locator('[data-action=studio-menu-add]').click();
    await studio.fill('#studio-menu-0-coins', '0');
    await studio.fill('#studio-menu-0-en', 'Dance');
    await studio.fill('#studio-menu-0-de', 'Tanzen');
    await tips.locator('[data-action=studio-menu-save]').click();
    await tips.locator('[data-field=coins] .field-error', { hasText: m.errors.price_invalid }).waitFor();
    await studio.fill('#studio-menu-0-coins', '10');
    await tips.locator('[data-action=studio-menu-add]').click();
    await studio.fill('#studio-menu-1-coins', '20');
    await studio.fill('#studio-menu-1-en', 'Song');
    await studio.fill('#studio-menu-1-de', 'Lied');
    await tips.locator('[data-action=studio-menu-save]').click();
    await tips.locator('[data-testid=studio-menu-saved]').waitFor();
    // A goal of 30 coins with a time limit: both viewers see its bar at once.
    await studio.fill('#studio-goal-amount', '30');
    await studio.fill('#studio-goal-text', 'Encore');
    await studio.fill('#studio-goal-minutes', '30');
    await tips.locator('[data-action=studio-goal-start]').click();
    await tips.locator('[data-testid=goal-bar][data-progress="0"][data-amount="30"]').waitFor();
    for (const v of [member, guest]) await bar(v).and(v.locator('[data-progress="0"][data-amount="30"][data-state=open]')).waitFor();
    await expect(bar(guest).textContent()).resolves.toContain('Encore');
    // The guest cannot tip but sees the menu, in its language.
    await guest.locator('[data-testid=tip-menu-view] summary').click();
    await guest.locator('[data-testid=tip-menu-view] [data-testid=tip-menu-item]', { hasText: lang === 'de' ? 'Lied' : 'Song' }).waitFor();

    // The member tips from the menu (keyboard): the action is named in each reader's language.
    await member.click('[data-testid=chat-tip]');
    const items = member.locator('[data-testid=tip-menu-item]');
    await expect(items.count()).resolves.toBe(2);
    const dance = items.filter({ hasText: lang === 'de' ? 'Tanzen' : 'Dance' });
    await dance.focus();
    await member.keyboard.press('Enter');
    const who = mem.nick ?? '';
    const line = fill(m.chat.tip.menuLine_other, { nick: who, count: 10, action: lang === 'de' ? 'Tanzen' : 'Dance' });
    for (const p of [member, guest, studio]) await p.locator('[data-testid=chat-tip-line]', { hasText: line }).waitFor();
    for (const v of [member, guest]) await bar(v).and(v.locator('[data-progress="10"]')).waitFor();
    await tips.locator('[data-testid=goal-bar][data-progress="10"]').waitFor();
    await member.locator('[data-testid=chat-coins][data-coins="190"]').waitFor();

    // The song reaches the goal: announced in both chats and the studio.
    await member.click('[data-testid=chat-tip]');
    await items.filter({ hasText: lang === 'de' ? 'Lied' : 'Song' }).click();
    const reached = fill(m.chat.goal.reached, { text: 'Encore' });
    for (const v of [member, guest]) {
      await bar(v).and(v.locator('[data-progress="30"][data-state=reached]')).waitFor();
      await v.locator('.chat-line.notice', { hasText: reached }).waitFor();
    }
    await studio.locator('.chat-line.notice', { hasText: reached }).waitFor();
    await member.locator('[data-testid=chat-coins][data-coins="170"]').waitFor();

    // The performer starts a new goal; the viewers' bars start again from 0.
    await studio.fill('#studio-goal-amount', '50');
    await studio.fill('#studio-goal-text', 'Next');
    await tips.locator('[data-action=studio-goal-start]').click();
    for (const v of [member, guest]) await bar(v).and(v.locator('[data-progress="0"][data-amount="50"][data-state=open]')).waitFor();
    await Promise.all([studio, member, guest].map((p) => p.context().close()));
  });
});
