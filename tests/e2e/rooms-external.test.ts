import type { Browser as PwBrowser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTERNAL_EXTEND_MS } from '../../src/shared/chat';
import type { ShowDetail } from '../../src/shared/shows';
import { baseUrl, call, open } from './browser';
import { type Lang, newMember } from './members';
import { msg, performerStudio, person, roomsBrowser, startChat, type Device } from './rooms-helpers';

// A partner show (contentprovider_id 2, demo shows 241-250): the chat buttons start an external
// session and the show page embeds the partner frame, which runs the same room (a line reaches
// the performer's studio and the answer comes back); the page extends the session every 10 s
// (the page's clock is Playwright's: 10 s pass at once, no waiting), and closing the chat or
// leaving the page ends it. English on a desktop (a private chat, closed by its button) and
// German on a phone (a free chat, ended by leaving the page).

let browser: PwBrowser;
let shows: ShowDetail[];

beforeAll(async () => {
  browser = await roomsBrowser();
  const ids = Array.from({ length: 10 }, (_, i) => 241 + i);
  const details = await Promise.all(ids.map(async (id) => (await (await fetch(`${baseUrl()}/api/shows/${id}`)).json()) as ShowDetail));
  shows = details.filter((s) => s.contentproviderId > 1 && s.online && s.freemode && s.exclusivemode && !s.exclusiveOnly);
});

afterAll(async () => {
  await browser?.close();
});

interface History {
  data: { sessionId: string; showId: number; type: string; ended_at: number | null; end_reason: string | null; minutes: number; coins: number }[];
}

