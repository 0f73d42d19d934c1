import type { Browser as PwBrowser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShowDetail } from '../../src/shared/shows';
import { open } from './browser';
import { newMember, type Lang } from './members';
import { homeShows, msg, overlay, PERFORMER_PASSWORD, performerStudio, person, roomsBrowser, startChat, type Device } from './rooms-helpers';

// The performer's studio and the free chat, in German on a phone: the
// performer goes online from the studio and a visitor's open home page shows it within 1 s; a
// guest joins the free chat, both sides write to each other, the performer kicks the guest.

let browser: PwBrowser;
let shows: ShowDetail[];

beforeAll(async () => {
  browser = await roomsBrowser();
  shows = await homeShows((s) => s.online && s.freemode && s.contentproviderId === 1);
});

afterAll(async () => {
  await browser?.close();
});

const CASES: [Lang, Device][] = [['de', 'phone']];

describe.each(CASES)('rooms: studio and free chat (%s, %s)', (lang, device) => {
  it('goes online from the studio, the home page shows it live within 1 s, guest and performer chat both ways, the performer kicks the guest', async () => {
    const m = msg(lang);
    const show = shows[0];
    expect(show, 'a live show with free chat on the home page').toBeDefined();
    const [studio, visitor, guest] = await Promise.all([person(browser, lang, device), person(browser, lang, device), person(browser, lang, device)]);

    // The visitor's home page is open while the show is live; the performer takes it offline first.
    await open(visitor, '/');
    const tile = visitor.locator(`.show-tile[data-show-id="${show.id}"]`);
    await expect(tile.getAttribute('data-online')).resolves.toBe('1');
    await performerStudio(studio, show, { online: false });
    await tile.and(visitor.locator('[data-online="0"]')).waitFor();
    await expect(studio.locator('[data-testid=studio-state]').textContent()).resolves.toContain(m.studio.state.offline);
    // Performers find the studio in the drawer.
    await expect(studio.locator('[data-drawer-item=studio]').getAttribute('href')).resolves.toBe('/studio');

    // Going online in the studio: the open home page shows it within 1 s of the answer.
    const answered = studio.waitForResponse((r) => r.url().endsWith('/api/studio/status') && r.status() === 200);
    await studio.click('[data-testid=studio-online]');
    await answered;
    await visitor.waitForFunction((id) => document.querySelector(`.show-tile[data-show-id="${id}"]`)?.getAttribute('data-online') === '1', show.id, { timeout: 1_000, polling: 20 });
    await studio.locator('[data-testid=studio][data-state=online]').waitFor();
    await expect(studio.locator('[data-testid=studio-online]').textContent()).resolves.toBe(m.studio.goOffline);

    // A guest joins the free chat: the overlay with the chat bar, #enter_chat, no app bar.
    await startChat(guest, show, 'free');
    await overlay(guest).and(guest.locator('[data-state=running]')).waitFor();
    expect(new URL(guest.url()).hash).toBe('#enter_chat');
    await expect(guest.locator('[data-testid=chat-type]').textContent()).resolves.toBe(m.chat.type.free);
    await expect(guest.locator('.app-bar').isVisible()).resolves.toBe(false);
    await expect(guest.locator('footer.footer').isVisible()).resolves.toBe(false);

    // The performer sees the guest in the room and writes to the room.
    const row = studio.locator('.studio-person').filter({ hasText: 'guest' });
    await row.waitFor();
    const hello = `hello ${lang} <b>guest</b>`;
    await studio.fill('[data-testid=studio-input]', hello);
    await studio.press('[data-testid=studio-input]', 'Enter');
    const guestLine = guest.locator('[data-testid=chat-line][data-from=performer] .chat-text', { hasText: hello });
    await guestLine.waitFor();
    // Text, never HTML.
    await expect(guest.locator('[data-testid=chat-lines] b').count()).resolves.toBe(0);

    // The guest answers; the performer reads it.
    await guest.fill('[data-testid=chat-input]', `hi from the guest ${lang}`);
    await guest.click('[data-testid=chat-send]');
    await studio.locator('[data-testid=studio-lines] [data-from=guest] .chat-text', { hasText: `hi from the guest ${lang}` }).waitFor();

    // A dropped connection rejoins the same session: the lines stay, writing goes on.
    const opens = await guest.evaluate(() => window.__chatSocket?.opens ?? 0);
    expect(opens).toBe(1);
    await guest.evaluate(() => window.__chatSocket?.reconnect());
    await guest.waitForFunction(() => (window.__chatSocket?.opens ?? 0) === 2 && window.__chatSocket?.open === true);
    await overlay(guest).and(guest.locator('[data-connected="1"][data-state=running]')).waitFor();
    await expect(guestLine.count()).resolves.toBe(1);
    await guest.fill('[data-testid=chat-input]', `back again ${lang}`);
    await guest.click('[data-testid=chat-send]');
    await studio.locator('[data-testid=studio-lines] [data-from=guest] .chat-text', { hasText: `back again ${lang}` }).waitFor();

    // The performer kicks the guest: the guest's chat ends with the reason, and closes.
    await row.locator('[data-action=kick]').click();
    await overlay(guest).and(guest.locator('[data-state=ended]')).waitFor();
    await expect(guest.locator('[data-testid=chat-stage]').textContent()).resolves.toBe(m.chat.ended.kicked.replace('{{name}}', show.name));
    await guest.click('[data-testid=chat-close]');
    await overlay(guest).waitFor({ state: 'detached' });
    expect(new URL(guest.url()).hash).toBe('');
    await expect(guest.locator('.app-bar').isVisible()).resolves.toBe(true);
    await row.waitFor({ state: 'detached' });

    await Promise.all([studio, visitor, guest].map((p) => p.context().close()));
  });
});

describe('rooms: the studio for non-performers', () => {
  it('sends visitors to the login and back to the studio after it; tells members without a show that it is for performers', async () => {
    const visitor = await person(browser, 'en', 'phone');
    await open(visitor, '/studio');
    expect(`${new URL(visitor.url()).pathname}${new URL(visitor.url()).search}`).toBe('/login?redirect=%2Fstudio');
    // The show of the test above: its performer comes back to the studio.
    const show = shows[0];
    await visitor.fill('#page-login-username', show.slugName);
    await visitor.fill('#page-login-password', PERFORMER_PASSWORD);
    await visitor.click('form[data-form=login] button[type=submit]');
    await visitor.waitForURL(/\/studio$/);
    await visitor.locator('[data-testid=studio][data-connected="1"]').waitFor();
    await visitor.context().close();

    const page = await person(browser, 'de', 'desktop');
    await newMember(page);
    await open(page, '/studio');
    await expect(page.locator('[data-testid=studio-not-performer] h1').textContent()).resolves.toBe(msg('de').studio.notPerformer.title);
    await page.context().close();
  });
});
