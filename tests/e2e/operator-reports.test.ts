import type { Browser as PwBrowser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShowDetail } from '../../src/shared/shows';
import { call, open, waitForIslands } from './browser';
import { becomeOperator, mailLink, mails, newMember, PASSWORD, untranslated } from './members';
import { msg, overlay, performerStudio, person, roomsBrowser, showsByIds, startChat } from './rooms-helpers';

// Issue 29 points 3 and 4 in the browser, one flow (shows 180-189): in German on phones a member in
// a free chat reports another member's chat line from the overlay with the keyboard and is told it
// was received (and mailed); an operator (German, phone) finds it in the queue with the line as it
// was, goes from it to the author's account and bans them with a statement of reasons: the author's
// chat ends at once and the login is gone; the author opens the statement from the mail and
// appeals; the operator, now in English on a desktop, resolves the report (the outcome is mailed to
// the reporter) and lifts the ban on appeal, and the author can log in again.

let browser: PwBrowser;
let show: ShowDetail;

beforeAll(async () => {
  browser = await roomsBrowser();
  const shows = await showsByIds(180, 189, (s) => s.freemode && !s.exclusiveOnly && s.contentproviderId === 1);
  show = shows[shows.length - 1];
  if (!show) throw new Error('no show with a free chat in 180-189');
});

afterAll(async () => {
  await browser?.close();
});

