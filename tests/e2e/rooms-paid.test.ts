import type { Browser as PwBrowser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TIP_AMOUNTS, VOYEUR_PERCENT } from '../../src/shared/chat';
import type { ShowDetail } from '../../src/shared/shows';
import { open } from './browser';
import { newMember } from './members';
import { barCoins, homeShows, msg, overlay, performerStudio, person, roomsBrowser, startChat } from './rooms-helpers';

// Paid chats with a 4 s minute (CHAT_MINUTE_MS of the e2e server): a private with its pending
// state, the free chatters seeing it went private, minutes charged at their start, a private
// line, a tip, the end with confirmation and the rating; a voyeur watching; an exclusive
// refusing voyeurs; a member whose coins last one minute gets the warning and the no-coins end.

let browser: PwBrowser;
let shows: ShowDetail[];

beforeAll(async () => {
  browser = await roomsBrowser();
  // Skip the two the free-chat file used (the first two from the end of the home page).
  shows = (await homeShows((s) => s.online && s.freemode && s.exclusivemode && !s.exclusiveOnly && s.contentproviderId === 1)).slice(2);
});

afterAll(async () => {
  await browser?.close();
});

describe('rooms: private chat (en, desktop)', () => {
  it('pending until accepted, free chatters see it went private, minute 1 charged at once and minute 2 at its start, a voyeur watches, tip, end, rate', async () => {
    const m = msg('en');
    const show = shows[0];
    const price = show.pricing.private;
    const voyeurPrice = Math.max(1, Math.round((price * VOYEUR_PERCENT) / 100));
    const [studio, guest, member, voyeur] = await Promise.all(['desktop', 'phone', 'desktop', 'desktop'].map((d) => person(browser, 'en', d as 'desktop' | 'phone')));
    const start = price * 3 + 50;
    await Promise.all([
      performerStudio(studio, show, { online: true }),
      startChat(guest, show, 'free'),
      newMember(member, { coins: start, ageChecked: true }),
      newMember(voyeur, { coins: voyeurPrice * 4, ageChecked: true, nickname: true }),
    ]);
    await overlay(guest).and(guest.locator('[data-state=running]')).waitFor();

    // The member has no nickname yet: the nickname dialog comes first, then the pending private.
    const nick = `p${Date.now().toString(36)}`.slice(0, 12);
    await startChat(member, show, 'private', nick);
    await overlay(member).and(member.locator('[data-state=pending]')).waitFor();
    await expect(member.locator('[data-testid=chat-stage]').textContent()).resolves.toBe(m.chat.stage.pending.replace('{{name}}', show.name));
    expect(await barCoins(member)).toBe(start);

    // The performer sees the request highlighted and accepts it.
    const request = studio.locator('.studio-request').filter({ hasText: nick });
    await request.locator('[data-testid=studio-accept]').click();
    await overlay(member).and(member.locator('[data-state=running]')).waitFor();
    // Minute 1 is charged at once, and the free chatter sees the show went private.
    await member.locator('[data-testid=chat-minutes][data-minutes="1"]').waitFor();
    await member.locator(`[data-testid=chat-coins][data-coins="${start - price}"]`).waitFor();
    await overlay(guest).and(guest.locator('[data-state=went-private]')).waitFor();
    await expect(guest.locator('[data-testid=chat-stage]').textContent()).resolves.toBe(m.chat.stage.wentPrivate.replace('{{name}}', show.name));
    await studio.locator('[data-testid=studio-private]').waitFor();

    // A voyeur watches the private (and cannot write).
    await startChat(voyeur, show, 'voyeur');
    await overlay(voyeur).and(voyeur.locator('[data-state=running][data-type=voyeur]')).waitFor();
    await expect(voyeur.locator('[data-testid=chat-input]').isDisabled()).resolves.toBe(true);
    await voyeur.locator(`[data-testid=chat-coins][data-coins="${voyeurPrice * 4 - voyeurPrice}"]`).waitFor();

    // Minute 2 is charged when it starts.
    await member.locator('[data-testid=chat-minutes][data-minutes="2"]').waitFor();
    await member.locator(`[data-testid=chat-coins][data-coins="${start - 2 * price}"]`).waitFor();

    // A private line reaches the performer's private conversation, and the answer comes back.
    await member.fill('[data-testid=chat-input]', 'just for you');
    await member.click('[data-testid=chat-send]');
    await studio.locator('[data-testid=studio-private-lines] .chat-text', { hasText: 'just for you' }).waitFor();
    await studio.fill('[data-testid=studio-private-input]', 'thank you');
    await studio.press('[data-testid=studio-private-input]', 'Enter');
    await member.locator('[data-testid=chat-line][data-from=performer] .chat-text', { hasText: 'thank you' }).waitFor();

    // A tip: shown as a tip line on both sides, debited at once.
    const before = await barCoins(member);
    await member.click('[data-testid=chat-tip]');
    await member.click(`[data-tip="${TIP_AMOUNTS[0]}"]`);
    const tipText = m.chat.tip.line_other.replace('{{nick}}', nick).replace('{{count}}', String(TIP_AMOUNTS[0]));
    await member.locator('[data-testid=chat-tip-line]', { hasText: tipText }).waitFor();
    await studio.locator('[data-testid=chat-tip-line]', { hasText: tipText }).waitFor();
    await member.waitForFunction(
      ([sel, max]) => Number(document.querySelector(sel)?.getAttribute('data-coins')) <= max,
      ['[data-testid=chat-coins]', before - TIP_AMOUNTS[0]] as const,
    );

    // The performer's earnings of today count the minutes and the tip, with a statement.
    await studio.locator('[data-testid=studio-statement] tbody tr', { hasText: m.studio.earnings.kind.tip }).waitFor();
    await studio.locator('[data-testid=studio-statement] tbody tr', { hasText: m.studio.earnings.kind.chat }).first().waitFor();
    expect(Number(await studio.locator('[data-testid=studio-today]').textContent())).toBeGreaterThan(0);

    // Ending asks first; then the chat closes and the rating is due.
    await member.click('[data-testid=chat-end]');
    await member.locator('.dialog.confirm').waitFor();
    await expect(member.locator('#confirm-title').textContent()).resolves.toBe(m.chat.exit.title);
    await member.click('.dialog.confirm .btn-primary');
    await overlay(member).waitFor({ state: 'detached' });
    expect(new URL(member.url()).hash).toBe('');
    const rating = member.locator('[data-testid=rating-dialog]');
    await rating.waitFor();
    await expect(rating.getAttribute('data-scale')).resolves.toBe('10');
    await expect(member.locator('[data-testid=rating-save]').isDisabled()).resolves.toBe(true);
    await member.click('[data-testid=rating-dialog] .rating-star:nth-child(8)');
    await member.fill('[data-testid=rating-comment]', 'lovely chat');
    const saved = member.waitForResponse((r) => r.url().includes('/api/chatsession/rate_chat/'));
    await member.click('[data-testid=rating-save]');
    const res = await saved;
    expect(res.status()).toBe(200);
    expect(JSON.parse(res.request().postData() ?? '{}')).toEqual({ rating: 80, comment: 'lovely chat' });
    await expect(member.locator('[data-testid=rating-thanks]').textContent()).resolves.toBe(m.chat.rating.thanks.replace('{{name}}', show.name));

    // The free chat goes on for the guest.
    await overlay(guest).and(guest.locator('[data-state=running]')).waitFor();

    // The member's chat history on the profile lists the private chat with its minutes and coins.
    await open(member, '/users/profile');
    const row = member.locator('[data-testid=chat-history-row]').first();
    await row.waitFor();
    const [name, type, , minutes, coins] = await row.locator('td').allTextContents();
    expect([name, type]).toEqual([show.name, m.chat.type.private]);
    // At least the two minutes seen above (a third may have started before the end), each at the price.
    expect(Number(minutes)).toBeGreaterThanOrEqual(2);
    expect(Number(coins)).toBe(Number(minutes) * price);
    await Promise.all([studio, guest, member, voyeur].map((p) => p.context().close()));
  });
});

