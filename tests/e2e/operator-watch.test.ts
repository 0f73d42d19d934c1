import type { Browser as PwBrowser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShowDetail } from '../../src/shared/shows';
import { call, open } from './browser';
import { becomeOperator, newMember } from './members';
import { msg, performerStudio, person, roomsBrowser, showsByIds, startChat } from './rooms-helpers';
import { decoding } from './video-helpers';

// Issue 29 point 2 in Chromium: an operator (de, phone) opens Watch on /operator/live for a show
// whose performer is live with the camera on and a member watching: the operator's page plays the
// video and shows the member's line, while the studio lists and counts only the member.

let browser: PwBrowser;
let shows: ShowDetail[];

beforeAll(async () => {
  browser = await roomsBrowser('media');
  // A show offline in the seed below the ranges other suites take by id (170-264; the seed has no
  // 265-274), so no suite's list of online shows has it; the test takes it offline again at its end.
  shows = await showsByIds(150, 169, (s) => s.contentproviderId === 1 && !s.online);
  expect(shows.length).toBeGreaterThan(0);
});

afterAll(async () => {
  await browser?.close();
});

describe('an operator watches a live show', () => {
  it('unseen (de, phone): the video plays and the member\'s line arrives; the studio lists only the member', async () => {
    const show = shows[0];
    const de = msg('de');
    const [studio, member, operator] = await Promise.all([person(browser, 'en', 'desktop'), person(browser, 'en', 'desktop'), person(browser, 'de', 'phone')]);
    await Promise.all([performerStudio(studio, show, { online: true }), newMember(member, { ageChecked: true, nickname: true })]);
    await studio.click('[data-testid=camera-start]');
    await studio.locator('[data-testid=studio-video][data-camera=on][data-air=live]').waitFor();
    await startChat(member, show, 'free');
    await decoding(member);
    await studio.locator('.studio-person').first().waitFor();

    await becomeOperator(operator, await newMember(operator), '/operator/live');
    await open(operator, '/operator/live');
    await operator.locator(`[data-testid=live-show][data-id="${show.id}"] [data-testid=live-watch]`).click();
    await operator.locator('[data-testid=watch][data-phase=watching]').waitFor();
    expect(await operator.locator('[data-testid=watch-page] h1').textContent()).toBe(de.operator.watch.title);
    await decoding(operator);

    const text = `Hallo vom Mitglied ${Date.now()}`;
    await member.fill('[data-testid=chat-input]', text);
    await member.click('[data-testid=chat-send]');
    await operator.locator('[data-testid=watch-lines] .chat-text', { hasText: text }).waitFor();
    await studio.locator('[data-testid=studio-lines] .chat-text', { hasText: text }).waitFor();

    // The studio: one person in its list, one viewer receiving the video (the member's), though the operator's page decodes too.
    expect(await studio.locator('.studio-person').count()).toBe(1);
    expect(await studio.locator('[data-testid=studio-video-viewers]').textContent()).toContain(msg('en').studio.video.viewers_one.replace('{{count}}', '1'));
    // No input on the operator's page: the room would refuse a line anyway.
    expect(await operator.locator('[data-testid=watch-page] textarea, [data-testid=watch-page] input[type=text]').count()).toBe(0);
    // The phone's width holds the page (no sideways scrolling).
    expect(await operator.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

    // The performer ends the show: the operator's watch ends.
    expect((await call(studio, 'POST', 'studio/status', { online: false })).status).toBe(200);
    await operator.locator('[data-testid=watch][data-phase=ended]').waitFor();
    expect(await operator.locator('[data-testid=watch-status]').textContent()).toBe(de.operator.watch.ended);
    for (const p of [studio, member, operator]) await p.context().close();
  });
});
