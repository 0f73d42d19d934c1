import type { ReactNode } from 'react';
import { Hono, type Context } from 'hono';
import { Layout } from '../../../client/shell/layout';
import type { AppEnv } from '../../env';
import { nowSeconds } from '../../lib/clock';
import { readForm, type FormFields } from '../../lib/body';
import { ApiError } from '../../lib/errors';
import { renderPage } from '../../render/render-page';
import { findBilling, PENDING_HOLD_S, type BillingRow } from './billing.repo';
import { applyPaymentEvent } from './billing.service';
import { endPhoneCall, phoneCallState } from './phone.repo';
import { billingSecret, providerFor, SANDBOX_SIGNATURE_HEADER, SandboxProvider } from './provider';

const ACTIONS = { pay: 'paid', cancel: 'cancelled', fail: 'failed' } as const;
const RESULTS = { paid: 'billing.success', cancelled: 'billing.cancel', failed: 'billing.error' } as const;

async function billingFromRef(c: Context<AppEnv>, ref: string | undefined): Promise<{ sandbox: SandboxProvider; billing: BillingRow | null; ref: string }> {
  const sandbox = new SandboxProvider(billingSecret(c.env));
  // Where the sandbox is not allowed (production) its pages do not exist.
  const id = providerFor(c.env, 'sandbox') ? await sandbox.billingIdFrom(ref) : null;
  const billing = id === null ? null : await findBilling(c.env.DB, id);
  return { sandbox, billing, ref: ref ?? '' };
}

/** The posted form; a body that is no form (wrong type, multipart without boundary) is a 422 page. */
async function postedForm(c: Context<AppEnv>): Promise<FormFields> {
  const form = await readForm(c);
  if (!form) throw new ApiError(422, 'invalid_body');
  return form;
}

function SandboxCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="sandbox-card">
      <h1>{title}</h1>
      {children}
    </section>
  );
}

