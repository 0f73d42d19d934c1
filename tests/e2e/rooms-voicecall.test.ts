import type { Browser as PwBrowser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShowDetail } from '../../src/shared/shows';
import { baseUrl, call, open, waitForIslands } from './browser';
import { type Lang, newMember } from './members';
import { homeShows, msg, overlay, performerStudio, person, roomsBrowser, showPath, startChat, type Device } from './rooms-helpers';

// Voice-call chat (a 4 s minute on the e2e server): while the member's phone call is connected the
// show page offers no exclusive, says the call pays, runs the private without charging coin
// minutes and without tips (the performer still earns); when the call is hung up on the phone line the chat ends and the
// visitor is sent home.

let browser: PwBrowser;
let shows: ShowDetail[];

beforeAll(async () => {
  browser = await roomsBrowser();
  // Past the shows the free and paid room files use (the first five from the end of the home page).
  shows = (await homeShows((s) => s.online && s.freemode && s.exclusivemode && !s.exclusiveOnly && s.contentproviderId === 1)).slice(5);
});

afterAll(async () => {
  await browser?.close();
});

/** The member's phone payment, connected on the sandbox phone line: the session is in voice-call mode. */
async function connectCall(page: Page): Promise<string> {
  const init = await call<{ link: string }>(page, 'POST', 'billing/init_phonecall', { paymenttypeid: 3, productid: 8 });
  expect(init.status).toBe(200);
  const bid = new URL(init.body.link, baseUrl()).searchParams.get('bid') ?? '';
  await phoneLine(page, bid, 'start');
  return bid;
}

async function phoneLine(page: Page, bid: string, action: 'start' | 'end'): Promise<void> {
  const res = await page.context().request.post(`${baseUrl()}/billing/phone`, { form: { bid, action }, maxRedirects: 0 });
  expect(res.status()).toBe(303);
}

// In German on a phone.
const cases: [Lang, Device, number][] = [['de', 'phone', 1]];

for (const [lang, device, index] of cases) {
  describe(`rooms: voice-call chat (${lang}, ${device})`, () => {
    it('the call pays for the private: no exclusive, no tips, no coin minutes; hanging up ends it and sends the visitor home', async () => {
      const m = msg(lang);
      const show = shows[index];
      const [studio, member] = await Promise.all([person(browser, lang, 'desktop'), person(browser, lang, device)]);
      const [, me] = await Promise.all([performerStudio(studio, show, { online: true }), newMember(member, { ageChecked: true, nickname: true })]);
      const bid = await connectCall(member);
      const coins = async () => (await call<{ user: { coins: number } }>(member, 'GET', 'auth/user')).body.user.coins;
      const before = await coins();

      await open(member, showPath(show));
      const actions = member.locator('[data-testid=chat-actions][data-voicecall="1"]');
      await actions.waitFor();
      await expect(member.locator('[data-chat=exclusive]').count()).resolves.toBe(0);
      await expect(actions.locator('.chat-note').textContent()).resolves.toBe(m.shows.chat.hintVoicecall);

      await startChat(member, show, 'private');
      await overlay(member).and(member.locator('[data-state=pending][data-voicecall="1"]')).waitFor();
      const request = studio.locator('.studio-request').filter({ hasText: me.nick ?? '' });
      await expect(request.locator('span').first().textContent()).resolves.toBe(
        m.studio.requests.lineByCall.replace('{{nick}}', me.nick ?? '').replace('{{type}}', m.chat.type.private),
      );
      await request.locator('[data-testid=studio-accept]').click();
      await overlay(member).and(member.locator('[data-state=running]')).waitFor();
      await expect(member.locator('[data-testid=chat-by-call]').textContent()).resolves.toBe(m.chat.bar.byCall);
      await expect(member.locator('[data-testid=chat-coins]').count()).resolves.toBe(0);
      await expect(member.locator('[data-testid=chat-tip]').count()).resolves.toBe(0);
      // Two minutes run; the coins stay where the call left them.
      await member.locator('[data-testid=chat-minutes][data-minutes="2"]').waitFor();
      await studio.locator('[data-testid=studio-private-minutes]', { hasText: m.studio.private.minutesByCall_other.replace('{{count}}', '2') }).waitFor();
      expect(await coins()).toBe(before);
      // The performer earns from these minutes as from coin minutes (the call's money pays them).
      await studio.locator('[data-testid=studio-statement] tbody tr', { hasText: m.studio.earnings.kind.chat }).first().waitFor();
      expect(Number(await studio.locator('[data-testid=studio-today]').textContent())).toBeGreaterThan(0);

      // The phone line hangs up: the chat has no session any more and the visitor goes home.
      await phoneLine(member, bid, 'end');
      await member.waitForURL(`${baseUrl()}/`, { timeout: 15_000 });
      await waitForIslands(member);
      await studio.locator('[data-testid=studio-private]').waitFor({ state: 'detached' });
      expect(await coins()).toBe(before);
      await Promise.all([studio, member].map((p) => p.context().close()));
    });
  });
}
