import type { Browser as PwBrowser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShowDetail } from '../../src/shared/shows';
import { baseUrl, call, open } from './browser';
import { topBarCoins } from './billing-helpers';
import { homeShows, msg, person, roomsBrowser, showPath, PERFORMER_PASSWORD } from './rooms-helpers';
import { newMember } from './members';

// The member side of messages (issue 14), the first flow in English on a desktop and the second
// in German on a phone: a
// message with a tip from a show page's popup (the balance falls), the performer's answer, the
// unread badge of another open tab following live (user:mc) within 1 s without a reload, the
// thread's read / unread / read-all / block, the placeholder while sending and its removal when
// sending fails, the no-coins path to /billing, the support thread, and visitors sent to the login.

let browser: PwBrowser;
let shows: ShowDetail[];

beforeAll(async () => {
  browser = await roomsBrowser();
  // Not the demo member's seeded threads (shows 1-3); partner shows have no studio of ours.
  shows = (await homeShows((s) => s.id > 3 && s.contentproviderId === 1)).slice(-4);
});

afterAll(async () => {
  await browser?.close();
});

/** Console errors and uncaught errors of a page, collected from now on. */
function problems(page: Page): string[] {
  const found: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') found.push(`${m.text()} ${m.location().url}`);
  });
  page.on('pageerror', (e) => found.push(String(e)));
  return found;
}

const badge = (page: Page) => page.locator('.app-bar [data-testid=messages-badge]');
const fill = (template: string, vars: Record<string, string | number>) => template.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(vars[k]));

/** Replies wrangler dev answered with its restart 503 (each leaves one failed-load console line). */
let restarts = 0;

/** The performer answers in the studio inbox's open thread; resolves when the server took it. */
async function studioReply(thread: Locator, body: string, retried = false): Promise<void> {
  const page = thread.page();
  await thread.locator('[data-testid=inbox-reply-input]').fill(body);
  const [res] = await Promise.all([page.waitForResponse((r) => /\/api\/studio\/conversations\/\d+\/reply$/.test(r.url())), thread.locator('[data-testid=inbox-reply-send]').click()]);
  // wrangler dev answers 503 when it restarted the worker mid-request (and asks to send it again).
  if (res.status() === 503 && !retried && /restarted mid-request/.test(await res.text())) {
    restarts++;
    return studioReply(thread, body, true);
  }
  expect(`${res.status()} ${res.status() === 200 ? '' : await res.text()}`.trim()).toBe('200');
  await thread.locator('[data-testid=inbox-message][data-author=show]', { hasText: body }).waitFor();
}

/** Waits for the badge of `page` to show `count` (0: no badge) and says how long it took from `since`. */
async function badgeShows(page: Page, count: number, timeout: number): Promise<void> {
  if (count === 0) await badge(page).waitFor({ state: 'detached', timeout });
  else await badge(page).filter({ hasText: new RegExp(`^${count}$`) }).waitFor({ timeout });
}

