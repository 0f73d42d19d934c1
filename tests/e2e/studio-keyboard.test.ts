import type { Browser as PwBrowser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatSafetySettings } from '../../src/shared/chat-safety';
import type { GeoRulesAnswer } from '../../src/shared/geo';
import type { ShowDetail } from '../../src/shared/shows';
import type { TipsView } from '../../src/shared/tips';
import { call } from './browser';
import { newMember, type Lang } from './members';
import { msg, overlay, performerStudio, person, roomsBrowser, showsByIds, startChat, type Device } from './rooms-helpers';

// The studio's tip menu, goal, geo rules, chat safety and presence cards with the keyboard only
// (shows 101-110), en on a phone and de on a desktop: every control is reached with Tab and shows
// its focus, is operated with keys, keeps the focus in the card when it goes away, and the result
// is checked through the API. On the phone no card is wider than the screen.

let browser: PwBrowser;
let shows: ShowDetail[];

beforeAll(async () => {
  browser = await roomsBrowser();
  shows = await showsByIds(101, 110, (s) => s.contentproviderId === 1 && s.freemode);
});

afterAll(async () => {
  await browser?.close();
});

const CASES: [Lang, Device, number][] = [
  ['en', 'phone', 0],
  ['de', 'desktop', 1],
];

/** Puts the focus on the card's heading, as a skip link would: Tab goes on from there. */
async function startAt(page: Page, card: string): Promise<void> {
  await page.locator(card).evaluate((el) => {
    const h = el.querySelector('h2') as HTMLElement;
    h.tabIndex = -1;
    h.focus();
  });
}

/** What the focused element is, and whether its focus shows (its outline or shadow differ from when it is not focused). */
const focused = (page: Page, selector: string) =>
  page.evaluate((sel) => {
    const a = document.activeElement as HTMLElement | null;
    if (!a || a === document.body) return { hit: false, shows: false, what: 'body' };
    const look = () => {
      const cs = getComputedStyle(a);
      return `${cs.outlineStyle} ${cs.outlineWidth} ${cs.outlineColor} ${cs.boxShadow} ${cs.borderColor}`;
    };
    const on = look();
    a.blur();
    const off = look();
    a.focus();
    return { hit: a.matches(sel), shows: on !== off, what: a.outerHTML.slice(0, 160) };
  }, selector);

/** Presses Tab until `selector` has the focus; every stop on the way shows its focus. */
async function tabTo(page: Page, selector: string, max = 40): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const f = await focused(page, selector);
    expect(f.shows, `focus visible on ${f.what}`).toBe(true);
    if (f.hit) return;
  }
  throw new Error(`${selector} is not reached with Tab`);
}

async function expectFocus(page: Page, selector: string): Promise<void> {
  await expect.poll(async () => (await focused(page, selector)).hit, { message: `focus on ${selector}` }).toBe(true);
}

async function api<T>(page: Page, path: string): Promise<T> {
  const res = await call<T>(page, 'GET', path);
  expect(res.status).toBe(200);
  return res.body;
}

/** On a phone nothing in the card is wider than the card, and the page does not scroll sideways. */
async function fits(page: Page, card: string): Promise<void> {
  const wide = await page.locator(card).evaluate((el) => {
    const box = el.getBoundingClientRect();
    const out = [...el.querySelectorAll('*')].filter((x) => {
      const r = x.getBoundingClientRect();
      return r.width > 0 && (r.right > box.right + 1 || r.left < box.left - 1);
    });
    return out.map((x) => x.outerHTML.slice(0, 100)).concat(document.documentElement.scrollWidth > innerWidth ? ['page'] : []);
  });
  expect(wide).toEqual([]);
}