/** The page fits the screen: nothing to scroll sideways. */
async function noSidewaysScroll(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

describe('reports, bans, statements of reasons and appeals', () => {
  it('a member reports a chat line; the operator bans its author from the report; the author sees the statement and appeals; the ban is lifted', async () => {
    const de = msg('de');
    const en = msg('en');
    const [reporter, author, studio, op] = await Promise.all([person(browser, 'de', 'phone'), person(browser, 'de', 'phone'), person(browser, 'de', 'desktop'), person(browser, 'de', 'phone')]);
    const [r, a, opMember] = await Promise.all([
      newMember(reporter, { ageChecked: true, nickname: true, prefix: 'rep' }),
      newMember(author, { ageChecked: true, nickname: true, prefix: 'ban' }),
      newMember(op, { prefix: 'op' }),
      performerStudio(studio, show, { online: true }),
    ]);
    await startChat(reporter, show, 'free');
    await startChat(author, show, 'free');
    await Promise.all([reporter, author].map((p) => overlay(p).and(p.locator('[data-state=running]')).waitFor()));

    const said = `Eine Zeile zum Melden ${Date.now()}`;
    await author.fill('[data-testid=chat-input]', said);
    await author.click('[data-testid=chat-send]');
    const line = overlay(reporter).locator('[data-testid=chat-line]').filter({ hasText: said });
    await line.waitFor();

    // The flag is a button with its name; the keyboard opens the dialog, whose first field has the focus.
    const flag = line.locator('[data-testid=report-chat_line]');
    await expect(flag.getAttribute('aria-label')).resolves.toBe(de.reports.targets.chat_line);
    await flag.focus();
    await reporter.keyboard.press('Enter');
    const dialog = reporter.locator('[data-testid=report-dialog]');
    await dialog.waitFor();
    await expect(dialog.locator('h2').textContent()).resolves.toBe(de.reports.title.chat_line);
    await expect(dialog.locator('[data-testid=report-quote]').textContent()).resolves.toContain(said);
    await expect(reporter.evaluate(() => document.activeElement?.getAttribute('name'))).resolves.toBe('category');
    await dialog.locator('select[name=category]').selectOption('harassment');
    await dialog.locator('textarea[name=text]').fill('Dieses Mitglied beleidigt die anderen Zuschauer im Chat.');
    expect(await dialog.locator('input[name=email]').count()).toBe(0);
    const answered = reporter.waitForResponse((res) => res.url().endsWith('/api/reports') && res.request().method() === 'POST');
    await dialog.locator('button[type=submit]').press('Enter');
    const res = await answered;
    expect(res.status()).toBe(201);
    const { report } = (await res.json()) as { report: { id: number } };
    await expect(dialog.locator('[data-testid=report-received]').textContent()).resolves.toContain(String(report.id));
    expect(await untranslated(reporter)).toEqual([]);
    await noSidewaysScroll(reporter);
    await reporter.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect(flag.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
    const [ack] = await mails(r.email, { kind: 'report_received', wait: 10_000 });
    expect(ack.subject).toContain(String(report.id));

    // The operator (German, phone) finds it in the queue and goes from it to the author's account.
    await becomeOperator(op, opMember, '/operator');
    await op.click(`a[href="/operator/reports"]`);
    await op.waitForURL((u) => u.pathname === '/operator/reports');
    await waitForIslands(op);
    await expect(op.locator('h1').textContent()).resolves.toBe(de.operator.reports.title);
    const card = op.locator(`[data-testid=report][data-id="${report.id}"]`);
    await expect(card.locator('[data-testid=report-snapshot]').textContent()).resolves.toContain(said);
    await expect(card.getAttribute('data-overdue')).resolves.toBe('0');
    expect(await untranslated(op)).toEqual([]);
    await noSidewaysScroll(op);
    await Promise.all([op.waitForURL((u) => u.pathname === `/operator/users/${a.id}`), card.locator('[data-testid=report-account]').click()]);
    await waitForIslands(op);
    await op.selectOption('#restrict-kind', 'ban');
    await op.selectOption('#restrict-category', 'harassment');
    expect(await op.locator('#restrict-days').count()).toBe(0);
    const reason = 'Hat im Free-Chat wiederholt andere Mitglieder beleidigt.';
    await op.fill('#restrict-reason', reason);
    const banned = op.waitForResponse((res) => res.url().endsWith(`/api/operator/users/${a.id}/restrictions`));
    await op.click('[data-testid=restrict-form] button[type=submit]');
    expect((await banned).status()).toBe(201);
    await op.locator('[data-testid=restriction][data-kind=ban][data-state=active]').waitFor();
    await op.locator('[data-testid=lift-form]').waitFor();
    expect(await untranslated(op)).toEqual([]);
    await noSidewaysScroll(op);

    // The author's chat ends at once, told why; the login is gone.
    await overlay(author).and(author.locator('[data-state=ended]')).waitFor();
    await expect(author.locator('[data-testid=chat-stage]').textContent()).resolves.toBe(de.chat.ended.logout);
    expect((await call(author, 'GET', 'auth/user')).status).toBe(401);
    const refused = await call<{ message: string }>(author, 'POST', 'auth/login', { username: a.email, password: PASSWORD });
    expect([refused.status, refused.body.message]).toEqual([422, 'account_restricted']);

    // The statement of reasons from the mail (German), and the appeal.
    const [mail] = await mails(a.email, { kind: 'restriction', wait: 10_000 });
    expect(mail.text).toContain(reason);
    await open(author, mailLink(mail, '/account/restriction/'));
    await expect(author.locator('h1').textContent()).resolves.toBe(de.restriction.page.title_ban);
    await expect(author.locator('[data-testid=restriction-reason]').textContent()).resolves.toBe(reason);
    expect(await untranslated(author)).toEqual([]);
    await noSidewaysScroll(author);
    await author.fill('#appeal-text', 'Das war ein Zitat aus einem Film, keine Beleidigung.');
    await author.click('[data-testid=appeal-form] button[type=submit]');
    await author.locator('[data-testid=appeal-sent]').waitFor();

    // The operator, now in English on a desktop, resolves the report (the reporter is told)...
    await op.setViewportSize({ width: 1280, height: 900 });
    await open(op, '/operator/reports?lang=en');
    await expect(op.locator('h1').textContent()).resolves.toBe(en.operator.reports.title);
    const again = op.locator(`[data-testid=report][data-id="${report.id}"]`);
    await again.locator('select[name=outcome]').selectOption('restricted');
    await again.locator('textarea[name=outcome_text]').fill('We banned the account that wrote it.');
    await again.locator('button[type=submit]').click();
    await again.locator('[data-testid=report-resolved][data-outcome=restricted]').waitFor();
    expect(await untranslated(op)).toEqual([]);
    const outcome = await mails(r.email, { kind: 'report_outcome', wait: 10_000 });
    expect(outcome[0].text).toContain('We banned the account that wrote it.');

    // ...and lifts the ban on appeal: the author can log in again.
    await open(op, '/operator/appeals');
    await expect(op.locator('h1').textContent()).resolves.toBe(en.operator.appeals.title);
    const appeal = op.locator(`[data-testid=appeal][data-user="${a.id}"]`);
    await appeal.locator('select[name=outcome]').selectOption('lifted');
    await appeal.locator('textarea[name=answer]').fill('We read the chat log again: it was a quote.');
    await appeal.locator('button[type=submit]').click();
    await appeal.locator('[data-testid=appeal-decided][data-outcome=lifted]').waitFor();
    expect(await untranslated(op)).toEqual([]);
    await noSidewaysScroll(op);
    const back = await call(author, 'POST', 'auth/login', { username: a.email, password: PASSWORD });
    expect(back.status).toBe(200);
    await Promise.all([reporter, author, studio, op].map((p) => p.context().close()));
  });
});
