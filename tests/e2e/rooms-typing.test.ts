import type { Browser as PwBrowser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShowDetail } from '../../src/shared/shows';
import { homeShows, msg, overlay, performerStudio, person, roomsBrowser, startChat } from './rooms-helpers';

// Typing notices under the room's frame limits (issue 24): the room passes one per couple of
// seconds per sender and closes a socket that floods. A performer and a guest who type a long
// line key by key are seen typing, their lines arrive, and neither socket is ever closed (the
// studio used to send a notice per keystroke, which the room would now count as a flood).

let browser: PwBrowser;
let show: ShowDetail;

beforeAll(async () => {
  browser = await roomsBrowser();
  [show] = await homeShows((s) => s.online && s.freemode && s.contentproviderId === 1);
});

afterAll(async () => {
  await browser?.close();
});

describe('rooms: typing', () => {
  it('the performer and a guest type long lines key by key: each is seen typing, the lines arrive, no socket is closed', async () => {
    expect(show, 'a live show with free chat on the home page').toBeDefined();
    const m = msg('en');
    const [studio, guest] = await Promise.all([person(browser, 'en', 'desktop'), person(browser, 'en', 'desktop')]);
    await performerStudio(studio, show, { online: true });
    await startChat(guest, show, 'free');
    await overlay(guest).and(guest.locator('[data-connected="1"][data-state=running]')).waitFor();
    await studio.locator('.studio-person').filter({ hasText: 'guest' }).waitFor();

    // 120 keystrokes, as fast as the browser takes them.
    const long = `a long line from the studio ${'x'.repeat(92)}`;
    await studio.locator('[data-testid=studio-input]').pressSequentially(long);
    await guest.locator('[data-testid=chat-typing]', { hasText: m.chat.panel.typing.replace('{{nick}}', show.name) }).waitFor();
    await studio.press('[data-testid=studio-input]', 'Enter');
    await guest.locator('[data-testid=chat-line][data-from=performer] .chat-text', { hasText: long }).waitFor();

    const answer = `and a long answer from the guest ${'y'.repeat(87)}`;
    await guest.locator('[data-testid=chat-input]').pressSequentially(answer);
    // The guest's generated nickname, then "is typing…".
    await studio.locator('.chat-typing', { hasText: m.chat.panel.typing.split('{{nick}}')[1] }).waitFor();
    await guest.click('[data-testid=chat-send]');
    await studio.locator('[data-testid=studio-lines] [data-from=guest] .chat-text', { hasText: answer }).waitFor();

    // Both sockets are still their first connection: the room never took the typing for a flood.
    await expect(studio.evaluate(() => (window as { __studioSocket?: { opens: number } | null }).__studioSocket?.opens ?? 0)).resolves.toBe(1);
    await expect(guest.evaluate(() => window.__chatSocket?.opens ?? 0)).resolves.toBe(1);
    await Promise.all([studio, guest].map((p) => p.context().close()));
  });
});
