import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from './browser';
import { baseUrl, open } from './browser';
import { openPicker, openPopup, topBarCoins, waitClosed } from './billing-helpers';
import { launchIn, MESSAGES, newMember, text } from './members';

// Issue 24, money, as the member sees it: a checkout cancelled in the popup cannot be paid from it
// later (its page says how it ended), and when the provider's payment still arrives too late the
// way back says it will be refunded and no coins come, in English and German.

/** The e2e server's sandbox secret (BILLING_SECRET falls back to the pepper of scripts/lib.mjs startServer). */
const SECRET = 'e2e-pepper-not-secret';

/** The sandbox provider's signed postback, sent server to server as a real processor would. */
async function latePaid(billingId: number): Promise<unknown> {
  const body = JSON.stringify({ billing_id: billingId, status: 'paid', event_id: `e2e-late-${billingId}` });
  const signature = createHmac('sha256', SECRET).update(body).digest('hex');
  const res = await fetch(`${baseUrl()}/api/billing/callback/sandbox`, { method: 'POST', body, headers: { 'Content-Type': 'application/json', 'X-Sandbox-Signature': signature } });
  expect(res.status).toBe(200);
  return res.json();
}

describe('a cancelled checkout paid too late (en, then de)', () => {
  let b: Browser;
  beforeAll(async () => {
    b = await launchIn('en');
    await newMember(b.page);
  });
  afterAll(async () => {
    await b?.close();
  });

  it('its page offers no payment any more, the late payment is not credited and the way back says it will be refunded', async () => {
    const page = b.page;
    await openPicker(page, '/billing');
    const before = await topBarCoins(page);
    const popup = await openPopup(b.context, page);
    await popup.waitForURL(/\/billing\/sandbox\?bid=/);
    const checkout = popup.url();
    const billingId = Number((await text(popup, '[data-testid=process-id]')).slice(2));
    await popup.click('[data-action=sandbox-cancel]');
    await page.locator('[data-testid=billing-dialog][data-kind=cancel]').waitFor();
    await waitClosed(popup);
    await page.click('[data-action=billing-dialog-ok]');

    // Back on the checkout later: it says it was cancelled and has no Pay button.
    const again = await b.newPage();
    await open(again, new URL(checkout).pathname + new URL(checkout).search, { hydrate: false });
    expect(await text(again, '[data-testid=checkout-ended]')).toBe('This payment was cancelled and can no longer be paid. Nothing was charged.');
    expect(await again.locator('[data-action=sandbox-pay]').count()).toBe(0);

    // The provider's payment arrives anyway: recorded for a refund, no coins.
    expect(await latePaid(billingId)).toEqual({ ok: true, status: 'refund_due' });
    // Its way back tells the truth even where the provider's return URL claims success.
    await open(again, `/billing/back?result=billing.success&billingid=${billingId}`);
    expect(await text(again, '[data-testid=billing-back] h1')).toBe(MESSAGES.en.billing.back.refund.title);
    expect(await text(again, '[data-testid=billing-back] p.muted')).toBe(MESSAGES.en.billing.back.refund.text);
    expect(await again.getAttribute('[data-testid=billing-back]', 'data-result')).toBe('billing.error');
    await open(page, '/faq');
    expect(await topBarCoins(page)).toBe(before);

    // In German as well.
    await b.context.addCookies([{ name: 'i18n_redirected', value: 'de', url: baseUrl() }]);
    await open(again, `/billing/back?result=billing.success&billingid=${billingId}`);
    expect(await text(again, '[data-testid=billing-back] h1')).toBe(MESSAGES.de.billing.back.refund.title);
    expect(await text(again, '[data-testid=billing-back] p.muted')).toBe(MESSAGES.de.billing.back.refund.text);
    expect(b.unexpectedProblems(page)).toEqual([]);
    expect(b.unexpectedProblems(again)).toEqual([]);
  });
});
