import type { Bindings } from '../../env';
import { sign, timingSafeEqual, unsign } from '../../lib/crypto';

export interface BillingForProvider {
  id: number;
  amountCents: number;
  currency: string;
  coins: number;
  productName: string;
}

/** What a provider's signed postback says happened to a billing process. */
export interface PaymentEvent {
  billingId: number;
  /** 'chargeback': the member's bank took a paid payment back (issue 29 point 5). */
  status: 'paid' | 'cancelled' | 'failed' | 'chargeback';
  /** The provider's own id of this event (kept for support). */
  eventId: string;
}

/**
 * A payment provider with a hosted checkout (redirect) and signed server-to-server postbacks,
 * the shape most adult-friendly processors use. Add one by implementing this and registering it
 * in `providerFor` (see docs/ledger.md).
 */
export interface PaymentProvider {
  readonly name: string;
  /** The URL the billing popup is sent to, to pay. */
  checkoutUrl(billing: BillingForProvider, origin: string): Promise<string>;
  /** Verifies a postback request (signature and payload); null when it is not genuine. */
  verifyCallback(request: Request): Promise<PaymentEvent | null>;
}

export function billingSecret(env: Bindings): string {
  const secret = env.BILLING_SECRET ?? env.PASSWORD_PEPPER;
  if (!secret) throw new Error('BILLING_SECRET is not configured');
  return secret;
}

async function hmacHex(secret: string, body: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const sig = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(body));
  return [...new Uint8Array(sig)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export const SANDBOX_SIGNATURE_HEADER = 'X-Sandbox-Signature';

/** The sandbox: a checkout page of our own and HMAC-signed postbacks, like a real processor's. */
export class SandboxProvider implements PaymentProvider {
  /** The payment types' provider name; it is part of the ledger reference of each payment. */
  readonly name: 'sandbox' | 'sandbox-phone';
  /** `phone`: the checkout is the sandbox phone line (voice-call payments). */
  constructor(
    private readonly secret: string,
    private readonly phone = false,
  ) {
    this.name = phone ? 'sandbox-phone' : 'sandbox';
  }

  async checkoutUrl(billing: BillingForProvider): Promise<string> {
    const page = this.phone ? '/billing/phone' : '/billing/sandbox';
    return `${page}?bid=${encodeURIComponent(await sign(this.secret, String(billing.id)))}`;
  }

  /** The body and signature header of a postback, as the sandbox "processor" sends it. */
  async signedPostback(event: PaymentEvent): Promise<{ body: string; signature: string }> {
    const body = JSON.stringify({ billing_id: event.billingId, status: event.status, event_id: event.eventId });
    return { body, signature: await hmacHex(this.secret, body) };
  }

  async verifyCallback(request: Request): Promise<PaymentEvent | null> {
    const body = await request.text();
    if (body.length > 10_000) return null;
    const given = request.headers.get(SANDBOX_SIGNATURE_HEADER) ?? '';
    if (!timingSafeEqual(given, await hmacHex(this.secret, body))) return null;
    try {
      const v = JSON.parse(body) as { billing_id?: unknown; status?: unknown; event_id?: unknown };
      if (!Number.isInteger(v.billing_id) || typeof v.event_id !== 'string') return null;
      if (v.status !== 'paid' && v.status !== 'cancelled' && v.status !== 'failed' && v.status !== 'chargeback') return null;
      return { billingId: v.billing_id as number, status: v.status, eventId: v.event_id };
    } catch {
      return null;
    }
  }

  /** The billing id behind a signed checkout reference, or null if it was tampered with. */
  async billingIdFrom(ref: string | undefined): Promise<number | null> {
    const id = await unsign(this.secret, ref);
    return id && /^\d{1,12}$/.test(id) ? Number(id) : null;
  }
}

/** The provider of a payment type. The sandbox pays out free coins, so production refuses it. */
export function providerFor(env: Bindings, name: string): PaymentProvider | null {
  const sandboxAllowed = env.ENVIRONMENT !== 'production' || env.ALLOW_SANDBOX_PAYMENTS === '1';
  if ((name === 'sandbox' || name === 'sandbox-phone') && sandboxAllowed) return new SandboxProvider(billingSecret(env), name === 'sandbox-phone');
  return null;
}
