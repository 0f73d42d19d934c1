import type { Browser as PwBrowser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { open, waitForIslands } from './browser';
import { becomeOperator, newMember, sendApplication } from './members';
import { msg, overlay, person, roomsBrowser } from './rooms-helpers';

// Issue 29 point 1 in Chromium: a member applies from /camgirl_werden with two small PNG files (en,
// desktop), an operator approves on /operator/applications (de, phone), and the member's login
// opens the studio at once and goes live: a visitor (de, phone) finds the show online by its stage
// name and joins its free chat, and the new performer sees them.

let browser: PwBrowser;

beforeAll(async () => {
  browser = await roomsBrowser();
});

afterAll(async () => {
  await browser?.close();
});

describe('performer applications', () => {
  it('a member applies (en, desktop), an operator approves (de, phone), the member goes live from the studio and a visitor joins', async () => {
    const stage = `Nova ${Date.now().toString(36)}`;
    const member = await person(browser, 'en', 'desktop');
    await newMember(member);
    await open(member, '/camgirl_werden');
    await member.locator('[data-testid=apply-cta]').click();
    await member.waitForURL(/\/apply$/);
    await sendApplication(member, { legalName: 'Erika Mustermann', dateOfBirth: '1999-04-01', stageName: stage });
    await open(member, '/apply');
    await member.locator('[data-testid=apply-page][data-state=submitted]').waitFor();

    const operator = await person(browser, 'de', 'phone');
    await becomeOperator(operator, await newMember(operator), '/operator/applications');
    await open(operator, '/operator/applications');
    const card = operator.locator('[data-testid=application-item]', { hasText: stage });
    await card.waitFor();
    const docHref = await card.locator('[data-testid=application-id-document]').getAttribute('href');
    const doc = await operator.context().request.get(new URL(docHref!, operator.url()).href);
    expect([doc.status(), doc.headers()['content-type']]).toEqual([200, 'image/png']);
    await card.locator('textarea[name=reason]').fill('Ausweis und Selfie passen.');
    await card.locator('button[type=submit]').click();
    expect(await card.locator('[data-testid=application-decided]').textContent()).toBe(msg('de').operator.applications.decided_approve);

    await open(member, '/apply');
    await member.locator('[data-testid=apply-page][data-state=approved]').waitFor();
    await member.locator('[data-testid=apply-studio]').click();
    await member.waitForURL(/\/studio$/);
    await member.locator('[data-testid=studio][data-connected="1"]').waitFor();
    const online = member.waitForResponse((r) => r.url().endsWith('/api/studio/status') && r.status() === 200);
    await member.click('[data-testid=studio-online]');
    await online;
    await member.locator('[data-testid=studio][data-state=online]').waitFor();

    // A visitor finds the new show live by its stage name and joins its free chat.
    const visitor = await person(browser, 'de', 'phone');
    await open(visitor, `/search?search=${encodeURIComponent(stage)}`);
    const tile = visitor.locator('[data-section=shows] .show-tile', { hasText: stage });
    await expect(tile.getAttribute('data-online')).resolves.toBe('1');
    await Promise.all([visitor.waitForURL(/\/chat\/\d+\//), tile.locator('a').first().click()]);
    await waitForIslands(visitor);
    await visitor.click('[data-chat=free]');
    await overlay(visitor).and(visitor.locator('[data-state=running]')).waitFor();
    await member.locator('.studio-person').first().waitFor();
    for (const p of [member, operator, visitor]) await p.context().close();
  });
});
