import type { Browser as PwBrowser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShowDetail } from '../../src/shared/shows';
import { open } from './browser';
import { becomeOperator, newMember } from './members';
import { msg, performerStudio, person, roomsBrowser, showPath, showsByIds } from './rooms-helpers';

// Issue 29 point 2 in Chromium: a performer's upload waits for review (de, phone: the studio says
// so), an operator approves it on /operator/moderation (en, desktop) and it appears in the show's
// store list; an operator stops a live show with a reason (en) and the performer's studio shows it (de).

let browser: PwBrowser;
let shows: ShowDetail[];

beforeAll(async () => {
  browser = await roomsBrowser('media');
  // Shows of our own no other suite takes.
  shows = await showsByIds(170, 179, (s) => s.contentproviderId === 1);
  expect(shows.length).toBeGreaterThan(0);
});

afterAll(async () => {
  await browser?.close();
});

describe('operators moderate uploads', () => {
  it('an upload waits for review in the studio (de) and reaches the show\'s store once an operator approves it (en)', async () => {
    const show = shows[0];
    const title = `Prüfgalerie ${Date.now().toString(36)}`;
    const studio = await person(browser, 'de', 'phone');
    await performerStudio(studio, show);
    const picture = await studio.screenshot({ clip: { x: 0, y: 0, width: 240, height: 160 } });
    const form = studio.locator('[data-testid=upload-gallery-form]');
    await form.locator('input[name=files]').setInputFiles([{ name: 'one.png', mimeType: 'image/png', buffer: picture }]);
    await form.locator('input[name=title_en]').fill(title);
    await form.locator('input[name=title_de]').fill(title);
    await form.locator('input[name=price]').fill('10');
    await form.locator('[data-testid=upload-gallery-submit]').click();
    await studio.locator('[data-testid=upload-gallery-status][data-phase=done]').waitFor({ timeout: 60_000 });
    const item = studio.locator('[data-testid=studio-upload-galleries] li[data-state=review]', { hasText: title });
    await item.waitFor();
    expect(await item.locator('[data-testid=upload-state]').textContent()).toContain(msg('de').studio.uploads.status.review);
    const id = await item.getAttribute('data-id');

    // Not in the store yet.
    const member = await person(browser, 'en', 'desktop');
    await open(member, `${showPath(show)}/galleries`);
    expect(await member.getByText(title).count()).toBe(0);

    const operator = await person(browser, 'en', 'desktop');
    await becomeOperator(operator, await newMember(operator), '/operator/moderation');
    await open(operator, '/operator/moderation');
    const queued = operator.locator(`[data-testid=moderation-item][data-kind=gallery][data-id="${id}"]`);
    await queued.locator('[data-testid=moderation-preview]').waitFor();
    await queued.locator('button[type=submit]').click();
    expect(await queued.locator('[data-testid=moderation-decided]').getAttribute('data-decision')).toBe('approve');

    await open(member, `${showPath(show)}/galleries`);
    await member.getByText(title).first().waitFor();
    await open(studio, '/studio');
    await studio.locator('[data-testid=studio-upload-galleries] li[data-state=published]', { hasText: title }).waitFor();
    for (const p of [studio, member, operator]) await p.context().close();
  });

  it('an operator stops a live show with a reason on /operator/live (en) and the performer\'s studio shows it (de)', async () => {
    const show = shows[shows.length - 1];
    const studio = await person(browser, 'de', 'desktop');
    await performerStudio(studio, show, { online: true });
    await studio.locator('[data-testid=studio][data-state=online]').waitFor();

    const operator = await person(browser, 'en', 'desktop');
    await becomeOperator(operator, await newMember(operator), '/operator/live');
    await open(operator, '/operator/live');
    const card = operator.locator(`[data-testid=live-show][data-id="${show.id}"]`);
    const reason = 'Stopped in a test: a third person on camera.';
    await card.locator('textarea[name=reason]').fill(reason);
    await card.locator('button[type=submit]').click();
    await card.locator('[data-testid=live-stopped]').waitFor();

    // The studio learns it at once: offline, with the operator's reason.
    await studio.locator('[data-testid=studio][data-state=offline]').waitFor();
    const notice = studio.locator('[data-testid=studio-stopped]');
    await notice.waitFor();
    expect(await notice.textContent()).toContain(reason);
    expect(await notice.textContent()).toContain('Ein Operator hat Ihre Show gestoppt');
    for (const p of [studio, operator]) await p.context().close();
  });
});