describe('messages, member side', () => {
  it('a tip from the show page popup, the performer answers, the badge of another tab follows within 1 s, read / unread / read-all / block (en, desktop)', async () => {
    const [lang, device] = ['en', 'desktop'] as const;
    const m = () => msg(lang).messages;
    const show = shows[0];
    const [member, studio] = await Promise.all([person(browser, lang, device), person(browser, lang, 'desktop')]);
    const memberProblems = problems(member);
    const studioProblems = problems(studio);
    await newMember(member, { coins: 100, ageChecked: true });
    const login = await call(studio, 'POST', 'auth/login', { username: show.slugName, password: PERFORMER_PASSWORD });
    expect(login.status).toBe(200);

    // The popup on the show page: at least 400 x 600 on a desktop, the whole screen on a phone.
    await open(member, showPath(show));
    await member.click('[data-testid=open-conversation]');
    const popup = member.locator('[data-testid=message-popup]');
    await popup.waitFor();
    expect(new URL(member.url()).hash).toBe('#open-conversation');
    // (On a phone it covers the whole screen: the German test below.)
    const box = (await popup.boundingBox())!;
    expect(box.width).toBeGreaterThanOrEqual(400);
    expect(Math.round(box.height)).toBe(600);
    await expect(popup.locator('h2').first().textContent()).resolves.toBe(fill(m().popup.title, { name: show.name }));

    // A message with a 10-coin tip: the balance is shown as it is, and falls by the tip.
    expect(await popup.locator('[data-testid=send-balance]').textContent()).toBe(fill(m().send.balance_other, { count: 100 }));
    const first = `Hello ${show.name}, ${lang}`;
    await popup.locator('[data-testid=send-body]').fill(first);
    await popup.locator('[data-testid=send-tip]').selectOption('10');
    await popup.locator('[data-testid=send-button]').click();
    await popup.locator('[data-testid=message]:not([data-message-id="-1"])', { hasText: first }).waitFor();
    await expect(popup.locator('[data-testid=message]', { hasText: first }).locator('.message-tip').textContent()).resolves.toBe(fill(m().thread.tip_other, { count: 10 }));
    await member.locator('.app-bar [data-testid=coins]', { hasText: /^90$/ }).waitFor();
    expect(await topBarCoins(member)).toBe(90);
    await popup.locator('[data-testid=message-popup-close]').click();
    await popup.waitFor({ state: 'detached' });

    // A second tab of the member, never reloaded from here on (a marker proves it).
    const tab2 = await member.context().newPage();
    const tab2Problems = problems(tab2);
    await open(tab2, '/');
    await tab2.evaluate(() => ((window as unknown as { __keep: number }).__keep = 1));
    expect(await badge(tab2).count()).toBe(0);

    // The performer's studio inbox: the member under a pseudonym, the tip received.
    const convs = await call<{ data: { id: number; showid: number; memberpseudo: string }[] }>(member, 'GET', 'conversations');
    const conv = convs.body.data.find((c) => c.showid === show.id)!;
    await open(studio, '/studio');
    const studioItem = studio.locator(`[data-testid=inbox-item][data-id="${conv.id}"]`);
    await studioItem.waitFor();
    expect(await studioItem.locator('[data-testid=inbox-item-pseudo]').textContent()).toBe(conv.memberpseudo);
    expect(conv.memberpseudo).not.toContain('@');
    await studioItem.click();
    const studioThread = studio.locator(`[data-testid=inbox-thread][data-id="${conv.id}"]`);
    await studioThread.locator('[data-testid=inbox-message-tip][data-coins="10"]').waitFor();

    // The answer raises the other tab's badge within 1 s of the server taking it, without a reload.
    const answer = `Thank you, ${lang}!`;
    await studioReply(studioThread, answer);
    await badgeShows(tab2, 1, 1_000);

    // The top bar menu: the unread list (unread=1, limit 50), then the 3 latest without those.
    const lists = Promise.all([
      tab2.waitForRequest((r) => r.url().includes('/api/conversations?') && new URL(r.url()).searchParams.get('unread') === '1'),
      tab2.waitForRequest((r) => r.url().includes('/api/conversations?') && new URL(r.url()).searchParams.get('order_by') === 'online'),
    ]);
    await tab2.click('[data-testid=messages-toggle]');
    const [unreadReq, latestReq] = await lists;
    expect(Object.fromEntries(new URL(unreadReq.url()).searchParams)).toEqual({ unread: '1', limit: '50' });
    expect(Object.fromEntries(new URL(latestReq.url()).searchParams)).toEqual({ order_by: 'online', limit: '3', conversations_not: String(conv.id) });
    await tab2.locator(`[data-testid=menu-unread] [data-conversation-id="${conv.id}"]`).waitFor();
    await tab2.keyboard.press('Escape');
    await tab2.locator('[data-testid=messages-menu]').waitFor({ state: 'detached' });

    // The inbox lists it with its unread badge; opening it reads it (the other tab's badge goes).
    await open(member, '/messages');
    const item = member.locator(`[data-testid=conversation][data-conversation-id="${conv.id}"]`);
    await item.waitFor();
    expect(await item.getAttribute('data-unread')).toBe('1');
    await expect(item.locator('[data-testid=conversation-name]').textContent()).resolves.toBe(show.name);
    await expect(item.locator('[data-testid=conversation-body]').textContent()).resolves.toBe(answer);
    await item.click();
    await member.waitForURL(`**/messages/${conv.id}`);
    const thread = member.locator('[data-testid=thread]');
    await thread.waitFor();
    // The "New" marker sits right before the performer's answer.
    await expect(thread.locator('[data-testid=new-marker] + [data-testid=message]').textContent()).resolves.toContain(answer);
    await badgeShows(tab2, 0, 1_000);

    // Unread again, then read: the badge follows each time.
    await thread.locator('[data-action=mark-unread]').click();
    await badgeShows(tab2, 1, 1_000);
    await thread.locator('[data-action=mark-read]').click();
    await badgeShows(tab2, 0, 1_000);

    // Two more answers arrive in the open thread without a reload; read-all clears them.
    for (const n of [1, 2]) await studioReply(studioThread, `More ${n}`);
    await badgeShows(tab2, 2, 1_000);
    await thread.locator('[data-testid=message]', { hasText: 'More 2' }).waitFor();
    await thread.locator('[data-action=read-all]').click();
    await badgeShows(tab2, 0, 1_000);
    await badgeShows(member, 0, 1_000);

    // Block: confirmed, memberstatus 1, the send box gives way to the notice, the item is dimmed.
    await thread.locator('[data-action=block]').click();
    await member.locator('.confirm[role=alertdialog] .btn-primary').click();
    await member.locator('[data-testid=thread][data-blocked="1"]').waitFor();
    await member.locator('[data-testid=send-blocked]').waitFor();
    expect(await member.locator('[data-testid=send-box]').count()).toBe(0);
    // The performer cannot write to a member who blocked the show.
    const refused = await call(studio, 'POST', `studio/conversations/${conv.id}/reply`, { body: 'Still there?' });
    expect([refused.status, (refused.body as { message: string }).message]).toEqual([403, 'messages.blocked']);
    const blocked = await call<{ data: { id: number; block: { memberstatus: number } }[] }>(member, 'GET', 'conversations');
    expect(blocked.body.data.find((c) => c.id === conv.id)?.block.memberstatus).toBe(1);
    await open(member, '/messages');
    await member.locator(`[data-testid=conversation][data-conversation-id="${conv.id}"][data-blocked="1"] [data-testid=conversation-blocked]`).waitFor();
    expect(await item.evaluate((el) => getComputedStyle(el).opacity)).toBe('0.5');

    // Unblock: the thread is writable again.
    await item.click();
    await member.locator('[data-action=unblock]').click();
    await member.locator('[data-testid=thread][data-blocked="0"] [data-testid=send-box]').waitFor();

    expect(await tab2.evaluate(() => (window as unknown as { __keep?: number }).__keep)).toBe(1);
    const restartLines = studioProblems.filter((p) => p.includes('status of 503'));
    expect(restartLines.length).toBeLessThanOrEqual(restarts);
    expect([...memberProblems, ...tab2Problems, ...studioProblems.filter((p) => !restartLines.includes(p))]).toEqual([]);
    await Promise.all([member.context().close(), studio.context().close()]);
  });

  it('the placeholder shows while sending and goes when sending fails; no coins offers /billing; support; visitors log in first (de, phone)', async () => {
    const [lang, device] = ['de', 'phone'] as const;
    const m = () => msg(lang).messages;
    const show = shows[3];
    const [visitor, member] = await Promise.all([person(browser, lang, device), person(browser, lang, device)]);

    // Visitors are sent to the login, with the way back.
    await visitor.goto(new URL('/messages/support', baseUrl()).href);
    expect(new URL(visitor.url()).pathname + new URL(visitor.url()).search).toBe(`/login?redirect=${encodeURIComponent('/messages/support')}`);
    await visitor.context().close();

    const memberProblems = problems(member);
    await newMember(member, { coins: 5, ageChecked: true });
    // #open-conversation opens the popup when the show page loads: on a phone it covers the screen.
    await open(member, `${showPath(show)}#open-conversation`);
    const popup = member.locator('[data-testid=message-popup]');
    await popup.locator('[data-testid=send-box]').waitFor();
    const box = (await popup.boundingBox())!;
    expect([Math.round(box.width), Math.round(box.height)]).toEqual([390, 844]);

    // The send is held, then fails: the placeholder (id -1) is there meanwhile, then gone.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await member.route('**/api/conversations/show', async (route) => {
      await held;
      await route.abort('failed');
    });
    const text = `Will this arrive? ${lang}`;
    await popup.locator('[data-testid=send-body]').fill(text);
    await popup.locator('[data-testid=send-button]').click();
    const placeholder = popup.locator('[data-testid=message][data-message-id="-1"]');
    await placeholder.waitFor();
    expect(await placeholder.locator('.message-body').textContent()).toBe(text);
    release();
    await popup.locator('[data-testid=send-error]').waitFor();
    expect(await placeholder.count()).toBe(0);
    expect(await popup.locator('[data-testid=message]').count()).toBe(0);
    expect(await popup.locator('[data-testid=send-body]').inputValue()).toBe(text);
    await member.unroute('**/api/conversations/show');

    // A tip above the balance: the no-coins notice with the way to /billing, nothing sent.
    await popup.locator('[data-testid=send-tip]').selectOption('10');
    await popup.locator('[data-testid=send-no-coins]').waitFor();
    expect(await popup.locator('[data-testid=send-buy-coins]').getAttribute('href')).toBe('/billing');
    expect(await popup.locator('[data-testid=send-button]').isDisabled()).toBe(true);
    // Without the tip it goes through, and the balance stays.
    await popup.locator('[data-testid=send-tip]').selectOption('0');
    await popup.locator('[data-testid=send-button]').click();
    await popup.locator('[data-testid=message]:not([data-message-id="-1"])', { hasText: text }).waitFor();
    expect(await topBarCoins(member)).toBe(5);

    // The support thread.
    await open(member, '/messages/support');
    await member.locator('[data-testid=thread] h2', { hasText: m().support.title }).waitFor();
    await member.locator('[data-testid=send-body]').fill(`Support question ${lang}`);
    await member.locator('[data-testid=send-button]').click();
    await member.locator('[data-testid=message]:not([data-message-id="-1"])', { hasText: `Support question ${lang}` }).waitFor();
    expect(await member.locator('[data-testid=send-tip]').count()).toBe(0);

    // The inbox's show-name filter (from 3 characters) narrows the list and stays in the address.
    await open(member, '/messages');
    const item = member.locator(`[data-testid=inbox] [data-testid=conversation]`, { hasText: show.name });
    await item.waitFor();
    await member.locator('[data-testid=filter-showname]').fill('zzq');
    await member.locator('[data-testid=inbox-empty]').waitFor();
    await expect(member.locator('[data-testid=inbox-empty]').textContent()).resolves.toBe(m().list.emptyFiltered);
    await member.locator('[data-testid=filter-showname]').fill(show.name.slice(0, 3));
    await item.waitFor();
    expect(new URL(member.url()).searchParams.get('showname')).toBe(show.name.slice(0, 3));
    // The top bar's menu fits its links (German is longer): nothing in it scrolls sideways.
    await member.click('.app-bar .messages-toggle');
    const menu = member.locator('[data-testid=messages-menu]');
    await menu.locator('[data-testid=menu-all-messages]').waitFor();
    expect(await menu.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    await member.keyboard.press('Escape');
    // The one failure is the send this test made fail.
    expect(memberProblems.filter((p) => !p.includes('ERR_FAILED'))).toEqual([]);
    expect(memberProblems.filter((p) => p.includes('ERR_FAILED'))).toHaveLength(1);
    await member.context().close();
  });
});
