import type { Browser as PwBrowser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShowDetail } from '../../src/shared/shows';
import { waitForIslands } from './browser';
import { becomeOperator, mails, newMember, untranslated } from './members';
import { msg, overlay, performerStudio, person, roomsBrowser, showsByIds, startChat } from './rooms-helpers';

// Issue 29 point 3 in the browser (shows 180-189): in German on a phone a member in a free chat
// reports the performer's chat line from the chat overlay with the keyboard and is told it was
// received (and mailed); in English on a desktop an operator finds it in the queue with the line
// as it was, and resolves it with an outcome that is mailed to the member.

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

async function noSidewaysScroll(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

describe('reports: notice and action', () => {
  it('a member reports a chat line from the overlay (de, phone); an operator resolves it (en, desktop)', async () => {
    const de = msg('de');
    const en = msg('en');
    const [member, studio, op] = await Promise.all([person(browser, 'de', 'phone'), person(browser, 'de', 'desktop'), person(browser, 'en', 'desktop')]);
    const [m, opMember] = await Promise.all([newMember(member, { ageChecked: true, nickname: true, prefix: 'rep' }), newMember(op, { prefix: 'op' }), performerStudio(studio, show, { online: true })]);
    await startChat(member, show, 'free');
    await overlay(member).and(member.locator('[data-state=running]')).waitFor();

    const said = `Eine Zeile zum Melden ${Date.now()}`;
    await studio.fill('[data-testid=studio-input]', said);
    await studio.press('[data-testid=studio-input]', 'Enter');
    const line = overlay(member).locator('[data-testid=chat-line][data-from=performer]').filter({ hasText: said });
    await line.waitFor();

    // The flag is a button with its name; the keyboard opens the dialog, whose first field has the focus.
    const flag = line.locator('[data-testid=report-chat_line]');
    await expect(flag.getAttribute('aria-label')).resolves.toBe(de.reports.targets.chat_line);
    await flag.focus();
    await member.keyboard.press('Enter');
    const dialog = member.locator('[data-testid=report-dialog]');
    await dialog.waitFor();
    await expect(dialog.locator('h2').textContent()).resolves.toBe(de.reports.title.chat_line);
    await expect(dialog.locator('[data-testid=report-quote]').textContent()).resolves.toContain(said);
    await expect(member.evaluate(() => document.activeElement?.getAttribute('name'))).resolves.toBe('category');
    await dialog.locator('select[name=category]').selectOption('harassment');
    await dialog.locator('textarea[name=text]').fill('Der Darsteller beleidigt die Zuschauer im Chat.');
    expect(await dialog.locator('input[name=email]').count()).toBe(0);
    const answered = member.waitForResponse((r) => r.url().endsWith('/api/reports') && r.request().method() === 'POST');
    await dialog.locator('button[type=submit]').press('Enter');
    const res = await answered;
    expect(res.status()).toBe(201);
    const { report } = (await res.json()) as { report: { id: number } };
    await expect(dialog.locator('[data-testid=report-received]').textContent()).resolves.toContain(String(report.id));
    expect(await untranslated(member)).toEqual([]);
    await noSidewaysScroll(member);
    await member.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect(flag.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
    const [ack] = await mails(m.email, { kind: 'report_received', wait: 10_000 });
    expect(ack.subject).toContain(String(report.id));

    // The operator (English, desktop) sees it in the queue and resolves it.
    await becomeOperator(op, opMember, '/operator?lang=en');
    await op.click(`a[href="/operator/reports"]`);
    await op.waitForURL((u) => u.pathname === '/operator/reports');
    await waitForIslands(op);
    await expect(op.locator('h1').textContent()).resolves.toBe(en.operator.reports.title);
    const card = op.locator(`[data-testid=report][data-id="${report.id}"]`);
    await expect(card.locator('[data-testid=report-snapshot]').textContent()).resolves.toContain(said);
    await expect(card.getAttribute('data-overdue')).resolves.toBe('0');
    await card.locator('[data-testid=report-account]').waitFor();
    await card.locator('select[name=outcome]').selectOption('no_action');
    await card.locator('textarea[name=outcome_text]').fill('We read the chat: it was a joke between regulars.');
    await card.locator('button[type=submit]').click();
    await card.locator('[data-testid=report-resolved][data-outcome=no_action]').waitFor();
    expect(await untranslated(op)).toEqual([]);
    await noSidewaysScroll(op);
    const outcome = await mails(m.email, { kind: 'report_outcome', wait: 10_000 });
    expect(outcome[0].text).toContain('it was a joke between regulars');
    await Promise.all([member, studio, op].map((p) => p.context().close()));
  });
});
