import type { Browser as PwBrowser } from 'playwright-core';
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERFORMER_SHARE_PERCENT } from '../../src/shared/chat';
import type { SendAnswer } from '../../src/shared/messages';
import type { ShowDetail } from '../../src/shared/shows';
import { baseUrl, call, open } from './browser';
import { becomeOperator, newMember } from './members';
import { msg, performerStudio, person, roomsBrowser, showsByIds } from './rooms-helpers';

// Issue 29 points 5 and 6 in Chromium: an operator refunds a member's paid chat from the support
// thread (de, phone) and the member's coins come back; a chargeback takes a payment's coins back,
// the member owes what they spent (the coins page says so) and the performer's share of it is
// taken back (de, phone); a performer requests a payout in the studio and an operator pays it as a
// batch whose CSV statement lists it (en, desktop).

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

/** The e2e servers' billing secret (scripts/lib.mjs startServer: the pepper, no BILLING_SECRET of its own). */
const E2E_BILLING_SECRET = 'e2e-pepper-not-secret';
const performerPart = (coins: number) => Math.floor((coins * PERFORMER_SHARE_PERCENT) / 100);

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

  it("a chargeback takes the coins back: the member owes what was spent, the coins page says so, the performer's share of it is taken back (de, phone)", async () => {
    const performer = await person(browser, 'de', 'desktop');
    expect((await call(performer, 'POST', 'auth/login', { username: show.slugName, password: 'studio-demo-1' })).status).toBe(200);
    const earnings = async () => (await call<{ balance: number }>(performer, 'GET', 'studio/payouts')).body.balance;
    const member = await person(browser, 'de', 'phone');
    await newMember(member, { ageChecked: true, nickname: true });
    // A card payment through the sandbox processor, then every coin of it tipped to the show.
    const init = await call<{ link: string; id: number; coins: number }>(member, 'POST', 'billing/init', { paymenttypeid: 1, productid: 2 });
    expect(init.status).toBe(200);
    const bid = new URL(init.body.link, baseUrl()).searchParams.get('bid')!;
    expect((await member.request.post(`${baseUrl()}/billing/sandbox`, { form: { bid, action: 'pay' }, maxRedirects: 0 })).status()).toBe(303);
    const coins = await coinsOf(member);
    expect(coins).toBeGreaterThan(0);
    const before = await earnings();
    expect((await call(member, 'POST', 'conversations/show', { body: 'Danke', showid: show.id, pseudoid: 0, tip: true, coins })).status).toBe(200);
    expect(await earnings()).toBe(before + performerPart(coins));
    // The bank takes the payment back: the processor's signed postback.
    const body = JSON.stringify({ billing_id: init.body.id, status: 'chargeback', event_id: `cb-${init.body.id}` });
    const signature = createHmac('sha256', E2E_BILLING_SECRET).update(body).digest('hex');
    const res = await fetch(`${baseUrl()}/api/billing/callback/sandbox`, { method: 'POST', body, headers: { 'Content-Type': 'application/json', 'X-Sandbox-Signature': signature } });
    expect(((await res.json()) as { status: string }).status).toBe('charged_back');
    expect(await coinsOf(member)).toBe(0);
    expect(await earnings()).toBe(before);
    const owed = (await call<{ owed: number }>(member, 'GET', 'billing')).body.owed;
    expect(owed).toBeGreaterThan(0);
    await open(member, '/billing');
    expect(await member.locator('[data-testid=billing-owed]').textContent()).toContain(msg('de').billing.owed.replace('{{coins}}', String(owed)));
    await Promise.all([performer.context().close(), member.context().close()]);
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
