import type { Browser as PwBrowser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VOYEUR_PERCENT } from '../../src/shared/chat';
import type { SendAnswer } from '../../src/shared/messages';
import type { ShowDetail, ShowSummary } from '../../src/shared/shows';
import { baseUrl, call, open } from './browser';
import { becomeOperator, type Lang, newMember } from './members';
import { msg, overlay, performerStudio, person, roomsBrowser, startChat } from './rooms-helpers';

// Issue 24 point 15, what a walk-through as a member and a performer found, on a 390 px phone,
// each point in English or German (they alternate): (a) the chat overlay's video uses the space and its compact icon
// controls cover neither the picture nor the Buy coins link; (b) the studio does not scroll
// sideways; (e) a performer's top bar holds performer items only; (h) the studio shows the
// catalogue's truth about free chat; (c) prize vouchers name the open store with the right
// icon; (d) the inbox counts what it lists; (g) support sees the member's account.

let browser: PwBrowser;
/** Shows of the third list page: the other suites use the home page's first one. */
let shows: ShowDetail[];

beforeAll(async () => {
  browser = await roomsBrowser('media');
  const list = (await (await fetch(`${baseUrl()}/api/shows?page=3`)).json()) as { data: ShowSummary[] };
  shows = await Promise.all(list.data.map(async (s) => (await (await fetch(`${baseUrl()}/api/shows/${s.id}`)).json()) as ShowDetail));
});

afterAll(async () => {
  await browser?.close();
});

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function box(page: Page, selector: string): Promise<Box> {
  const b = await page.locator(selector).first().boundingBox();
  if (!b) throw new Error(`${selector} has no box`);
  return b;
}

/** The page does not scroll sideways (its content is no wider than the screen). */
async function noSideScroll(page: Page): Promise<void> {
  const [scroll, client] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
  expect(scroll).toBeLessThanOrEqual(client);
}

