import type { Browser as PwBrowser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Paged, ShowDetail, VideoSummary } from '../../src/shared/shows';
import { call, open } from './browser';
import { becomeOperator, newMember } from './members';
import { msg, performerStudio, person, roomsBrowser, showPath, showsByIds } from './rooms-helpers';

// Issue 29 point 3 in Chromium: every restriction offers an appeal, the removal of an upload too.
// An operator takes a video out of the store on a report; its performer (de, phone) reads the
// reasons in the studio and appeals; an operator (en, desktop) reinstates it on /operator/appeals;
// the video is in the show's store again and the studio shows the outcome with the answer.

let browser: PwBrowser;
let shows: ShowDetail[];

beforeAll(async () => {
  browser = await roomsBrowser();
  // Shows of our own no other suite takes (ids 200-206).
  shows = await showsByIds(200, 206, (s) => s.contentproviderId === 1);
  expect(shows.length).toBeGreaterThan(0);
});

afterAll(async () => {
  await browser?.close();
});

describe('appeals against a removed upload', () => {
  it('the performer (de, phone) appeals the removal in the studio, an operator (en) reinstates it, the store has it again', async () => {
    const operator = await person(browser, 'en', 'desktop');
    await becomeOperator(operator, await newMember(operator), '/operator/appeals');
    // A video of one of our shows, in its store now.
    let show: ShowDetail | undefined;
    let video: VideoSummary | undefined;
    for (const s of shows) {
      const listed = await call<Paged<VideoSummary>>(operator, 'GET', `search/videos?showid=${s.id}&limit=48`);
      expect(listed.status).toBe(200);
      video = listed.body.data[0];
      show = s;
      if (video) break;
    }
    expect(video, 'a show of 200-206 with a video in its store').toBeTruthy();
    const clip = `${showPath(show!)}/videos/${video!.id}`;

    // Reported, and removed by the operator with reasons.
    const reasons = 'Removed in a test: the second person has no consent record.';
    const report = await call<{ report: { id: number } }>(operator, 'POST', 'reports', { category: 'harassment', text: 'This video breaks the rules of the site.', target_kind: 'video', target_id: String(video!.id) });
    expect(report.status).toBe(201);
    expect((await call(operator, 'POST', `operator/reports/${report.body.report.id}/resolve`, { outcome: 'removed', outcome_text: reasons })).status).toBe(200);
    const member = await person(browser, 'en', 'desktop');
    const inStore = async () => (await call<Paged<VideoSummary>>(member, 'GET', `search/videos?showid=${show!.id}&limit=48`)).body.data.some((v) => v.id === video!.id);
    expect(await inStore()).toBe(false);
    expect((await open(member, clip, { hydrate: false }))?.status()).toBe(404);

    // The performer reads the reasons and appeals (German, on a phone, with the keyboard).
    const de = msg('de').studio.uploads;
    const studio = await person(browser, 'de', 'phone');
    await performerStudio(studio, show!);
    const item = studio.locator(`[data-testid=studio-upload-videos] li[data-id="${video!.id}"]`);
    await item.locator('[data-testid=upload-rejected-reason]').waitFor();
    expect(await item.getAttribute('data-state')).toBe('rejected');
    expect(await item.locator('[data-testid=upload-rejected-reason]').textContent()).toContain(reasons);
    const appeal = studio.locator(`[data-testid=upload-appeal][data-kind=video][data-id="${video!.id}"]`);
    expect(await appeal.textContent()).toContain(reasons);
    await appeal.locator('summary').focus();
    await studio.keyboard.press('Enter');
    const text = 'Beide Personen im Video sind verifizierte Performer dieser Show.';
    await appeal.locator('textarea[name=text]').fill(text);
    await appeal.locator('textarea[name=text]').press('Tab');
    await studio.keyboard.press('Enter');
    await studio.locator(`[data-testid=studio-upload-videos] li[data-id="${video!.id}"][data-appeal=pending]`).waitFor();
    expect(await item.locator('[data-testid=upload-appeal-state]').textContent()).toContain(de.appeal.state.pending.split('{{date}}')[0]);
    expect(await appeal.count()).toBe(0);

    // The operator reads it with the item and the reasons, and reinstates it with an answer.
    await open(operator, '/operator/appeals');
    const card = operator.locator(`[data-testid=content-appeal][data-kind=video][data-item="${video!.id}"]`);
    expect(await card.locator('[data-testid=content-appeal-reasons]').textContent()).toContain(reasons);
    expect(await card.locator('[data-testid=content-appeal-text]').textContent()).toContain(text);
    expect(await card.locator('a').first().getAttribute('href')).toBe(clip);
    await card.locator('select[name=outcome]').selectOption('reinstated');
    const answer = 'We checked the records: both people are verified.';
    await card.locator('textarea[name=answer]').fill(answer);
    await card.locator('button[type=submit]').click();
    expect(await card.locator('[data-testid=appeal-decided]').getAttribute('data-outcome')).toBe('reinstated');

    // In the show's store again; the studio shows the outcome and the answer.
    expect(await inStore()).toBe(true);
    expect((await open(member, clip))?.status()).toBe(200);
    await open(studio, '/studio');
    const back = studio.locator(`[data-testid=studio-upload-videos] li[data-id="${video!.id}"][data-state=published][data-appeal=reinstated]`);
    await back.waitFor();
    const outcome = await back.locator('[data-testid=upload-appeal-state]').textContent();
    expect(outcome).toContain(de.appeal.state.reinstated);
    expect(outcome).toContain(answer);
    for (const p of [studio, member, operator]) await p.context().close();
  }, 180_000);
});
