import type { Browser as PwBrowser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, open } from './browser';
import { becomeOperator, newMember, sendApplication } from './members';
import { person, roomsBrowser } from './rooms-helpers';

// Issue 29 point 1's records in Chromium: a member applies (en) and is approved, so their new show
// has one verified person; their gallery upload names them (the studio's form ticks them); once it
// is approved an operator (de, phone) sees the person on /operator/records and changes the
// custodian of records, and the public 2257 page (en) names the new custodian. No demo show is used.

let browser: PwBrowser;

beforeAll(async () => {
  browser = await roomsBrowser('media');
});

afterAll(async () => {
  await browser?.close();
});

describe('2257 records', () => {
  it('an approved upload lists its verified performer for an operator (de, phone), who changes the custodian named on /usc2257 (en)', async () => {
    const stage = `Rec ${Date.now().toString(36)}`;
    const legal = 'Erika Nachweis';
    const member = await person(browser, 'en', 'desktop');
    await newMember(member);
    await open(member, '/apply');
    await sendApplication(member, { legalName: legal, dateOfBirth: '1998-03-02', stageName: stage });
    const mine = await call<{ application: { id: number } }>(member, 'GET', 'applications/mine');

    const operator = await person(browser, 'de', 'phone');
    await becomeOperator(operator, await newMember(operator), '/operator/records');
    const decided = await call(operator, 'POST', `operator/applications/${mine.body.application.id}/decide`, { decision: 'approve', reason: 'Ausweis und Selfie passen.' });
    expect(decided.status).toBe(200);

    // The new performer's studio offers their verified person for the upload, ticked.
    await open(member, '/studio');
    const upload = member.locator('[data-testid=upload-gallery-form]');
    const tick = upload.locator('[data-testid=upload-people] input[name=performers]');
    await tick.waitFor();
    expect(await tick.count()).toBe(1);
    expect(await tick.isChecked()).toBe(true);
    expect(await upload.locator('[data-testid=upload-people]').textContent()).toContain(stage);
    const title = `Nachweisgalerie ${Date.now().toString(36)}`;
    const png = await member.screenshot({ clip: { x: 0, y: 0, width: 120, height: 80 } });
    await upload.locator('input[name=files]').setInputFiles([{ name: 'one.png', mimeType: 'image/png', buffer: png }]);
    await upload.locator('input[name=title_en]').fill(title);
    await upload.locator('input[name=title_de]').fill(title);
    await upload.locator('[data-testid=upload-gallery-submit]').click();
    await member.locator('[data-testid=upload-gallery-status][data-phase=done]').waitFor({ timeout: 60_000 });
    const item = member.locator('[data-testid=studio-upload-galleries] li', { hasText: title });
    await item.waitFor();
    const id = await item.getAttribute('data-id');
    expect((await call(operator, 'POST', `operator/moderation/gallery/${id}`, { decision: 'approve' })).status).toBe(200);

    await open(operator, '/operator/records');
    const record = operator.locator(`[data-testid=records-item][data-kind=gallery][data-id="${id}"]`);
    await record.waitFor();
    const people = record.locator('[data-testid=records-person]');
    expect(await people.count()).toBe(1);
    const text = (await people.textContent()) ?? '';
    for (const part of [legal, stage, '1998-03-02', `#${mine.body.application.id}`, 'Geburtsdatum']) expect(text).toContain(part);
    // Phone width: nothing sticks out sideways.
    expect(await operator.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

    const before = await call<{ custodian: { name: string; address: string } }>(operator, 'GET', 'operator/records');
    const custodian = operator.locator('[data-testid=custodian-form]');
    const name = `Verwahrer ${Date.now().toString(36)}`;
    await custodian.locator('input[name=name]').fill(name);
    await custodian.locator('textarea[name=address]').fill('Aktenweg 3, 20095 Hamburg, Deutschland');
    await custodian.locator('button[type=submit]').click();
    await custodian.locator('[data-testid=custodian-saved]').waitFor();

    const visitor = await person(browser, 'en', 'desktop');
    await open(visitor, '/usc2257');
    await visitor.getByText(name, { exact: false }).first().waitFor();
    expect(await visitor.locator('html').getAttribute('lang')).toBe('en');

    // The custodian as it was, for the suites after this one.
    expect((await call(operator, 'PUT', 'operator/records/custodian', before.body.custodian)).status).toBe(200);
    for (const p of [member, operator, visitor]) await p.context().close();
  });
});
