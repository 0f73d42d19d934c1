import { afterEach, describe, expect, it } from 'vitest';
import { type Browser, call, open } from './browser';
import { launchIn, mails, MESSAGES, newMember } from './members';

// The development mailbox: /dev/mailbox, /dev/mailbox/:id and /dev/mailbox.json (in German).

describe('dev mailbox', () => {
  let b: Browser | undefined;
  afterEach(async () => {
    await b?.close();
    b = undefined;
  });

  it('lists a mail after POST user/reset_email and shows it with a clickable link (de)', async () => {
    const lang = 'de';
    const m = MESSAGES[lang];
    b = await launchIn(lang);
    const member = await newMember(b.page, { verified: false });
    expect((await mails(member.email)).length).toBe(1);
    const sent = await call<{ sent: boolean }>(b.page, 'POST', 'user/reset_email');
    expect(sent.status).toBe(200);
    expect(sent.body.sent).toBe(true);

    // JSON: newest first, filtered by recipient.
    const list = await mails(member.email);
    expect(list.length).toBe(2);
    expect(list[0].id).toBeGreaterThan(list[1].id);
    expect(list.every((x) => x.to === member.email && x.kind === 'verify')).toBe(true);
    expect(Object.keys(list[0]).sort()).toEqual(['created_at', 'html', 'id', 'kind', 'subject', 'text', 'to']);
    const all = (await (await fetch(`${b.base}/dev/mailbox.json`)).json()) as { id: number }[];
    expect(all[0].id).toBeGreaterThanOrEqual(list[0].id);

    await open(b.page, '/dev/mailbox');
    expect((await b.page.textContent('main h1'))?.trim()).toBe(m.mailbox.title);
    const row = b.page.locator(`tr[data-mail-id="${list[0].id}"]`);
    expect((await row.locator('.mailbox-to').textContent())?.trim()).toBe(member.email);
    expect((await row.locator('a').textContent())?.trim()).toBe(list[0].subject);
    // Newest first in the table too.
    const ids = await b.page.$$eval('tr[data-mail-id]', (els) => els.map((e) => Number(e.getAttribute('data-mail-id'))));
    expect(ids).toEqual([...ids].sort((x, y) => y - x));

    // The filter form narrows the list to one address.
    await b.page.fill('#mailbox-to', member.email);
    await b.page.click('.mailbox-filter button[type=submit]');
    await b.page.waitForURL((u) => u.searchParams.get('to') === member.email);
    expect(await b.page.locator('tr[data-mail-id]').count()).toBe(2);

    await row.locator('a').click();
    await b.page.waitForURL((u) => u.pathname === `/dev/mailbox/${list[0].id}`);
    expect((await b.page.textContent('main h1'))?.trim()).toBe(list[0].subject);
    expect((await b.page.textContent('[data-testid=mail-text]'))?.trim()).toBe(list[0].text.trim());
    const link = b.page.locator('[data-testid=mail-html] a[href*="/users/activate?token="]');
    expect(await link.count()).toBe(1);
    const href = (await link.getAttribute('href')) ?? '';
    expect(list[0].text).toContain(href);
    // Clickable, in the same tab.
    await link.click();
    await b.page.waitForURL((u) => u.pathname === '/users/activate');
    expect(b.page.url()).toBe(href);
    expect(b.context.pages().length).toBe(1);
  });

  it('answers 404 for a mail that does not exist', async () => {
    b = await launchIn('en');
    const res = await b.page.goto(new URL('/dev/mailbox/999999999', b.base).href);
    expect(res?.status()).toBe(404);
  });
});
