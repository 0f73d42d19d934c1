import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import { DAILY_LIMIT_CENTS } from '../../src/server/features/billing/billing.service';

/**
 * The whole system's books: every member balance equals its ledger rows and is not negative,
 * every counter account equals the negated sum of its rows (earnings never negative), all
 * accounts together sum to zero, each reference is applied once, every paid billing has
 * exactly one payment row, none was paid after it closed, and no member paid more than the daily
 * limit in any 24 hours.
 */
export async function booksHold(): Promise<void> {
  const rows = (sql: string) => env.DB.prepare(sql).all().then((r) => r.results);
  // Members whose balance is not the sum of their rows, or negative.
  expect(
    await rows(`SELECT u.id, u.coins, s.total FROM users u LEFT JOIN (SELECT user_id, SUM(amount) AS total FROM ledger GROUP BY user_id) s ON s.user_id = u.id
                WHERE u.coins <> COALESCE(s.total, 0) OR u.coins < 0`),
  ).toEqual([]);
  // Counter accounts whose balance is not the negated sum of their rows; negative earnings; rows without an account.
  expect(
    await rows(`SELECT a.account, a.balance, s.total FROM ledger_accounts a LEFT JOIN (SELECT counter, -SUM(amount) AS total FROM ledger GROUP BY counter) s ON s.counter = a.account
                WHERE a.balance <> COALESCE(s.total, 0) OR (a.account GLOB 'performer:*' AND a.balance < 0)`),
  ).toEqual([]);
  expect(await rows('SELECT DISTINCT counter FROM ledger WHERE counter NOT IN (SELECT account FROM ledger_accounts)')).toEqual([]);
  // All accounts together: zero.
  expect(await rows('SELECT (SELECT COALESCE(SUM(coins), 0) FROM users) + (SELECT COALESCE(SUM(balance), 0) FROM ledger_accounts) AS total')).toEqual([{ total: 0 }]);
  expect(await rows('SELECT ref FROM ledger GROUP BY ref HAVING COUNT(*) > 1')).toEqual([]);
  // Every paid billing has exactly one payment row; no other billing (failed, cancelled, expired) has one.
  expect(await rows(`SELECT b.id FROM billings b WHERE (b.status = 'paid') <> EXISTS (SELECT 1 FROM ledger l WHERE l.ref = 'payment:' || b.provider || ':' || b.id)`)).toEqual([]);
  // A billing was paid only while it was open; a payment it could not take is a refund, never a credit.
  expect(await rows(`SELECT id FROM billings WHERE status = 'paid' AND paid_at IS NOT NULL AND paid_at > created_at + 1800`)).toEqual([]);
  expect(await rows(`SELECT l.billing_id FROM late_payments l JOIN billings b ON b.id = l.billing_id WHERE b.status = 'paid'`)).toEqual([]);
  // No member paid more than the limit in any 24 hours (the windows that end at a payment are the fullest).
  expect(
    await rows(`SELECT p.id FROM billings p WHERE p.status = 'paid' AND p.user_id IS NOT NULL AND (
                  SELECT SUM(q.amount_cents) FROM billings q WHERE q.user_id = p.user_id AND q.status = 'paid'
                  AND COALESCE(q.paid_at, q.created_at) > COALESCE(p.paid_at, p.created_at) - 86400 AND COALESCE(q.paid_at, q.created_at) <= COALESCE(p.paid_at, p.created_at)) > ${DAILY_LIMIT_CENTS}`),
  ).toEqual([]);
}
