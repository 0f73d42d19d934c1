import { Hono, type Context } from 'hono';
import type { ReactNode } from 'react';
import type { BillingList } from '../../../shared/billing';
import { Layout } from '../../../client/shell/layout';
import { BackPage } from '../../../client/features/billing/back-page';
import { BillingPage } from '../../../client/features/billing/billing-page';
import { FreeCoinsPage } from '../../../client/features/billing/free-coins-page';
import { TransferPage } from '../../../client/features/billing/transfer-page';
import { BILLING_RESULTS, type BillingResult } from '../../../client/features/billing/billing-popup';
import type { AppEnv } from '../../env';
import { renderPage } from '../../render/render-page';
import { catalog } from './billing.service';
import { findPaymentType } from './catalog.repo';
import { findBillingStatus } from './billing.repo';
import { findLatePayment } from './late-payments.repo';
import { idParam } from '../../lib/params';

// The billing pages: the picker, the popup's transfer and back
// pages, and the free-coins page. The API (billing.routes.ts) does the work; these render frames.

export const billingPages = new Hono<AppEnv>();

const CODE = /^[A-Za-z0-9_-]{1,64}$/;
const cleanCode = (v: string | undefined | null): string | null => {
  const code = (v ?? '').trim();
  return CODE.test(code) ? code : null;
};
const positiveId = (v: string | undefined): number | null => {
  const id = idParam.parse(v);
  return id !== null && id > 0 ? id : null;
};

function page(c: Context<AppEnv>, title: string, body: ReactNode, opts: { basic?: boolean; crumbs?: boolean } = {}): Response {
  const t = c.get('t');
  return renderPage(
    c,
    opts.basic ? <Layout variant="basic">{body}</Layout> : <Layout breadcrumbs={opts.crumbs === false ? null : [{ label: title }]}>{body}</Layout>,
    { title: `${title} – ${t('common.brand')}`, robots: 'noindex' },
  );
}

/** Visitors may pay by phone only; their picker gets the phone products from here (the list API is for members). */
async function phoneList(db: D1Database): Promise<BillingList> {
  // Only phone types that have packages (as the picker lists them).
  return { paymentTypes: (await catalog(db, true)).filter((t) => t.products.length > 0), campaign: null, limit: null };
}

async function billingPage(c: Context<AppEnv>) {
  const user = c.get('user');
  const url = new URL(c.req.url);
  const voicecall = url.searchParams.get('voicecall') === '1';
  // A voice call in progress has no business here (the route guards send it home first).
  if (c.get('session').voicecall) return c.redirect('/', 302);
  if (!user && !voicecall) return c.redirect(`/login?redirect=${encodeURIComponent(url.pathname + url.search)}`, 302);
  if (user && !user.is_verified) return c.redirect('/verify', 302);
  const code = cleanCode(c.req.param('code'));
  const initial = user ? null : await phoneList(c.env.DB);
  const t = c.get('t');
  return page(c, t(voicecall ? 'billing.voicecallTitle' : 'billing.title'), <BillingPage code={code} voicecall={voicecall} initial={initial} />);
}

billingPages.get('/billing', billingPage);
billingPages.get('/bill', billingPage);
billingPages.get('/billing/f/:code?', billingPage);

billingPages.get('/billing/transfer', async (c) => {
  const t = c.get('t');
  const paymentTypeId = positiveId(c.req.query('paymenttypeid'));
  const productId = positiveId(c.req.query('productid'));
  const type = paymentTypeId
    ? await findPaymentType(c.env.DB, paymentTypeId)
    : null;
  const translated = type ? t(`billing.paymentTypes.${type.id}`) : '';
  const name = type ? (translated && translated !== `billing.paymentTypes.${type.id}` ? translated : type.name) : (c.req.query('paymenttypename') ?? '').slice(0, 80);
  return page(
    c,
    t('billing.transfer.title'),
    <TransferPage
      paymentTypeId={paymentTypeId}
      productId={productId}
      paymentTypeName={name}
      code={cleanCode(c.req.query('code'))}
      isPhoneCall={type?.is_phonecall === 1}
    />,
    { basic: true },
  );
});

/**
 * What the member's own billing really ended as, whatever the provider's return URL says: a
 * payment that came too late for it (refunded, never credited) is no success. null while it is
 * still open (its postback may come after the member), or when it is not theirs.
 */
async function endedAs(c: Context<AppEnv>, billingId: number | null): Promise<{ result: BillingResult; refund: boolean } | null> {
  const user = c.get('user');
  if (!user || billingId === null) return null;
  const [billing, late] = await Promise.all([findBillingStatus(c.env.DB, billingId, user.id), findLatePayment(c.env.DB, billingId)]);
  if (!billing || billing.status === 'pending') return null;
  if (billing.status === 'paid') return { result: 'billing.success', refund: false };
  return { result: billing.status === 'cancelled' && !late ? 'billing.cancel' : 'billing.error', refund: late !== null };
}

billingPages.get('/billing/back', async (c) => {
  const t = c.get('t');
  const raw = c.req.query('result') ?? '';
  const billingId = positiveId(c.req.query('billingid'));
  const stated: BillingResult = (BILLING_RESULTS as readonly string[]).includes(raw) ? (raw as BillingResult) : 'billing.error';
  const { result, refund } = (await endedAs(c, billingId)) ?? { result: stated, refund: false };
  const key = refund ? 'refund' : result === 'billing.success' ? 'success' : result === 'billing.cancel' ? 'cancel' : 'error';
  return page(c, t(`billing.back.${key}.title`), <BackPage result={result} refund={refund} billingId={billingId} />, { basic: true });
});

billingPages.get('/users/free_coins', (c) => page(c, c.get('t')('freeCoins.title'), <FreeCoinsPage />));
