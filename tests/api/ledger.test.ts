import { env } from 'cloudflare:workers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyLedger, credit, debit, performerPart, showEarnings, spend } from '../../src/server/lib/ledger.repo';
import { activeCall, applyPaymentEvent, DAILY_LIMIT_CENTS } from '../../src/server/features/billing/billing.service';
import { insertBillingWithinLimit } from '../../src/server/features/billing/billing.repo';
import { endPhoneCall } from '../../src/server/features/billing/phone.repo';
import { SANDBOX_SIGNATURE_HEADER, SandboxProvider } from '../../src/server/features/billing/provider';
import { req } from './helpers';
import { booksHold } from './ledger-books';
import { refundSpend } from '../../src/server/lib/reversals.repo';
import { payoutsWhere, payPayout, requestPayout } from '../../src/server/lib/payouts.repo';

const sandbox = () => new SandboxProvider(env.PASSWORD_PEPPER ?? '');
let seq = 0;

async function newMember(): Promise<number> {
  const n = ++seq;
  const row = await env.DB.prepare('INSERT INTO users (name, email, password_hash, created_at) VALUES (?, ?, ?, 0) RETURNING id')
    .bind(`ledger${n}${Date.now()}`, `ledger${n}.${Date.now()}@test.example`, '!')
    .first<{ id: number }>();
  return row!.id;
}

async function newBilling(userId: number, coins: number): Promise<number> {
  const now = Math.floor(Date.now() / 1000);
  const row = await env.DB.prepare(
    `INSERT INTO billings (user_id, payment_type_id, product_id, amount_cents, coins, currency, provider, created_at, updated_at)
     VALUES (?, 1, 1, 1000, ?, 'EUR', 'sandbox', ?, ?) RETURNING id`,
  )
    .bind(userId, coins, now, now)
    .first<{ id: number }>();
  return row!.id;
}

async function postback(billingId: number, status: 'paid' | 'cancelled' | 'failed', tamper?: (body: string) => string): Promise<Response> {
  const { body, signature } = await sandbox().signedPostback({ billingId, status, eventId: `evt-${billingId}-${status}` });
  return req('/api/billing/callback/sandbox', {
    method: 'POST',
    body: tamper ? tamper(body) : body,
    headers: { [SANDBOX_SIGNATURE_HEADER]: signature, 'Content-Type': 'application/json' },
  });
}


