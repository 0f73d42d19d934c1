import { env, exports } from 'cloudflare:workers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { credit, debit } from '../../src/server/lib/ledger.repo';
import { SANDBOX_SIGNATURE_HEADER, SandboxProvider } from '../../src/server/features/billing/provider';

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
  const row = await env.DB.prepare(
    `INSERT INTO billings (user_id, payment_type_id, product_id, amount_cents, coins, currency, provider, created_at, updated_at)
     VALUES (?, 1, 1, 1000, ?, 'EUR', 'sandbox', 0, 0) RETURNING id`,
  )
    .bind(userId, coins)
    .first<{ id: number }>();
  return row!.id;
}

async function postback(billingId: number, status: 'paid' | 'cancelled' | 'failed', tamper?: (body: string) => string): Promise<Response> {
  const { body, signature } = await sandbox().signedPostback({ billingId, status, eventId: `evt-${billingId}-${status}` });
  return exports.default.fetch(
    new Request('http://localhost/api/billing/callback/sandbox', {
      method: 'POST',
      body: tamper ? tamper(body) : body,
      headers: { [SANDBOX_SIGNATURE_HEADER]: signature, 'Content-Type': 'application/json' },
    }),
  );
}

async function invariants(userIds: number[]) {
  for (const id of userIds) {
    const row = await env.DB.prepare('SELECT u.coins, COALESCE((SELECT SUM(amount) FROM ledger WHERE user_id = u.id), 0) AS sum FROM users u WHERE u.id = ?')
      .bind(id)
      .first<{ coins: number; sum: number }>();
    expect(row!.coins).toBe(row!.sum);
    expect(row!.coins).toBeGreaterThanOrEqual(0);
  }
  const dup = await env.DB.prepare('SELECT ref, COUNT(*) AS n FROM ledger GROUP BY ref HAVING n > 1').all();
  expect(dup.results).toEqual([]);
  // Every paid billing has exactly one ledger row; no other billing has one.
  const mismatch = await env.DB.prepare(
    `SELECT b.id FROM billings b WHERE (b.status = 'paid') <> EXISTS (SELECT 1 FROM ledger l WHERE l.ref = 'payment:sandbox:' || b.id)`,
  ).all();
  expect(mismatch.results).toEqual([]);
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
    await invariants([user]);
  });

  it('holds under thousands of random interleaved credits, debits and replayed postbacks', async () => {
    const users = [await newMember(), await newMember(), await newMember()];
    const op = fc.oneof(
      fc.record({ kind: fc.constant('credit' as const), user: fc.nat(2), amount: fc.integer({ min: 1, max: 50 }), ref: fc.nat(30) }),
      fc.record({ kind: fc.constant('debit' as const), user: fc.nat(2), amount: fc.integer({ min: 1, max: 80 }), ref: fc.nat(30) }),
      fc.record({ kind: fc.constant('postback' as const), billing: fc.nat(5), status: fc.constantFrom('paid' as const, 'paid' as const, 'cancelled' as const, 'failed' as const) }),
    );
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 5, maxLength: 40 }), fc.integer({ min: 1, max: 8 }), async (ops, width) => {
        run++;
        const billings = await Promise.all(Array.from({ length: 6 }, (_, i) => newBilling(users[i % 3], 10 + i)));
        // Run the operations `width` at a time, so their D1 batches interleave.
        for (let i = 0; i < ops.length; i += width) {
          await Promise.all(
            ops.slice(i, i + width).map(async (o) => {
              if (o.kind === 'postback') {
                const res = await postback(billings[o.billing], o.status);
                expect(res.status).toBe(200);
                return;
              }
              const ref = `prop:${run}:${o.kind}:${o.ref}`;
              const fn = o.kind === 'credit' ? credit : debit;
              const r = await fn(env.DB, users[o.user], o.amount, o.kind === 'credit' ? 'adjust' : 'purchase', ref);
              if (!r.ok) expect(['duplicate', 'insufficient_funds']).toContain(r.error);
            }),
          );
        }
        await invariants(users);
      }),
      { numRuns: 120 },
    );
  }, 120_000);

  it('refuses forged or altered postbacks and changes nothing', async () => {
    const user = await newMember();
    const billing = await newBilling(user, 500);
    const altered = await postback(billing, 'paid', (b) => b.replace('"status":"paid"', '"status":"paid" ').replace(String(billing), String(billing)));
    expect(altered.status).toBe(403);
    const bumped = await postback(billing, 'cancelled', (b) => b.replace('cancelled', 'paid'));
    expect(bumped.status).toBe(403);
    const unsigned = await exports.default.fetch(
      new Request('http://localhost/api/billing/callback/sandbox', { method: 'POST', body: JSON.stringify({ billing_id: billing, status: 'paid', event_id: 'x' }) }),
    );
    expect(unsigned.status).toBe(403);
    expect(await unsigned.json()).toEqual({ message: 'invalid_signature' });
    const coins = await env.DB.prepare('SELECT coins FROM users WHERE id = ?').bind(user).first<{ coins: number }>();
    expect(coins!.coins).toBe(0);
    expect((await env.DB.prepare('SELECT status FROM billings WHERE id = ?').bind(billing).first<{ status: string }>())!.status).toBe('pending');

    // The genuine postback credits once, however often it is replayed.
    for (let i = 0; i < 3; i++) expect((await postback(billing, 'paid')).status).toBe(200);
    expect((await env.DB.prepare('SELECT coins FROM users WHERE id = ?').bind(user).first<{ coins: number }>())!.coins).toBe(500);
    await invariants([user]);
  });
});
