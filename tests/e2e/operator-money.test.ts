import type { Browser as PwBrowser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SendAnswer } from '../../src/shared/messages';
import type { ShowDetail } from '../../src/shared/shows';
import { baseUrl, call, open } from './browser';
import { becomeOperator, newMember } from './members';
import { msg, performerStudio, person, roomsBrowser, showsByIds } from './rooms-helpers';

// Issue 29 points 5 and 6 in Chromium: an operator refunds a member's paid chat from the support
// thread (de, phone), the member's coins come back and a chargeback's debt shows on their coins
// page; a performer requests a payout in the studio and an operator pays it as a batch whose CSV
// statement lists it (en, desktop).

let browser: PwBrowser;
let show: ShowDetail;

beforeAll(async () => {
  browser = await roomsBrowser('media');
  // A show of our own no other suite takes (its studio and earnings are this file's).
  [show] = await showsByIds(190, 199, (s) => s.freemode && !s.exclusiveOnly && s.contentproviderId === 1);
});

afterAll(async () => {
  await browser?.close();
});

const coinsOf = async (page: Parameters<typeof call>[0]) => (await call<{ user: { coins: number } }>(page, 'GET', 'session/init')).body.user.coins;

describe('operators and money', () => {
  it('an operator refunds a paid chat from the support thread: the coins come back (de, phone)', async () => {
    const studio = await person(browser, 'de', 'desktop');
    await performerStudio(studio, show, { online: true });
    const member = await person(browser, 'de', 'phone');
    await newMember(member, { coins: 500, ageChecked: true, nickname: true });
    // A voyeur's minute 1 is paid at its start; the member ends it at once.
    const started = await call<{ sessionId: string; price: number }>(member, 'POST', `chatsession/${show.universalId}`, { type: 'voyeur' });
    expect(started.status).toBe(200);
    expect((await call(member, 'POST', `chatsession/end/${started.body.sessionId}`)).status).toBe(200);
    expect(await coinsOf(member)).toBe(500 - started.body.price);
    const sent = await call<SendAnswer>(member, 'POST', 'conversations/support', { body: 'Das Video lief nicht.' });
    expect(sent.status).toBe(200);

    const operator = await person(browser, 'de', 'phone');
    await becomeOperator(operator, await newMember(operator), '/operator/messages');
    await operator.locator(`[data-testid=inbox-item][data-id="${sent.body.conversation.id}"]`).click();
    const chat = operator.locator(`[data-testid=support-member-chats] [data-chat-id="${started.body.sessionId}"]`);
    await chat.locator('[data-action=chat-refund]').click();
    // Without a reason nothing happens.
    await chat.locator('[data-action=chat-refund-confirm]').click();
    await chat.locator('.field.has-error').waitFor();
    await chat.locator('input[name=reason]').fill('Video lief nicht');
    await chat.locator('[data-action=chat-refund-confirm]').click();
    expect(await chat.locator('[data-testid=chat-refunded]').textContent()).toBe(msg('de').inbox.member.refunded);
    expect(await coinsOf(member)).toBe(500);
    await Promise.all([studio.context().close(), member.context().close(), operator.context().close()]);
  });

  it('a performer requests a payout in the studio and an operator pays it in a batch with its CSV statement (en, desktop)', async () => {
    const studio = await person(browser, 'en', 'desktop');
    await performerStudio(studio, show);
    // Earnings: a member's tip with a message to the show.
    const member = await person(browser, 'en', 'phone');
    await newMember(member, { coins: 3000, ageChecked: true, nickname: true });
    const tip = await call(member, 'POST', 'conversations/show', { body: 'For you', showid: show.id, pseudoid: 0, tip: true, coins: 2500 });
    expect(tip.status).toBe(200);
    await open(studio, '/studio');
    const card = studio.locator('[data-testid=studio-payouts]');
    await card.locator('[data-action=studio-payout]').waitFor();
    const payable = Number(await card.getAttribute('data-payable'));
    expect(payable).toBeGreaterThanOrEqual(1000);
    await card.locator('input[name=amount]').fill('1000');
    await card.locator('[data-action=studio-payout]').click();
    await card.locator('[data-testid=studio-payout-open]').waitFor();

    const operator = await person(browser, 'en', 'desktop');
    await becomeOperator(operator, await newMember(operator), '/operator/payouts');
    const list = operator.locator('[data-testid=operator-payouts]');
    await list.locator('[data-action=operator-pay]').click();
    const csvLink = operator.locator('[data-testid=operator-payouts-csv]');
    await csvLink.waitFor();
    await list.locator('[data-result=paid]').first().waitFor();
    const csv = await operator.request.get(new URL((await csvLink.getAttribute('href'))!, baseUrl()).href);
    expect(csv.headers()['content-type']).toContain('text/csv');
    expect(await csv.text()).toContain(`"${show.id}"`);
    await open(studio, '/studio');
    await card.locator('[data-testid=studio-payout-list] [data-state=paid]').waitFor();
    await Promise.all([studio.context().close(), member.context().close(), operator.context().close()]);
  });
});