/** The member's latest chat of a show, once it has ended (the beacon may land after the navigation). */
async function endedChat(page: Page, showId: number) {
  for (let i = 0; i < 100; i++) {
    const h = await call<History>(page, 'GET', 'user/chathistory');
    const row = h.body.data.find((r) => r.showId === showId);
    if (row?.ended_at) return row;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the chat of show ${showId} did not end`);
}

/**
 * Pauses the page's clock just ahead of its own time. On a busy machine the page's time may pass
 * the target before the pause lands ("Cannot fast-forward to the past"): then it tries again.
 */
async function pauseSoon(page: Page): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const pageNow = await page.evaluate(() => Date.now());
    try {
      await page.clock.pauseAt(pageNow + 250 * attempt);
      return;
    } catch (error) {
      if (attempt >= 5 || !String(error).includes('to the past')) throw error;
    }
  }
}

/**
 * Extend calls answered so far, as the page counts them; `requests` counts those the page sent.
 * With the page's clock paused, each 10 s run of the clock must send exactly one more.
 */
async function extendsEvery10s(page: Page, requests: () => number): Promise<void> {
  const answered = async () => Number(await page.locator('[data-testid=external-overlay]').getAttribute('data-extends'));
  await pauseSoon(page);
  // Settle what the real time already sent.
  await page.waitForFunction((n) => Number(document.querySelector('[data-testid=external-overlay]')?.getAttribute('data-extends')) >= n, requests());
  const base = await answered();
  expect(requests()).toBe(base);
  for (let i = 1; i <= 3; i++) {
    await page.clock.runFor(EXTERNAL_EXTEND_MS);
    await page.locator(`[data-testid=external-overlay][data-extends="${base + i}"]`).waitFor();
    expect(requests()).toBe(base + i);
  }
  await page.clock.resume();
}

const CASES: [Lang, Device, 'private' | 'free'][] = [
  ['en', 'desktop', 'private'],
  ['de', 'phone', 'free'],
];

describe.each(CASES)('rooms: external provider show (%s, %s)', (lang, device, type) => {
  it(`a ${type} chat runs in the partner frame: messages both ways, extended every 10 s, ${type === 'private' ? 'closed by its button' : 'ended by leaving the page'}`, async () => {
    const m = msg(lang);
    const show = shows[lang === 'en' ? 0 : 1];
    expect(show, 'a live partner show with free and private chat').toBeDefined();
    const price = show.pricing.private;
    const [studio, member] = await Promise.all([person(browser, lang, device), person(browser, lang, device)]);
    const coins = price * 20;
    const [, me] = await Promise.all([performerStudio(studio, show, { online: true }), newMember(member, { coins, ageChecked: true, nickname: true })]);
    let extendRequests = 0;
    member.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/chat/external/extend') extendRequests++;
    });
    const problems: string[] = [];
    member.on('console', (c) => c.type() === 'error' && problems.push(`${c.location().url}: ${c.text()}`));
    member.on('pageerror', (e) => problems.push(String(e)));
    await member.clock.install();

    // The chat button starts an external session: the page embeds the partner frame, no overlay.
    const started = member.waitForResponse((r) => r.url().includes(`/api/chatsession/${show.universalId}`));
    await startChat(member, show, type);
    const answer = (await (await started).json()) as { sessionId: string; frame: string; contentProviderId: number };
    expect(answer.contentProviderId).toBe(show.contentproviderId);
    expect(answer.frame).toMatch(/^\/api\/chat\/external\/vxm\?session=/);
    const holder = member.locator('[data-testid=external-overlay][data-state=running]');
    await holder.waitFor();
    expect(await member.locator('[data-testid=chat-overlay]').count()).toBe(0);
    const iframe = member.locator('[data-testid=external-frame]');
    await expect(iframe.getAttribute('title')).resolves.toBe(m.chat.external.frameTitle.replace('{{name}}', show.name));
    await expect(iframe.getAttribute('src')).resolves.toBe(answer.frame);
    // It fills the viewport's width on a phone and sits in a panel on a desktop.
    const box = (await iframe.boundingBox())!;
    const viewport = member.viewportSize()!;
    if (device === 'phone') expect(Math.round(box.width)).toBe(viewport.width);
    else expect(box.width).toBeLessThan(viewport.width);
    expect(await member.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);

    // The frame is our page in the member's language, joined to the room as this session.
    const frame = member.frameLocator('[data-testid=external-frame]');
    await frame.locator('html').getAttribute('lang').then((l) => expect(l).toBe(lang));
    await expect(frame.locator('[data-testid=chat-type]').textContent()).resolves.toBe(m.chat.type[type]);
    if (type === 'private') {
      await frame.locator('[data-testid=external-chat][data-state=pending]').waitFor();
      await studio.locator('.studio-request').filter({ hasText: me.nick! }).locator('[data-testid=studio-accept]').click();
      // Minute 1 is charged at once: the frame shows the minutes, the coins spent and the balance.
      await frame.locator('[data-testid=chat-minutes][data-minutes="1"]').waitFor();
      await frame.locator(`[data-testid=chat-coins][data-coins="${coins - price}"]`).waitFor();
      await frame.locator('[data-testid=chat-spent]').and(frame.locator(`[data-coins="${price}"]`)).first().waitFor();
    }
    await frame.locator('[data-testid=external-chat][data-state=running][data-connected="1"]').waitFor();

    // A line from the frame reaches the performer's studio; the answer comes back into the frame.
    const hello = `hello from the partner frame ${lang}`;
    await frame.locator('[data-testid=chat-input]').fill(hello);
    await frame.locator('[data-testid=chat-send]').click();
    if (type === 'private') {
      await studio.locator('[data-testid=studio-private-lines] .chat-text', { hasText: hello }).waitFor();
      await studio.fill('[data-testid=studio-private-input]', `welcome ${lang}`);
      await studio.press('[data-testid=studio-private-input]', 'Enter');
    } else {
      await studio.locator('[data-testid=studio-lines] [data-from=member] .chat-text', { hasText: hello }).waitFor();
      await studio.fill('[data-testid=studio-input]', `welcome ${lang}`);
      await studio.press('[data-testid=studio-input]', 'Enter');
    }
    await frame.locator('[data-testid=chat-line][data-from=performer] .chat-text', { hasText: `welcome ${lang}` }).waitFor();

    // The page extends the session every 10 s: one call per 10 s of the page's clock.
    await extendsEvery10s(member, () => extendRequests);

    if (type === 'private') {
      // Closing asks first; then the session ends and the frame goes.
      await member.click('[data-testid=external-close]');
      await member.locator('.dialog.confirm').waitFor();
      await expect(member.locator('#confirm-title').textContent()).resolves.toBe(m.chat.exit.title);
      const ended = member.waitForResponse((r) => r.url().endsWith('/api/chat/external/end'));
      await member.click('.dialog.confirm .btn-primary');
      expect((await ended).status()).toBe(200);
      await member.locator('[data-testid=external-overlay]').waitFor({ state: 'detached' });
      await member.locator('button.chat-btn.btn-primary:not([disabled])').waitFor();
    } else {
      // Leaving the page ends the session by beacon (Chromium does not report beacons to Playwright;
      // the reason tells the member's end from the lease's expiry or the lost socket's timeout).
      await open(member, '/');
    }
    const row = await endedChat(member, show.id);
    expect(row).toMatchObject({ sessionId: answer.sessionId, type, end_reason: 'member' });
    await studio.locator(`.studio-person[data-session="${answer.sessionId}"]`).waitFor({ state: 'detached' });
    // Neither the page nor the frame logged an error (a CSP refusal would show here).
    expect(problems).toEqual([]);
    await Promise.all([studio, member].map((p) => p.context().close()));
  });
});
