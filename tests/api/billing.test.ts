import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { registerMember } from './account-helpers';
import { csrf, OPS, req } from './helpers';

/** A fresh member (see registerMember) as headers for plain requests: its cookies and CSRF token. */
async function member(): Promise<{ id: number; headers: Record<string, string>; cookie: string }> {
  const m = await registerMember();
  const cookie = m.client.cookieHeader;
  return { id: m.id, cookie, headers: { Cookie: cookie, 'X-XSRF-TOKEN': m.client.cookie('XSRF-TOKEN') ?? '', 'Content-Type': 'application/json' } };
}

const coins = async (id: number) => (await env.DB.prepare('SELECT coins FROM users WHERE id = ?').bind(id).first<{ coins: number }>())!.coins;

describe('billing API', () => {
  it('needs a login and lists payment types with products and a default', async () => {
    expect((await req('/api/billing')).status).toBe(401);
    const m = await member();
    const res = await req('/api/billing', { headers: m.headers });
    const body = (await res.json()) as {
      paymentTypes: { id: number; isPhoneCall: boolean; products: { isDefault: boolean; coins: number; amount: number }[] }[];
      limit: { daily: number };
    };
    expect(body.paymentTypes.map((t) => t.id)).toEqual([1, 2, 3]);
    expect(body.paymentTypes[0].products.filter((p) => p.isDefault)).toHaveLength(1);
    expect(body.paymentTypes[2].isPhoneCall).toBe(true);
    expect(body.limit.daily).toBe(500);
  });

  it('billing/init needs paymenttypeid and productid (422) and the CSRF header (419)', async () => {
    const m = await member();
    const cases: [object, Record<string, string[]>][] = [
      [{}, { paymenttypeid: ['required'], productid: ['required'] }],
      [{ paymenttypeid: 1 }, { productid: ['required'] }],
      [{ productid: 2 }, { paymenttypeid: ['required'] }],
      [{ paymenttypeid: 'x', productid: 2 }, { paymenttypeid: ['required'] }],
    ];
    for (const [body, errors] of cases) {
      const res = await req('/api/billing/init', { method: 'POST', headers: m.headers, body: JSON.stringify(body) });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(await res.json(), JSON.stringify(body)).toEqual({ message: 'validation_failed', errors });
    }
    expect((await req('/api/billing/init', { method: 'POST', headers: m.headers, body: JSON.stringify({ paymenttypeid: 1, productid: 8 }) })).status).toBe(422);
    const noCsrf = await req('/api/billing/init', { method: 'POST', headers: { Cookie: m.cookie, 'Content-Type': 'application/json' }, body: '{"paymenttypeid":1,"productid":2}' });
    expect(noCsrf.status).toBe(419);
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM billings WHERE user_id = ?').bind(m.id).first<{ n: number }>()).toEqual({ n: 0 });
  });

  it('pays in the sandbox exactly once and returns the popup to /billing/back', async () => {
    const m = await member();
    const init = (await (await req('/api/billing/init', { method: 'POST', headers: m.headers, body: '{"paymenttypeid":1,"productid":2}' })).json()) as { link: string; id: number };
    expect(init.link).toMatch(/^\/billing\/sandbox\?bid=/);
    const page = await req(init.link, { headers: { Cookie: m.cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`BS${init.id}`);
    const bid = decodeURIComponent(new URL(init.link, 'http://x').searchParams.get('bid')!);
    const pay = () => req('/billing/sandbox', { method: 'POST', body: new URLSearchParams({ bid, action: 'pay' }), redirect: 'manual' });
    const first = await pay();
    expect(first.status).toBe(303);
    expect(first.headers.get('Location')).toBe(`/billing/back?result=billing.success&billingid=${init.id}`);
    // A new member's first purchase: the package's 250 coins and the welcome offer's +20%.
    expect(await coins(m.id)).toBe(300);
    await pay(); // a double click or a replayed postback
    expect(await coins(m.id)).toBe(300);
    const tampered = await req('/billing/sandbox', { method: 'POST', body: new URLSearchParams({ bid: `${init.id}.forged`, action: 'pay' }), redirect: 'manual' });
    expect(tampered.status).toBe(404);
  });

  it('cancel and fail end the process without coins', async () => {
    const m = await member();
    for (const [action, result] of [['cancel', 'billing.cancel'], ['fail', 'billing.error']]) {
      const init = (await (await req('/api/billing/init', { method: 'POST', headers: m.headers, body: '{"paymenttypeid":2,"productid":5}' })).json()) as { link: string; id: number };
      const bid = decodeURIComponent(new URL(init.link, 'http://x').searchParams.get('bid')!);
      const res = await req('/billing/sandbox', { method: 'POST', body: new URLSearchParams({ bid, action }), redirect: 'manual' });
      expect(res.headers.get('Location')).toBe(`/billing/back?result=${result}&billingid=${init.id}`);
    }
    expect(await coins(m.id)).toBe(0);
  });

  it('a percent voucher adds bonus coins to one purchase and is used up by it', async () => {
    const m = await member();
    const redeem = await req('/api/coupons/redeem', { method: 'POST', headers: m.headers, body: '{"code":"HALFPRICE"}' });
    expect(redeem.status).toBe(200);
    const preview = (await (await req('/api/billing', { headers: m.headers })).json()) as { campaign: { percent: number } };
    expect(preview.campaign.percent).toBe(50);
    const init = (await (await req('/api/billing/init', { method: 'POST', headers: m.headers, body: '{"paymenttypeid":1,"productid":2}' })).json()) as { coins: number; link: string };
    // 250 + 50% voucher + 20% welcome offer (a new member's first purchase).
    expect(init.coins).toBe(425);
    const bid = decodeURIComponent(new URL(init.link, 'http://x').searchParams.get('bid')!);
    await req('/billing/sandbox', { method: 'POST', body: new URLSearchParams({ bid, action: 'pay' }), redirect: 'manual' });
    expect(await coins(m.id)).toBe(425);
    const after = (await (await req('/api/billing', { headers: m.headers })).json()) as { campaign: unknown };
    expect(after.campaign).toBeNull();
  });

  it('a coin voucher given at sign-up pays out at once', async () => {
    const res = await req('/api/register', {
      method: 'POST',
      headers: { ...(await csrf()).headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: `voucher.${crypto.randomUUID()}@test.example`, password: 'long-enough-pw', code: 'WELCOME50', terms_check: true }),
    });
    expect(res.status).toBe(201);
    const id = ((await res.json()) as { user: { id: number } }).user.id;
    expect(await coins(id)).toBe(50);
  });

  it('voice call: pending -> active (voicecall on the session) -> ended', async () => {
    const m = await member();
    const init = (await (await req('/api/billing/init_phonecall', { method: 'POST', headers: m.headers, body: '{"paymenttypeid":3,"productid":8}' })).json()) as { link: string; id: number };
    expect(init.link).toMatch(/^\/billing\/phone\?bid=/);
    const check = async () => (await (await req('/api/billing/check_phonecall', { headers: m.headers })).json()) as { status: string; voicecall: boolean; session: { phonecall_payment_name: string | null } };
    const pending = await check();
    expect(pending.status).toBe('pending');
    expect(pending.session.phonecall_payment_name).toBe('Pay by phone');
    const bid = decodeURIComponent(new URL(init.link, 'http://x').searchParams.get('bid')!);
    await req('/billing/phone', { method: 'POST', body: new URLSearchParams({ bid, action: 'start' }), redirect: 'manual' });
    const active = await check();
    expect(active).toMatchObject({ status: 'active', voicecall: true });
    expect((await req('/users/profile', { headers: { Cookie: m.cookie }, redirect: 'manual' })).headers.get('Location')).toBe('/');
    await req('/billing/phone', { method: 'POST', body: new URLSearchParams({ bid, action: 'end' }), redirect: 'manual' });
    expect(await check()).toMatchObject({ status: 'ended', voicecall: false });
  });
});

describe('coupons', () => {
  it('redeems coin vouchers once, records others, refuses invalid, expired and sign-up-only ones', async () => {
    const m = await member();
    const redeem = (code: string) => req('/api/coupons/redeem', { method: 'POST', headers: m.headers, body: JSON.stringify({ code }) });
    const ok = await redeem('loyal25');
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { user: { coins: number } }).user.coins).toBe(25);
    expect((await redeem('LOYAL25')).status).toBe(409);
    // WELCOME50 pays out only with a new account.
    const signupOnly = await redeem('WELCOME50');
    expect(signupOnly.status).toBe(422);
    expect(await signupOnly.json()).toMatchObject({ message: 'coupon_signup_only', errors: { code: ['coupon_signup_only'] } });
    expect((await redeem('BONUS10')).status).toBe(200); // 10 EUR = 100 coins at 0.1
    expect(await coins(m.id)).toBe(125);
    expect((await redeem('FREEVIDEO')).status).toBe(200);
    expect((await redeem('EXPIRED1')).status).toBe(422);
    expect((await redeem('NOPE-NOPE')).status).toBe(422);
    expect((await redeem('ab')).status).toBe(422);
    const list = (await (await req('/api/coupons', { headers: m.headers })).json()) as { data: { code: string; text: string; prize: boolean; days_left: number | null }[] };
    const byCode = Object.fromEntries(list.data.map((c) => [c.code, c]));
    expect(byCode.LOYAL25.text).toBe('25 Coins');
    expect(byCode.WELCOME50).toBeUndefined();
    expect(byCode.BONUS10.text).toBe('10 EUR');
    expect(byCode.FREEVIDEO.prize).toBe(true);
    expect(byCode.FREEVIDEO.days_left).toBeNull(); // years left: not shown
    const ledger = await env.DB.prepare('SELECT COALESCE(SUM(amount), 0) AS s FROM ledger WHERE user_id = ?').bind(m.id).first<{ s: number }>();
    expect(ledger!.s).toBe(125);
  });

  it("ruf/stream answers 'ok' for a valid code", async () => {
    const headers = { ...(await csrf()).headers, 'Content-Type': 'application/json' };
    const ok = await req('/api/ruf/stream', { method: 'POST', headers, body: '{"code":"BONUS10"}' });
    expect(await ok.text()).toBe('ok');
    expect((await req('/api/ruf/stream', { method: 'POST', headers, body: '{"code":"EXPIRED1"}' })).status).toBe(422);
  });
});

describe('operator coin adjustments', () => {
  it('go through the ledger: duplicates 409, overdrafts 422, token required', async () => {
    const m = await member();
    const adjust = (amount: number, ref: string, headers = OPS) => req(`/api/ops/users/${m.id}/coins`, { method: 'POST', headers, body: JSON.stringify({ amount, ref }) });
    expect((await adjust(10, 'r1', { 'Content-Type': 'application/json' } as typeof OPS)).status).toBe(401);
    expect(await (await adjust(10, 'r1')).json()).toEqual({ coins: 10 });
    expect((await adjust(10, 'r1')).status).toBe(409);
    expect((await adjust(-11, 'r2')).status).toBe(422);
    expect((await adjust(-10, 'r2')).status).toBe(200);
    expect((await adjust(0, 'r3')).status).toBe(422);
    expect(await coins(m.id)).toBe(0);
  });
});