describe('coin ledger', () => {
  it('credits and debits atomically; overdrafts and replays change nothing', async () => {
    const user = await newMember();
    expect(await credit(env.DB, user, 100, 'adjust', `t:${user}:1`)).toEqual({ ok: true, coins: 100 });
    expect(await credit(env.DB, user, 100, 'adjust', `t:${user}:1`)).toEqual({ ok: false, error: 'duplicate', coins: 100 });
    expect(await debit(env.DB, user, 150, 'purchase', `t:${user}:2`)).toEqual({ ok: false, error: 'insufficient_funds', coins: 100 });
    expect(await debit(env.DB, user, 60, 'purchase', `t:${user}:3`)).toEqual({ ok: true, coins: 40 });
    // The refused debit did not burn its reference.
    expect(await debit(env.DB, user, 40, 'purchase', `t:${user}:2`)).toEqual({ ok: true, coins: 0 });
    await booksHold();
  });

  it('the seeded demo balance is opened from promotions; rows cannot be changed or removed', async () => {
    const demo = await env.DB.prepare("SELECT id, coins FROM users WHERE name = 'demo'").first<{ id: number; coins: number }>();
    const opening = await env.DB.prepare('SELECT amount, reason, counter FROM ledger WHERE ref = ?').bind(`opening:${demo!.id}`).first();
    expect(opening).toEqual({ amount: demo!.coins, reason: 'adjust', counter: 'promotions' });
    await expect(env.DB.prepare('UPDATE ledger SET amount = amount + 1').run()).rejects.toThrow(/append-only/);
    await expect(env.DB.prepare('DELETE FROM ledger').run()).rejects.toThrow(/append-only/);
    await booksHold();
  });

  it('spending pays the performer their share and the house the rest, once per reference', async () => {
    const user = await newMember();
    const showId = 3;
    const before = await showEarnings(env.DB, showId, 0);
    await credit(env.DB, user, 100, 'payment', `t:${user}:pay`);
    expect(await spend(env.DB, { userId: user, showId, amount: 25, reason: 'chat', ref: `chat:t${user}:1` })).toEqual({ ok: true, coins: 75 });
    // A replayed minute (a repeated alarm) charges nothing.
    expect(await spend(env.DB, { userId: user, showId, amount: 25, reason: 'chat', ref: `chat:t${user}:1` })).toEqual({ ok: false, error: 'duplicate', coins: 75 });
    // More than the balance: refused whole, neither side moves.
    expect(await spend(env.DB, { userId: user, showId, amount: 80, reason: 'tip', ref: `tip:t${user}:1` })).toEqual({ ok: false, error: 'insufficient_funds', coins: 75 });
    const rows = await env.DB.prepare('SELECT amount, counter, ref FROM ledger WHERE user_id = ? AND reason = ? ORDER BY id').bind(user, 'chat').all();
    expect(rows.results).toEqual([
      { amount: -performerPart(25), counter: `performer:${showId}`, ref: `chat:t${user}:1` },
      { amount: -(25 - performerPart(25)), counter: 'house', ref: `chat:t${user}:1:house` },
    ]);
    expect(performerPart(25)).toBe(15);
    const after = await showEarnings(env.DB, showId, 0);
    expect(after.total - before.total).toBe(15);
    expect(after.entries[0]).toMatchObject({ ref: `chat:t${user}:1`, reason: 'chat', amount: 15 });
    await booksHold();
  });

  it('a minute paid by a phone call comes from payments: the member keeps their coins, the performer earns their share', async () => {
    const user = await newMember();
    const showId = 3;
    await credit(env.DB, user, 10, 'payment', `pay:c${user}`);
    const before = await showEarnings(env.DB, showId, 0);
    // More than the member's own coins: the call pays, so nothing is refused and the balance stays.
    expect(await spend(env.DB, { userId: user, showId, amount: 25, reason: 'chat', ref: `chat:c${user}:1`, from: 'payments' })).toEqual({ ok: true, coins: 10 });
    expect(await spend(env.DB, { userId: user, showId, amount: 25, reason: 'chat', ref: `chat:c${user}:1`, from: 'payments' })).toMatchObject({ ok: false, error: 'duplicate', coins: 10 });
    const rows = await env.DB.prepare('SELECT amount, counter, ref FROM ledger WHERE user_id = ? AND reason = ? ORDER BY id').bind(user, 'chat').all();
    expect(rows.results).toEqual([
      { amount: 25, counter: 'payments', ref: `chat:c${user}:1:paid` },
      { amount: -performerPart(25), counter: `performer:${showId}`, ref: `chat:c${user}:1` },
      { amount: -(25 - performerPart(25)), counter: 'house', ref: `chat:c${user}:1:house` },
    ]);
    expect((await showEarnings(env.DB, showId, 0)).total - before.total).toBe(performerPart(25));
    await booksHold();
  });

  it('refuses forged or altered postbacks and changes nothing', async () => {
    const user = await newMember();
    const billing = await newBilling(user, 500);
    const altered = await postback(billing, 'paid', (b) => b.replace('"status":"paid"', '"status":"paid" ').replace(String(billing), String(billing)));
    expect(altered.status).toBe(403);
    const bumped = await postback(billing, 'cancelled', (b) => b.replace('cancelled', 'paid'));
    expect(bumped.status).toBe(403);
    const unsigned = await req('/api/billing/callback/sandbox', { method: 'POST', body: JSON.stringify({ billing_id: billing, status: 'paid', event_id: 'x' }) });
    expect(unsigned.status).toBe(403);
    expect(await unsigned.json()).toEqual({ message: 'invalid_signature' });
    const coins = await env.DB.prepare('SELECT coins FROM users WHERE id = ?').bind(user).first<{ coins: number }>();
    expect(coins!.coins).toBe(0);
    expect((await env.DB.prepare('SELECT status FROM billings WHERE id = ?').bind(billing).first<{ status: string }>())!.status).toBe('pending');

    // The genuine postback credits once, however often it is replayed.
    for (let i = 0; i < 3; i++) expect((await postback(billing, 'paid')).status).toBe(200);
    expect((await env.DB.prepare('SELECT coins FROM users WHERE id = ?').bind(user).first<{ coins: number }>())!.coins).toBe(500);
    await booksHold();
  }, 30_000);

  it('holds the books for 10,000+ random interleaved payments, minutes (coins or voice call), tips, purchases, refunds, chargebacks, payouts and replays', async () => {
    const users = [await newMember(), await newMember(), await newMember()];
    const shows = [1, 2];
    // One browser that members log in to and out of; its phone payments are bound to whoever opened them.
    const browser = `ledger-browser-${Date.now()}`;
    await env.DB.prepare('INSERT INTO sessions (id, created_at, seen_at) VALUES (?, 0, 0)').bind(browser).run();
    let loggedIn: number | null = null;
    /** Card packages near the daily limit, and the phone package. */
    const products = [
      { id: 4, cents: 8500, coins: 1000 },
      { id: 3, cents: 4500, coins: 500 },
      { id: 2, cents: 2300, coins: 250 },
    ];
    const op = fc.oneof(
      // A postback for a billing of this run (late, replayed, out of order: small index ranges).
      { weight: 3, arbitrary: fc.record({ kind: fc.constant('postback' as const), billing: fc.nat(9), status: fc.constantFrom('paid' as const, 'paid' as const, 'cancelled' as const, 'failed' as const) }) },
      // Starts a checkout (or, by the member logged in in the browser, a phone payment) through the limit's reservation.
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('start' as const), user: fc.nat(2), product: fc.nat(2), phone: fc.boolean() }) },
      // Time passes for a member: every billing of theirs moves back, so pending ones expire and the 24 hours roll on.
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('time' as const), user: fc.nat(2), minutes: fc.constantFrom(31, 31, 60 * 6, 60 * 23, 60 * 25) }) },
      // Another member logs in in the browser (or everyone logs out), and whoever is there chats on "their" call or hangs it up.
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('login' as const), user: fc.integer({ min: -1, max: 2 }) }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('callMinute' as const), show: fc.nat(1), amount: fc.integer({ min: 1, max: 60 }), ref: fc.nat(20) }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('hangUp' as const), billing: fc.nat(9) }) },
      // byCall: a voice-call minute, paid from the phone line's money instead of the member's coins
      { weight: 4, arbitrary: fc.record({ kind: fc.constantFrom('chat' as const, 'tip' as const, 'purchase' as const), user: fc.nat(2), show: fc.nat(1), amount: fc.integer({ min: 1, max: 60 }), ref: fc.nat(20), byCall: fc.boolean() }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constantFrom('coupon' as const, 'refund' as const), user: fc.nat(2), amount: fc.integer({ min: 1, max: 40 }), ref: fc.nat(10) }) },
      // Issue 29: a provider's chargeback of a billing (replayed, at once, of unpaid ones), an
      // operator's refund of an earlier payment to a show, a performer's payout requested and paid.
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('chargeback' as const), billing: fc.nat(9) }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('refundSpend' as const), user: fc.nat(2), spent: fc.constantFrom('chat' as const, 'tip' as const, 'purchase' as const), ref: fc.nat(20) }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('payout' as const), show: fc.nat(1), amount: fc.integer({ min: 1, max: 150 }), pay: fc.boolean() }) },
    );
    let run = 0;
    let operations = 0;
    /** What the runs did of issue 29's moves (a property that never made them would prove nothing). */
    const seen = { charged_back: 0, owed: 0, refunded: 0, paid: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 100, maxLength: 120 }), fc.integer({ min: 1, max: 16 }), async (ops, width) => {
        run++;
        operations += ops.length;
        const billings: { id: number; provider: string; userId: number }[] = [];
        /** Billings seen failed, cancelled or expired: none of them may ever be credited. */
        const ended = new Set<number>();
        // Run the operations `width` at a time, so their D1 batches interleave; small reference
        // ranges make many of them replays of an earlier one.
        for (let i = 0; i < ops.length; i += width) {
          await Promise.all(
            ops.slice(i, i + width).map(async (o) => {
              const now = Math.floor(Date.now() / 1000);
              if (o.kind === 'chargeback') {
                const b = billings[o.billing % Math.max(1, billings.length)];
                if (!b) return;
                const done = await applyPaymentEvent(env, b.provider, { billingId: b.id, status: 'chargeback', eventId: `cb-${b.id}` }, () => undefined);
                expect(['charged_back', 'duplicate', 'not_paid']).toContain(done.status);
                if (done.status === 'charged_back') seen.charged_back++;
                return;
              }
              if (o.kind === 'refundSpend') {
                const r = await refundSpend(env.DB, { userId: users[o.user], ref: `prop:${run}:${o.spent}:${o.ref}` }, now);
                if (!r.ok) expect(['duplicate', 'nothing']).toContain(r.error);
                else seen.refunded++;
                return;
              }
              if (o.kind === 'payout') {
                const asked = await requestPayout(env.DB, shows[o.show], users[0], o.amount, now);
                if (!asked.ok || !o.pay) return;
                const [row] = await payoutsWhere(env.DB, { state: 'requested', showId: shows[o.show] });
                const result = row ? await payPayout(env.DB, row, 1, users[0], now) : null;
                if (result) expect(['paid', 'over_payable', 'not_requested']).toContain(result);
                if (result === 'paid') seen.paid++;
                return;
              }
              if (o.kind === 'postback' || o.kind === 'hangUp') {
                const b = billings[o.billing % Math.max(1, billings.length)];
                if (!b) return;
                if (o.kind === 'hangUp') return endPhoneCall(env.DB, { id: b.id, session_id: browser }, now);
                // A verified postback (the signature check has its own test below), replayed often.
                const done = await applyPaymentEvent(env, b.provider, { billingId: b.id, status: o.status, eventId: `evt-${b.id}-${o.status}` }, () => undefined);
                expect(['paid', 'cancelled', 'failed', 'duplicate', 'refund_due']).toContain(done.status);
                const status = (await env.DB.prepare('SELECT status FROM billings WHERE id = ?').bind(b.id).first<{ status: string }>())!.status;
                if (status === 'cancelled' || status === 'failed') ended.add(b.id);
                return;
              }
              if (o.kind === 'start') {
                const p = o.phone ? { id: 8, cents: 1990, coins: 200 } : products[o.product];
                const userId = o.phone ? loggedIn : users[o.user];
                if (userId === null) return;
                const row = await insertBillingWithinLimit(
                  env.DB,
                  { userId, sessionId: o.phone ? browser : `card-${run}`, paymentTypeId: o.phone ? 3 : 1, productId: p.id, amountCents: p.cents, coins: p.coins, voucherCoins: 0, welcomeCoins: 0, currency: 'EUR', provider: o.phone ? 'sandbox-phone' : 'sandbox', phone: o.phone, couponCode: null, now },
                  DAILY_LIMIT_CENTS,
                );
                if (row) billings.push({ id: row.id, provider: row.provider, userId });
                return;
              }
              if (o.kind === 'time') {
                const s = o.minutes * 60;
                await env.DB.prepare('UPDATE billings SET created_at = created_at - ?2, updated_at = updated_at - ?2, paid_at = paid_at - ?2 WHERE user_id = ?1').bind(users[o.user], s).run();
                // Whatever was still open now has expired.
                const open = await env.DB.prepare("SELECT id FROM billings WHERE user_id = ? AND status = 'pending' AND created_at <= ?").bind(users[o.user], now - 1800).all<{ id: number }>();
                for (const r of open.results) ended.add(r.id);
                return;
              }
              if (o.kind === 'login') {
                loggedIn = o.user < 0 ? null : users[o.user];
                await env.DB.batch([
                  env.DB.prepare('DELETE FROM auth_tokens WHERE session_id = ?').bind(browser),
                  ...(loggedIn === null ? [] : [env.DB.prepare('INSERT INTO auth_tokens (token_hash, user_id, session_id, created_at, expires_at) VALUES (?, ?, ?, 0, 0)').bind(crypto.randomUUID(), loggedIn, browser)]),
                ]);
                return;
              }
              if (o.kind === 'callMinute') {
                // Whoever is logged in chats; only a call they opened themselves may pay for it.
                const member = loggedIn;
                if (member === null) return;
                const call = await activeCall(env.DB, browser, member);
                if (call === null) return;
                const owner = await env.DB.prepare('SELECT user_id FROM billings WHERE id = ?').bind(call).first<{ user_id: number }>();
                expect(owner?.user_id).toBe(member);
                const r = await spend(env.DB, { userId: member, showId: shows[o.show], amount: o.amount, reason: 'chat', ref: `prop:${run}:call:${o.ref}`, from: 'payments' });
                if (!r.ok) expect(r.error).toBe('duplicate');
                return;
              }
              const ref = `prop:${run}:${o.kind}:${o.ref}`;
              const r =
                'show' in o
                  ? await spend(env.DB, { userId: users[o.user], showId: shows[o.show], amount: o.amount, reason: o.kind, ref, from: o.kind === 'chat' && o.byCall ? 'payments' : undefined })
                  : o.kind === 'coupon'
                    ? await credit(env.DB, users[o.user], o.amount, 'coupon', ref)
                    : await applyLedger(env.DB, { userId: users[o.user], amount: o.amount, reason: 'adjust', ref, counter: 'house' });
              if (!r.ok) expect(['duplicate', 'insufficient_funds']).toContain(r.error);
            }),
          );
        }
        // A billing seen ended was never paid later, whatever came after.
        if (ended.size) {
          const credited = await env.DB.prepare("SELECT id FROM billings WHERE id IN (SELECT value FROM json_each(?)) AND status = 'paid'").bind(JSON.stringify([...ended])).all();
          expect(credited.results).toEqual([]);
        }
        await booksHold();
        // A member who owes after a chargeback is locked: no payment to a show goes through.
        for (const u of users) {
          const owes = (await env.DB.prepare('SELECT balance FROM ledger_accounts WHERE account = ?').bind(`owed:${u}`).first<{ balance: number }>())?.balance ?? 0;
          expect(owes).toBeLessThanOrEqual(0);
          if (owes < 0) expect(await spend(env.DB, { userId: u, showId: shows[0], amount: 1, reason: 'tip', ref: `prop:${run}:locked:${u}` })).toMatchObject({ ok: false, error: 'insufficient_funds' });
        }
        // Payouts close their requests (one batch id for the whole test is fine: the rows keep their references).
        await env.DB.prepare("UPDATE payouts SET state = 'rejected' WHERE state = 'requested'").run();
      }),
      {
        numRuns: 100,
        // Besides the random runs, one that surely ends owing: a paid card package, a chat minute
        // spent from it, then its chargeback (a CI run's 100 random runs once made no debt at all).
        examples: [
          [
            [
              { kind: 'start', user: 0, product: 0, phone: false },
              { kind: 'postback', billing: 0, status: 'paid' },
              { kind: 'chat', user: 0, show: 0, amount: 60, ref: 0, byCall: false },
              { kind: 'chargeback', billing: 0 },
            ],
            1,
          ],
        ],
      },
    );
    expect(operations).toBeGreaterThanOrEqual(10_000);
    // A debt may be settled by a later payment within its run: counted by the rows that made one.
    seen.owed = (await env.DB.prepare("SELECT COUNT(*) AS n FROM ledger WHERE ref LIKE 'chargeback:%:owed'").first<{ n: number }>())!.n;
    for (const [what, n] of Object.entries(seen)) expect(n, what).toBeGreaterThan(0);
  }, 300_000);
});
