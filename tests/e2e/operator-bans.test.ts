import type { Browser as PwBrowser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShowDetail } from '../../src/shared/shows';
import { call, open, waitForIslands } from './browser';
import { becomeOperator, mailLink, mails, newMember, PASSWORD, untranslated } from './members';
import { msg, overlay, performerStudio, person, roomsBrowser, showsByIds, startChat } from './rooms-helpers';

// Issue 29 point 4 in the browser (shows 200-209 of their own): in German on a phone an operator
// finds a member who is in a free chat and bans them with a statement of reasons; the member's chat
// ends at once and its login is gone; the member opens the statement from the mail and appeals;
// in English on a desktop the operator lifts the ban on appeal, and the member can log in again.

let browser: PwBrowser;
let show: ShowDetail;

beforeAll(async () => {
  browser = await roomsBrowser();
  [show] = await showsByIds(200, 209, (s) => s.freemode && !s.exclusiveOnly && s.contentproviderId === 1);
  if (!show) throw new Error('no show with a free chat in 200-209');
});

afterAll(async () => {
  await browser?.close();
});

/** The page fits the screen: nothing to scroll sideways. */
async function noSidewaysScroll(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

describe('operators: bans, statement of reasons, appeal', () => {
  it('a ban ends the member’s chat and login at once; the member appeals by the mailed link; the operator lifts it', async () => {
    const de = msg('de');
    const en = msg('en');
    const [op, member, studio] = await Promise.all([person(browser, 'de', 'phone'), person(browser, 'de', 'phone'), person(browser, 'de', 'desktop')]);
    const [opMember, m] = await Promise.all([newMember(op, { prefix: 'op' }), newMember(member, { ageChecked: true, nickname: true, prefix: 'ban' }), performerStudio(studio, show, { online: true })]);
    await startChat(member, show, 'free');
    await overlay(member).and(member.locator('[data-state=running]')).waitFor();

    // The operator (German, phone) finds the member by the search of the start page.
    await becomeOperator(op, opMember, '/operator');
    await op.fill('#account-q', m.email);
    await Promise.all([op.waitForURL((u) => u.pathname === '/operator/users'), op.press('#account-q', 'Enter')]);
    await Promise.all([op.waitForURL((u) => u.pathname === `/operator/users/${m.id}`), op.click(`[data-testid=account-hit][data-id="${m.id}"] a`)]);
    await waitForIslands(op);
    await op.selectOption('#restrict-kind', 'ban');
    await op.selectOption('#restrict-category', 'harassment');
    expect(await op.locator('#restrict-days').count()).toBe(0);
    const reason = 'Hat im Free-Chat wiederholt andere Mitglieder beleidigt.';
    await op.fill('#restrict-reason', reason);
    const answered = op.waitForResponse((r) => r.url().endsWith(`/api/operator/users/${m.id}/restrictions`));
    await op.click('[data-testid=restrict-form] button[type=submit]');
    expect((await answered).status()).toBe(201);
    await op.locator('[data-testid=restriction][data-kind=ban][data-state=active]').waitFor();
    await op.locator('[data-testid=lift-form]').waitFor();
    expect(await untranslated(op)).toEqual([]);
    await noSidewaysScroll(op);

    // The member's chat ends at once, told why; the login is gone.
    await overlay(member).and(member.locator('[data-state=ended]')).waitFor();
    await expect(member.locator('[data-testid=chat-stage]').textContent()).resolves.toBe(de.chat.ended.logout);
    expect((await call(member, 'GET', 'auth/user')).status).toBe(401);
    const refused = await call<{ message: string }>(member, 'POST', 'auth/login', { username: m.email, password: PASSWORD });
    expect([refused.status, refused.body.message]).toEqual([422, 'account_restricted']);

    // The statement of reasons from the mail (German), and the appeal.
    const [mail] = await mails(m.email, { kind: 'restriction', wait: 10_000 });
    expect(mail.text).toContain(reason);
    await open(member, mailLink(mail, '/account/restriction/'));
    await expect(member.locator('h1').textContent()).resolves.toBe(de.restriction.page.title_ban);
    await expect(member.locator('[data-testid=restriction-reason]').textContent()).resolves.toBe(reason);
    expect(await untranslated(member)).toEqual([]);
    await noSidewaysScroll(member);
    await member.fill('#appeal-text', 'Das war ein Zitat aus einem Film, keine Beleidigung.');
    await member.click('[data-testid=appeal-form] button[type=submit]');
    await member.locator('[data-testid=appeal-sent]').waitFor();

    // The operator, now in English on a desktop, lifts the ban on appeal.
    await op.setViewportSize({ width: 1280, height: 900 });
    await open(op, '/operator/appeals?lang=en');
    await expect(op.locator('h1').textContent()).resolves.toBe(en.operator.appeals.title);
    const appeal = op.locator(`[data-testid=appeal][data-user="${m.id}"]`);
    await appeal.locator('select[name=outcome]').selectOption('lifted');
    await appeal.locator('textarea[name=answer]').fill('We read the chat log again: it was a quote.');
    await appeal.locator('button[type=submit]').click();
    await appeal.locator('[data-testid=appeal-decided][data-outcome=lifted]').waitFor();
    expect(await untranslated(op)).toEqual([]);
    await noSidewaysScroll(op);

    const again = await call(member, 'POST', 'auth/login', { username: m.email, password: PASSWORD });
    expect(again.status).toBe(200);
    await Promise.all([op, member, studio].map((p) => p.context().close()));
  });
});