describe('rooms: exclusive and coins (de)', () => {
  it('an exclusive chat refuses voyeurs (desktop)', async () => {
    const m = msg('de');
    const show = shows[1];
    const price = show.pricing.exclusive ?? 0;
    const [studio, member, voyeur] = await Promise.all([person(browser, 'de', 'desktop'), person(browser, 'de', 'desktop'), person(browser, 'de', 'desktop')]);
    await Promise.all([performerStudio(studio, show, { online: true }), newMember(member, { coins: price * 3, ageChecked: true, nickname: true }), newMember(voyeur, { coins: show.pricing.private * 3, ageChecked: true, nickname: true })]);
    await startChat(member, show, 'exclusive');
    await overlay(member).and(member.locator('[data-state=pending][data-type=exclusive]')).waitFor();
    await studio.locator('.studio-request [data-testid=studio-accept]').click();
    await overlay(member).and(member.locator('[data-state=running]')).waitFor();

    await startChat(voyeur, show, 'voyeur');
    const alert = voyeur.locator('[data-testid=chat-alert]');
    await alert.waitFor();
    await expect(alert.getAttribute('data-code')).resolves.toBe('chat.show_not_available_exclusive_in_use');
    await expect(alert.locator('h2').textContent()).resolves.toBe(m.chat.alert.show_not_available_private.title);
    await expect(overlay(voyeur).count()).resolves.toBe(0);
    await Promise.all([studio, member, voyeur].map((p) => p.context().close()));
  });

  it('coins for one minute: the warning, then the no-coins end with the way to /billing (phone)', async () => {
    const m = msg('de');
    const show = shows[2];
    const price = show.pricing.private;
    const [studio, member] = await Promise.all([person(browser, 'de', 'phone'), person(browser, 'de', 'phone')]);
    await Promise.all([performerStudio(studio, show, { online: true }), newMember(member, { coins: price, ageChecked: true, nickname: true })]);
    await startChat(member, show, 'private');
    await overlay(member).and(member.locator('[data-state=pending]')).waitFor();
    await studio.locator('.studio-request [data-testid=studio-accept]').click();
    await member.locator('[data-testid=chat-minutes][data-minutes="1"]').waitFor();
    await member.locator('[data-testid=chat-coins][data-coins="0"]').waitFor();
    // One minute before the coins run out both sides are warned.
    await member.locator('[data-testid=chat-warn]').waitFor();
    await studio.locator('.studio-private .chat-warn').waitFor();
    // Minute 2 cannot be paid: the chat ends at once with the no-coins message.
    await overlay(member).and(member.locator('[data-state=ended]')).waitFor();
    await expect(member.locator('[data-testid=chat-stage]').textContent()).resolves.toBe(m.chat.ended.no_coins);
    await expect(member.locator('[data-testid=chat-billing]').getAttribute('href')).resolves.toBe('/billing');
    await expect(member.locator('[data-testid=chat-minutes]').getAttribute('data-minutes')).resolves.toBe('1');
    await studio.locator('[data-testid=studio-private]').waitFor({ state: 'detached' });
    // Closing it asks for the rating: five steps on a phone.
    await member.click('[data-testid=chat-close]');
    await member.locator('[data-testid=rating-dialog][data-scale="5"]').waitFor();
    await Promise.all([studio, member].map((p) => p.context().close()));
  });
});
