import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { type Browser, call, open } from './browser';
import { launchIn, MESSAGES, newMember, uniq } from './members';

// The nicknames section of the settings and the nickname dialog.

const dialog = '.nickname-dialog[role=dialog]';
const input = '[data-testid=nickname-input]';
const submit = '[data-action=nickname-submit]';

async function openDialog(page: Page) {
  await page.click('[data-action=nick-add]');
  await page.locator(dialog).waitFor();
}

async function submitLabel(page: Page): Promise<string> {
  return ((await page.textContent(submit)) ?? '').trim();
}

async function listed(page: Page): Promise<{ nickname: string; current: boolean }[]> {
  return page.$$eval('.pf-nick', (els) => els.map((el) => ({ nickname: el.getAttribute('data-nickname') ?? '', current: el.getAttribute('data-current') === '1' })));
}

async function addViaDialog(page: Page, nickname: string) {
  await openDialog(page);
  await page.fill(input, nickname);
  const post = page.waitForResponse((r) => r.url().endsWith('/api/user/nickname/add'));
  await page.click(submit);
  expect((await post).status()).toBe(200);
  await page.locator(dialog).waitFor({ state: 'detached' });
}

describe('nicknames', () => {
  let b: Browser | undefined;
  afterEach(async () => {
    await b?.close();
    b = undefined;
  });

  it('adds, chooses, activates and removes nicknames; the pattern is checked (de)', async () => {
    const lang = 'de';
    const m = MESSAGES[lang];
    const t = m.profile.nicknameDialog;
    b = await launchIn(lang);
    const page = b.page;
    await newMember(page);
    await open(page, '/users/profile/settings#nicknames');
    expect((await page.textContent('[data-testid=nicknames-empty]'))?.trim()).toBe(m.profile.settings.nicknames.empty);

    // Pattern: too short and invalid characters are refused on the client, without a call; so are
    // lookalikes of Latin names in other scripts (Cyrillic е, small capitals: issue 9 point 11).
    await openDialog(page);
    expect((await page.textContent(`${dialog} h2`))?.trim()).toBe(t.title);
    let calls = 0;
    page.on('request', (r) => {
      if (r.url().includes('/api/user/nickname/')) calls++;
    });
    for (const bad of ['ab', 'bad name!', 'd\u0435mo', '\u1d05\u1d07\u1d0d\u1d0f']) {
      await page.fill(input, bad);
      expect(await submitLabel(page)).toBe(t.save);
      await page.click(submit);
      expect((await page.textContent('[data-testid=nickname-error]'))?.trim()).toBe(m.errors.nickname_pattern);
    }
    expect(calls).toBe(0);
    await page.keyboard.press('Escape');
    await page.locator(dialog).waitFor({ state: 'detached' });

    // Two new nicknames: each becomes the current one.
    const id = uniq().slice(0, 8);
    const first = `Mia_${id}`;
    const second = `Zed.${id}`;
    await addViaDialog(page, first);
    expect(await listed(page)).toEqual([{ nickname: first, current: true }]);
    await addViaDialog(page, second);
    expect(await listed(page)).toEqual([
      { nickname: first, current: false },
      { nickname: second, current: true },
    ]);

    // The input filters the existing ones (case-insensitive); the button follows what submit does.
    await openDialog(page);
    expect(await page.locator('[data-testid=nickname-options] .nick-option').count()).toBe(2);
    await page.fill(input, 'MIA_');
    expect(await page.$$eval('[data-testid=nickname-options] .nick-option', (els) => els.map((e) => e.getAttribute('data-nickname')))).toEqual([first]);
    expect(await submitLabel(page)).toBe(t.choose);
    await page.fill(input, `${first}x`);
    expect(await page.locator('[data-testid=nickname-nomatch]').isVisible()).toBe(true);
    expect(await submitLabel(page)).toBe(t.save);
    // A part of an existing nickname: submit chooses the first match.
    await page.fill(input, id.toUpperCase());
    expect(await page.locator('[data-testid=nickname-options] .nick-option').count()).toBe(2);
    expect(await submitLabel(page)).toBe(t.choose);
    await page.fill(input, 'mia');
    const activate = page.waitForResponse((r) => r.url().includes('/api/user/nickname/activate/'));
    await page.click(submit);
    expect((await activate).status()).toBe(200);
    await page.locator(dialog).waitFor({ state: 'detached' });
    expect(await listed(page)).toEqual([
      { nickname: first, current: true },
      { nickname: second, current: false },
    ]);
    expect((await page.textContent('[data-testid=snackbar] span'))?.trim()).toBe(m.profile.settings.nicknames.activated.replace('{{nickname}}', first));

    // A nickname taken by someone else: the server's field error is shown.
    await openDialog(page);
    await page.fill(input, 'demo');
    expect(await submitLabel(page)).toBe(t.save);
    await page.click(submit);
    await page.locator('[data-testid=nickname-error]').waitFor();
    expect((await page.textContent('[data-testid=nickname-error]'))?.trim()).toBe(m.errors.nickname_taken);
    await page.click(`${dialog} .btn-text`);
    await page.locator(dialog).waitFor({ state: 'detached' });

    // Activate from the list.
    await page.click(`.pf-nick[data-nickname="${second}"] [data-action=nick-activate]`);
    await page.waitForFunction((n) => document.querySelector(`.pf-nick[data-nickname="${n}"]`)?.getAttribute('data-current') === '1', second);

    // Remove asks first; cancelling keeps it.
    await page.click(`.pf-nick[data-nickname="${first}"] [data-action=nick-remove]`);
    await page.locator('.confirm[role=alertdialog]').waitFor();
    expect((await page.textContent('#confirm-text'))?.trim()).toBe(m.profile.settings.nicknames.removeText.replace('{{nickname}}', first));
    await page.click('.confirm .btn-text');
    expect((await listed(page)).length).toBe(2);
    await page.click(`.pf-nick[data-nickname="${first}"] [data-action=nick-remove]`);
    const del = page.waitForResponse((r) => r.url().includes('/api/user/nickname/remove/'));
    await page.click('.confirm .btn-primary');
    expect((await del).status()).toBe(200);
    await page.waitForFunction(() => document.querySelectorAll('.pf-nick').length === 1);
    expect(await listed(page)).toEqual([{ nickname: second, current: true }]);

    // The server agrees, and a reload shows the same.
    const user = await call<{ user: { nicknames: { data: { id: number; nickname: string }[]; current_nickname: number } } }>(page, 'GET', 'auth/user');
    expect(user.body.user.nicknames.data.map((n) => n.nickname)).toEqual([second]);
    await open(page, '/users/profile/settings');
    expect(await listed(page)).toEqual([{ nickname: second, current: true }]);
    await open(page, '/users/profile');
    expect(await page.textContent('.profile-card .nick-text')).toBe(second);
  });

  it('cuts long nicknames at 140 px with an ellipsis', async () => {
    b = await launchIn('en');
    await newMember(b.page);
    const long = `W${uniq()}WWWWWWWWWWWWWW`.slice(0, 15);
    expect((await call(b.page, 'POST', 'user/nickname/add', { nickname: long })).status).toBe(200);
    await open(b.page, '/users/profile/settings');
    const box = await b.page.$eval(`.pf-nick[data-nickname="${long}"] .nick-text`, (el) => {
      const s = getComputedStyle(el);
      return { width: el.getBoundingClientRect().width, scroll: el.scrollWidth, overflow: s.textOverflow, title: el.getAttribute('title') };
    });
    expect(box.width).toBeLessThanOrEqual(140);
    expect(box.scroll).toBeGreaterThan(box.width);
    expect(box.overflow).toBe('ellipsis');
    expect(box.title).toBe(long);
  });
});