/** The sandbox processor's hosted pages: checkout for coins, and a phone line for voice calls. */
export const sandboxPages = new Hono<AppEnv>()
  .get('/billing/sandbox', async (c) => {
    const t = c.get('t');
    const { billing, ref } = await billingFromRef(c, c.req.query('bid'));
    if (!billing || billing.is_phonecall) return c.notFound();
    const amount = new Intl.NumberFormat(c.get('locale'), { style: 'currency', currency: billing.currency }).format(billing.amount_cents / 100);
    // Only an open checkout can be paid; the others say how they ended.
    const expired = billing.status === 'pending' && billing.created_at <= nowSeconds() - PENDING_HOLD_S;
    const ended = billing.status === 'paid' ? 'sandbox.done' : billing.status === 'cancelled' ? 'sandbox.doneCancelled' : expired ? 'sandbox.doneExpired' : 'sandbox.doneFailed';
    return renderPage(
      c,
      <Layout variant="basic">
        <SandboxCard title={t('sandbox.checkoutTitle')}>
          <p className="muted">{t('sandbox.checkoutNotice')}</p>
          <dl className="sandbox-facts">
            <dt>{t('sandbox.process')}</dt>
            <dd data-testid="process-id">{`BS${billing.id}`}</dd>
            <dt>{t('sandbox.coins')}</dt>
            <dd>{billing.coins}</dd>
            <dt>{t('sandbox.amount')}</dt>
            <dd>{amount}</dd>
          </dl>
          {billing.status === 'pending' && !expired ? (
            <form method="post" action="/billing/sandbox" className="sandbox-actions">
              <input type="hidden" name="bid" value={ref} />
              <button className="btn btn-primary" name="action" value="pay" data-action="sandbox-pay">
                {t('sandbox.pay')}
              </button>
              <button className="btn btn-outline" name="action" value="cancel" data-action="sandbox-cancel">
                {t('sandbox.cancel')}
              </button>
              <button className="btn btn-text" name="action" value="fail" data-action="sandbox-fail">
                {t('sandbox.fail')}
              </button>
            </form>
          ) : (
            <p role="status" data-testid="checkout-ended">
              {t(ended)}
            </p>
          )}
        </SandboxCard>
      </Layout>,
      { title: t('sandbox.checkoutTitle'), robots: 'noindex' },
    );
  })
  .post('/billing/sandbox', async (c) => {
    const form = await postedForm(c);
    const { sandbox, billing } = await billingFromRef(c, form.bid);
    const action = typeof form.action === 'string' && Object.hasOwn(ACTIONS, form.action) ? (form.action as keyof typeof ACTIONS) : null;
    if (!billing || !action) return c.notFound();
    // A checkout that is over (paid, cancelled, failed) takes no second action, as a processor's
    // closed session would not: the way back tells what it ended as.
    if (billing.status !== 'pending') {
      const ended = billing.status === 'paid' ? RESULTS.paid : billing.status === 'cancelled' ? RESULTS.cancelled : RESULTS.failed;
      return c.redirect(`/billing/back?result=${ended}&billingid=${billing.id}`, 303);
    }
    // The "processor" sends its signed postback; it goes through the same verification as any.
    // A checkout older than PENDING_HOLD_S no longer holds its amount against the daily limit
    // (nor its voucher), so it can no longer be paid: it fails like an expired session would.
    const expired = action === 'pay' && billing.status === 'pending' && billing.created_at <= nowSeconds() - PENDING_HOLD_S;
    const status = expired ? 'failed' : ACTIONS[action];
    const { body, signature } = await sandbox.signedPostback({ billingId: billing.id, status, eventId: `sbx-${billing.id}-${action}` });
    const event = await sandbox.verifyCallback(new Request('https://sandbox/postback', { method: 'POST', body, headers: { [SANDBOX_SIGNATURE_HEADER]: signature } }));
    const outcome = event ? await applyPaymentEvent(c.env, sandbox.name, event, (p) => c.executionCtx.waitUntil(p)) : null;
    const result = outcome && (outcome.status === 'paid' || outcome.status === 'duplicate') ? RESULTS.paid : RESULTS[status === 'paid' ? 'failed' : status];
    return c.redirect(`/billing/back?result=${result}&billingid=${billing.id}`, 303);
  })
  .get('/billing/phone', async (c) => {
    const t = c.get('t');
    const { billing, ref } = await billingFromRef(c, c.req.query('bid'));
    if (!billing || !billing.is_phonecall) return c.notFound();
    const pin = String(100000 + ((billing.id * 7919) % 900000));
    const state = phoneCallState(billing);
    const price = new Intl.NumberFormat(c.get('locale'), { style: 'currency', currency: billing.currency }).format(billing.amount_cents / 100);
    const charged = billing.status === 'paid';
    return renderPage(
      c,
      <Layout variant="basic">
        <SandboxCard title={t('sandbox.phoneTitle')}>
          <p className="muted">{t('sandbox.phoneNotice', { price, count: billing.coins })}</p>
          <dl className="sandbox-facts">
            <dt>{t('sandbox.process')}</dt>
            <dd data-testid="process-id">{`BS${billing.id}`}</dd>
            <dt>{t('sandbox.pricePerCall')}</dt>
            <dd data-testid="phone-price">{price}</dd>
            <dt>{t('sandbox.coins')}</dt>
            <dd data-testid="phone-coins">{billing.coins}</dd>
            <dt>{t('sandbox.number')}</dt>
            <dd data-testid="phone-number">{`+49 900 000 0${String(billing.id).padStart(3, '0').slice(-3)}`}</dd>
            <dt>{t('sandbox.pin')}</dt>
            <dd data-testid="phone-pin">{pin}</dd>
            <dt>{t('sandbox.state')}</dt>
            <dd data-testid="phone-state">{t(`sandbox.phoneState.${state}`)}</dd>
          </dl>
          {charged && (
            <p role="status" data-testid="phone-charged">
              {t('sandbox.phoneCharged', { price, count: billing.coins })}
            </p>
          )}
          {(state === 'pending' || state === 'active') && (
            <form method="post" action="/billing/phone" className="sandbox-actions">
              <input type="hidden" name="bid" value={ref} />
              {state === 'pending' && (
                <button className="btn btn-primary" name="action" value="start" data-action="phone-start">
                  {t('sandbox.startCall')}
                </button>
              )}
              <button className={state === 'pending' ? 'btn btn-outline' : 'btn btn-primary'} name="action" value="end" data-action="phone-end">
                {t(state === 'pending' ? 'sandbox.hangUp' : 'sandbox.endCall')}
              </button>
            </form>
          )}
        </SandboxCard>
      </Layout>,
      { title: t('sandbox.phoneTitle'), robots: 'noindex' },
    );
  })
  .post('/billing/phone', async (c) => {
    const form = await postedForm(c);
    const bid = form.bid;
    const { billing } = await billingFromRef(c, bid);
    const action = form.action === 'start' || form.action === 'end' ? form.action : null;
    if (!billing || !billing.is_phonecall || !action) return c.notFound();
    const back = c.redirect(`/billing/phone?bid=${encodeURIComponent(bid ?? '')}`, 303);
    if (action === 'end') {
      await endPhoneCall(c.env.DB, billing);
      return back;
    }
    // The call connects: the phone line charges the price once, with the same signed postback
    // a real line would send; the ledger reference makes a repeated or parallel start credit once.
    if (billing.status !== 'pending') return back;
    // Like a checkout, a phone payment not connected within PENDING_HOLD_S has expired: the line fails it.
    const expired = billing.created_at <= nowSeconds() - PENDING_HOLD_S;
    const line = new SandboxProvider(billingSecret(c.env), true);
    const { body, signature } = await line.signedPostback({ billingId: billing.id, status: expired ? 'failed' : 'paid', eventId: `sbx-${billing.id}-call` });
    const event = await line.verifyCallback(new Request('https://sandbox/postback', { method: 'POST', body, headers: { [SANDBOX_SIGNATURE_HEADER]: signature } }));
    if (event) await applyPaymentEvent(c.env, line.name, event, (p) => c.executionCtx.waitUntil(p));
    return back;
  });