describe.each(CASES)('studio cards with the keyboard (%s, %s)', (lang, device, index) => {
  it('tip menu, goal, geo rules, chat safety and an unmute, keys only', async () => {
    const m = msg(lang);
    const show = shows[index];
    expect(show, 'a free-chat show in 101-110').toBeDefined();
    const [studio, member] = await Promise.all([person(browser, lang, device), person(browser, lang, device)]);
    await performerStudio(studio, show, { online: true });
    const kb = studio.keyboard;

    // Goal: amount, text, no time limit, started with Enter.
    const tips = '[data-testid=studio-tips]';
    await startAt(studio, tips);
    await tabTo(studio, '#studio-goal-amount');
    await kb.type('40');
    await tabTo(studio, '#studio-goal-text');
    await kb.type(`keys goal ${lang}`);
    await tabTo(studio, '[data-action=studio-goal-start]');
    await kb.press('Enter');
    await studio.locator(`${tips} [data-action=studio-goal-end]`).waitFor();
    // The pressed button keeps the focus while it is busy (a disabled one would drop it to the body).
    await expectFocus(studio, '[data-action=studio-goal-start]');
    expect((await api<TipsView>(studio, 'chat/tips/studio')).goal).toMatchObject({ amount: 40, text: `keys goal ${lang}` });
    // Ending it: its button goes, the focus goes to the amount.
    await tabTo(studio, '[data-action=studio-goal-end]');
    await kb.press('Enter');
    await expectFocus(studio, '#studio-goal-amount');
    await expect.poll(async () => (await api<TipsView>(studio, 'chat/tips/studio')).goal?.state ?? 'none').not.toBe('open');

    // Menu: a new row takes the focus; two rows, the first removed, the second saved.
    const rows = await studio.locator(`${tips} [data-testid=studio-menu-row]`).count();
    await tabTo(studio, '[data-action=studio-menu-add]');
    await kb.press('Enter');
    await expectFocus(studio, `#studio-menu-${rows}-coins`);
    await kb.type('7');
    await startAt(studio, tips);
    await tabTo(studio, '[data-action=studio-menu-add]');
    await kb.press('Enter');
    await expectFocus(studio, `#studio-menu-${rows + 1}-coins`);
    await kb.type('25');
    await kb.press('Tab');
    await kb.type(`Wave ${lang}`);
    await kb.press('Tab');
    await kb.type(`Winken ${lang}`);
    // Remove the first new row: the focus goes to the row that took its place.
    await startAt(studio, tips);
    await tabTo(studio, `[data-testid=studio-menu-row]:nth-child(${rows + 1}) button`);
    await kb.press('Enter');
    await expectFocus(studio, `#studio-menu-${rows}-coins`);
    expect(await studio.inputValue(`#studio-menu-${rows}-coins`)).toBe('25');
    await tabTo(studio, '[data-action=studio-menu-save]');
    await kb.press('Enter');
    await studio.locator(`${tips} [data-testid=studio-menu-saved]`).waitFor();
    await expectFocus(studio, '[data-action=studio-menu-save]');
    const menu = (await api<TipsView>(studio, 'chat/tips/studio')).menu;
    expect(menu.map((i) => [i.coins, i.en, i.de])).toContainEqual([25, `Wave ${lang}`, `Winken ${lang}`]);
    expect(menu.some((i) => i.coins === 7)).toBe(false);
    if (device === 'phone') await fits(studio, tips);

    // Geo: search, block with Enter (focus back in the search), preview with keys, unblock.
    const geo = '[data-testid=studio-geo]';
    const bavaria = lang === 'de' ? 'Bayern' : 'Bavaria';
    await startAt(studio, geo);
    await tabTo(studio, '[data-testid=studio-geo-search]');
    await kb.type(bavaria);
    await tabTo(studio, '[data-code="DE-BY"] [data-action=geo-block]');
    await kb.press('Enter');
    await studio.locator(`${geo}[data-rules="DE-BY"]`).waitFor();
    await expectFocus(studio, '[data-testid=studio-geo-search]');
    expect((await api<GeoRulesAnswer>(studio, 'studio/geo')).codes).toEqual(['DE-BY']);
    await tabTo(studio, '[data-testid=studio-geo-place]');
    await kb.type(bavaria);
    await studio.locator('[data-testid=studio-geo-preview][data-blocked="1"]').waitFor();
    if (device === 'phone') await fits(studio, geo);
    await startAt(studio, geo);
    await tabTo(studio, '[data-code="DE-BY"] [data-action=geo-unblock]');
    await kb.press('Enter');
    await studio.locator(`${geo}[data-rules=""]`).waitFor();
    await expectFocus(studio, '[data-testid=studio-geo-search]');
    await studio.locator('[data-testid=studio-geo-preview][data-blocked="0"]').waitFor();
    expect((await api<GeoRulesAnswer>(studio, 'studio/geo')).codes).toEqual([]);

    // Chat safety: the word list saved with the keyboard.
    const safety = '[data-testid=studio-chat-safety]';
    await startAt(studio, safety);
    await tabTo(studio, '[data-testid=studio-words]');
    await kb.type(`keysword${lang}`);
    await tabTo(studio, '[data-testid=studio-words-form] button[type=submit]');
    await kb.press('Enter');
    await studio.locator('[data-testid=studio-words-saved]').waitFor();
    expect((await api<ChatSafetySettings>(studio, 'studio/chat-safety')).words).toContain(`keysword${lang}`);

    // A member chats: the studio's regulars list them without a reload; appointed with Enter.
    const mem = await newMember(member, { nickname: true });
    await startChat(member, show, 'free');
    await overlay(member).and(member.locator('[data-state=running][data-connected="1"]')).waitFor();
    const regular = studio.locator(`${safety} [data-regular="${mem.nick}"]`);
    await regular.waitFor();
    await startAt(studio, safety);
    await tabTo(studio, `[data-regular="${mem.nick}"] [data-action=appoint]`);
    await kb.press('Enter');
    await regular.locator('[data-action=dismiss]').waitFor();
    await expectFocus(studio, `[data-regular="${mem.nick}"] [data-action=dismiss]`);
    expect((await api<ChatSafetySettings>(studio, 'studio/chat-safety')).moderators.map((x) => x.id)).toEqual([mem.id]);
    await member.locator('[data-testid=chat-lines] .chat-line.notice', { hasText: m.chat.safety.appointed }).waitFor();
    if (device === 'phone') await fits(studio, safety);

    // The member is muted for 15 minutes (the performer's room command): the presence list says
    // until when; "Unmute" with the keyboard lets them write again.
    const person_ = studio.locator(`.studio-person[data-nick="${mem.nick}"]`);
    const sid = await person_.getAttribute('data-session');
    await studio.evaluate((id) => (window as { __studioSocket?: { send(cmd: unknown): boolean } | null }).__studioSocket?.send({ t: 'mod', act: 'mute', sessionId: id, minutes: 15 }), sid);
    await person_.locator('[data-testid=studio-muted-until]').waitFor();
    expect(await person_.locator('[data-testid=studio-muted-until]').innerText()).toContain(m.studio.people.mutedUntil.split('{{time}}')[0].trim());
    await member.locator('[data-testid=chat-lines] .chat-line.notice', { hasText: m.chat.safety.mutedUntil.split('{{time}}')[0] }).waitFor();
    await startAt(studio, '.studio-people');
    await tabTo(studio, `[data-session="${sid}"] [data-testid=studio-unmute-timed]`);
    await kb.press('Enter');
    await person_.locator('[data-testid=studio-muted-until]').waitFor({ state: 'detached' });
    await member.locator('[data-testid=chat-lines] .chat-line.notice', { hasText: m.chat.safety.unmuted }).waitFor();
    if (device === 'phone') await fits(studio, '.studio-people');

    for (const p of [studio, member]) await p.context().close();
  }, 180_000);
});