describe('walk-through on a 390 px phone', () => {
  it('(a) chat overlay: the video takes the space, compact named icon controls cover neither it nor the Buy coins link (en)', async () => {
    const lang: Lang = 'en';
    const m = msg(lang);
    const show = shows.filter((s) => s.contentproviderId === 1)[0];
    const voyeurPrice = Math.max(1, Math.round((show.pricing.private * VOYEUR_PERCENT) / 100));
    const [studio, member] = await Promise.all([person(browser, lang, 'desktop'), person(browser, lang, 'phone')]);
    await performerStudio(studio, show, { online: true });
    await studio.click('[data-testid=camera-start]');
    await studio.locator('[data-testid=studio-video][data-camera=on][data-air=live]').waitFor();
    // Coins for two minutes: the room warns one minute before they run out (a minute is 4 s here).
    await newMember(member, { coins: voyeurPrice * 2, ageChecked: true, nickname: true });
    await startChat(member, show, 'voyeur');
    await overlay(member).and(member.locator('[data-state=running]')).waitFor();
    await member.locator('[data-testid=live-video][data-playing="1"]').waitFor({ timeout: 30_000 });
    await member.locator('[data-testid=chat-warn] a').waitFor({ timeout: 30_000 });
    await member.screenshot({ path: `/tmp/walk-through-chat-${lang}.png` });

    const video = await box(member, '[data-testid=live-video-el]');
    // The picture takes the larger part of the screen, not a 220 px strip.
    expect(video.width).toBeGreaterThanOrEqual(389);
    expect(video.height).toBeGreaterThanOrEqual(0.45 * 844);

    const link = await box(member, '[data-testid=chat-warn] a');
    const names = { 'video-unmute': m.video.unmute, 'video-pip': m.video.pip, 'video-fullscreen': m.video.fullscreen };
    for (const [testid, name] of Object.entries(names)) {
      const button = member.locator(`[data-testid=${testid}]`);
      if (testid === 'video-pip' && (await button.count()) === 0) continue;
      expect(await button.getAttribute('aria-label')).toBe(name);
      // An icon, no visible words.
      expect((await button.innerText()).trim()).toBe('');
      const b = await box(member, `[data-testid=${testid}]`);
      expect(b.width).toBeLessThanOrEqual(44);
      expect(b.height).toBeLessThanOrEqual(44);
      expect(overlaps(b, video), `${testid} covers the video`).toBe(false);
      expect(overlaps(b, link), `${testid} covers the Buy coins link`).toBe(false);
    }
    // The Buy coins link is whole on screen and on top where it is clicked.
    expect(link.x).toBeGreaterThanOrEqual(0);
    expect(link.x + link.width).toBeLessThanOrEqual(390);
    expect(await member.locator('[data-testid=chat-warn] a').textContent()).toBe(m.chat.buyCoins);
    const onTop = await member.evaluate(([x, y]) => document.elementFromPoint(x, y)?.closest('[data-testid=chat-warn] a') !== null, [link.x + link.width / 2, link.y + link.height / 2]);
    expect(onTop).toBe(true);
    await noSideScroll(member);
    await Promise.all([studio.context().close(), member.context().close()]);
  });

  /** The performer of a show whose catalogue entry refuses free chat, its free-chat switch left on, in the studio. */
  async function refusingStudio(lang: Lang, n: number): Promise<Page> {
    const show = shows.filter((s) => s.contentproviderId === 1 && !s.flags.free)[(lang === 'en' ? 0 : 3) + n];
    const performer = await person(browser, lang, 'phone');
    await performerStudio(performer, show);
    const status = await call<{ status: { open: { free: boolean } } }>(performer, 'POST', 'studio/status', { open: { free: true } });
    expect(status.body.status.open.free).toBe(true);
    await open(performer, '/studio');
    await performer.locator('[data-testid=studio][data-connected="1"]').waitFor();
    return performer;
  }

  it('(b) the studio does not scroll sideways (de)', async () => {
    const lang: Lang = 'de';
    const performer = await refusingStudio(lang, 0);
    await performer.screenshot({ path: `/tmp/walk-through-studio-${lang}.png`, fullPage: true });
    await noSideScroll(performer);
    await performer.context().close();
  });

  it('(h) the studio shows free chat as the catalogue says: off, disabled, with the reason (en)', async () => {
    const lang: Lang = 'en';
    const performer = await refusingStudio(lang, 1);
    const m = msg(lang);
    const free = performer.locator('[data-open=free]');
    expect(await free.isChecked()).toBe(false);
    expect(await free.isDisabled()).toBe(true);
    expect(await performer.locator('[data-testid=studio-refused-free]').textContent()).toBe(m.studio.open.refused);
    expect(await free.getAttribute('aria-describedby')).toBe('studio-refused-free');
    // The switches the catalogue allows stay usable.
    expect(await performer.locator('[data-open=private]').isDisabled()).toBe(false);
    await performer.context().close();
  });

  it('(e) a performer’s top bar holds performer items only (de)', async () => {
    const lang: Lang = 'de';
    const performer = await refusingStudio(lang, 2);
    // No member coin chip, favourites, history or member messages; the menu is the studio's.
    const bar = performer.locator('.app-bar');
    await bar.locator('[data-testid=member-toggle]').waitFor();
    expect(await bar.locator('[data-testid=coins]').count()).toBe(0);
    expect(await bar.locator('[data-testid=messages-toggle]').count()).toBe(0);
    expect(await bar.locator('[data-testid=favorites-toggle]').count()).toBe(0);
    await performer.click('[data-testid=member-toggle]');
    const menu = performer.locator('[data-testid=member-menu]');
    await menu.waitFor();
    await menu.locator('[data-testid=menu-studio]').waitFor();
    expect(await menu.locator('[data-testid=menu-messages], [data-testid=menu-archive], a[href="/users/profile"]').count()).toBe(0);
    expect(await menu.locator('[data-action=logout]').count()).toBe(1);
    await noSideScroll(performer);
    await performer.context().close();
  });

  it('(c) prize vouchers: the video and the gallery prize each name their open store, with their own icon (en)', async () => {
    const lang: Lang = 'en';
    const m = msg(lang);
    const member = await person(browser, lang, 'phone');
    await newMember(member, { ageChecked: true });
    for (const code of ['FREEVIDEO', 'FREEGALLERY']) expect((await call(member, 'POST', 'coupons/redeem', { code })).status).toBe(200);
    await open(member, '/users/profile/coupons');
    const video = member.locator('[data-coupon=FREEVIDEO]');
    const gallery = member.locator('[data-coupon=FREEGALLERY]');
    await Promise.all([video.waitFor(), gallery.waitFor()]);
    await member.screenshot({ path: `/tmp/walk-through-vouchers-${lang}.png`, fullPage: true });
    expect(await video.locator('[data-testid=coupon-waiting]').textContent()).toBe(m.coupons.prize.waiting.VIDEO);
    expect(await gallery.locator('[data-testid=coupon-waiting]').textContent()).toBe(m.coupons.prize.waiting.GALLERY);
    expect(await video.locator('[data-testid=coupon-store]').getAttribute('href')).toBe('/videos');
    expect(await gallery.locator('[data-testid=coupon-store]').getAttribute('href')).toBe('/galleries');
    expect(await gallery.locator('[data-testid=coupon-store]').textContent()).toBe(m.coupons.prize.open.GALLERY);
    // Nothing says the store is still to open.
    expect(await member.locator('.coupons-list').innerText()).not.toMatch(/opens|öffnet/);
    const icon = (card: typeof video) => card.locator('.coupon-value svg path').getAttribute('d');
    const [videoIcon, galleryIcon] = await Promise.all([icon(video), icon(gallery)]);
    expect(galleryIcon).not.toBe(videoIcon);
    await noSideScroll(member);
    await member.context().close();
  });

  it('(d) the inbox counts the conversations it lists, in the language’s plural (de)', async () => {
    const lang: Lang = 'de';
    const m = msg(lang);
    const member = await person(browser, lang, 'desktop');
    await newMember(member, { ageChecked: true });
    const targets = shows.filter((s) => s.contentproviderId === 1).slice(4, 6);
    for (const s of targets) expect((await call(member, 'POST', 'conversations/show', { body: `hello ${lang}`, showid: s.id, pseudoid: 0, coins: 0, tip: false })).status).toBe(200);

    // Writing to support beside the list: the support thread is no conversation of the list.
    await open(member, '/messages/support');
    await member.locator('[data-testid=conversation]').nth(1).waitFor();
    await member.locator('[data-testid=send-body]').fill('Where is my payment?');
    await member.locator('[data-testid=send-button]').click();
    await member.locator('[data-testid=message]:not([data-message-id="-1"])', { hasText: 'Where is my payment?' }).waitFor();
    const count = (n: number) => (n === 1 ? m.messages.list.count_one : m.messages.list.count_other).replace('{{count}}', String(n));
    await expect.poll(() => member.locator('.inbox-count').textContent()).toBe(count(2));
    expect(await member.locator('[data-testid=conversation]').count()).toBe(2);
    // The list as the server has it says the same.
    await open(member, '/messages');
    await member.locator('[data-testid=conversation]').nth(1).waitFor();
    expect(await member.locator('.inbox-count').textContent()).toBe(count(2));
    await member.context().close();
  });

  it('(g) the operator sees the account behind a support thread (en)', async () => {
    const lang: Lang = 'en';
    const m = msg(lang);
    const member = await person(browser, lang, 'desktop');
    const { id } = await newMember(member, { ageChecked: true });
    const operator = await person(browser, lang, 'phone');
    const sent = await call<SendAnswer>(member, 'POST', 'conversations/support', { body: 'Still waiting' });
    await becomeOperator(operator, await newMember(operator), '/operator/messages');
    await operator.locator(`[data-testid=inbox-item][data-id="${sent.body.conversation.id}"]`).click();
    const account = operator.locator('[data-testid=support-member]');
    await account.waitFor();
    const me = (await call<{ user: { email: string; name: string } }>(member, 'GET', 'session/init')).body.user;
    expect(await account.locator('[data-testid=support-member-id]').textContent()).toBe(String(id));
    expect(await account.locator('[data-testid=support-member-email]').textContent()).toBe(me.email);
    expect(await account.locator('[data-testid=support-member-name]').textContent()).toBe(me.name);
    expect(await account.locator('h3').textContent()).toBe(m.inbox.member.title);
    await noSideScroll(operator);
    await Promise.all([member.context().close(), operator.context().close()]);
  });
});
