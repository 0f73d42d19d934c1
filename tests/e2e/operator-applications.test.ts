import type { Browser as PwBrowser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { open } from './browser';
import { becomeOperator, newMember } from './members';
import { msg, person, roomsBrowser } from './rooms-helpers';

// Issue 29 point 1 in Chromium: a member applies from /camgirl_werden with two small PNG files (en,
// desktop), an operator approves on /operator/applications (de, phone), and the member's login
// opens the studio at once.

let browser: PwBrowser;

beforeAll(async () => {
  browser = await roomsBrowser();
});

afterAll(async () => {
  await browser?.close();
});

describe('performer applications', () => {
  it('a member applies (en, desktop), an operator approves (de, phone), the member opens the studio', async () => {
    const stage = `Nova ${Date.now().toString(36)}`;
    const member = await person(browser, 'en', 'desktop');
    await newMember(member);
    await open(member, '/camgirl_werden');
    await member.locator('[data-testid=apply-cta]').click();
    await member.waitForURL(/\/apply$/);
    const form = member.locator('[data-testid=apply-form]');
    await form.waitFor();
    const png = await member.screenshot({ clip: { x: 0, y: 0, width: 120, height: 80 } });
    await form.locator('input[name=legal_name]').fill('Erika Mustermann');
    await form.locator('input[name=date_of_birth]').fill('1999-04-01');
    await form.locator('select[name=country]').selectOption('DE');
    await form.locator('input[name=stage_name]').fill(stage);
    await form.locator('input[name=id_document]').setInputFiles({ name: 'id.png', mimeType: 'image/png', buffer: png });
    await form.locator('input[name=selfie]').setInputFiles({ name: 'selfie.png', mimeType: 'image/png', buffer: png });
    await form.locator('input[name=consent]').check();
    await form.locator('button[type=submit]').click();
    await member.locator('[data-testid=apply-sent]').waitFor();
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
    await member.locator('[data-testid=studio]').waitFor();
    for (const p of [member, operator]) await p.context().close();
  });
});
