import type { AuditEntry } from '../../../shared/operator';

// The operators' rows: their authenticators (operator_totp), the second factor of a login
// (auth_tokens.second_factor_at) and the append-only audit trail (migration 0027).

export interface TotpRow {
  sealed_secret: string;
  confirmed_at: number | null;
  last_step: number;
}

export function totpRow(db: D1Database, userId: number): Promise<TotpRow | null> {
  return db.prepare('SELECT sealed_secret, confirmed_at, last_step FROM operator_totp WHERE user_id = ?').bind(userId).first<TotpRow>();
}

/** A new secret, unless one is confirmed already (then nothing changes): true when written. */
export async function putPendingTotp(db: D1Database, userId: number, sealed: string, now: number): Promise<boolean> {
  const res = await db
    .prepare(
      `INSERT INTO operator_totp (user_id, sealed_secret, created_at) VALUES (?1, ?2, ?3)
       ON CONFLICT (user_id) DO UPDATE SET sealed_secret = ?2, created_at = ?3, last_step = 0 WHERE confirmed_at IS NULL`,
    )
    .bind(userId, sealed, now)
    .run();
  return res.meta.changes === 1;
}

/**
 * Takes `step` as used (a code is good once: one of two parallel requests with the same code
 * wins), confirms the enrolment if it was pending and gives this login its second factor.
 * False when the step (or a later one) was used already.
 */
export async function useStep(db: D1Database, userId: number, step: number, tokenHash: string, now: number): Promise<boolean> {
  const taken = await db
    .prepare('UPDATE operator_totp SET last_step = ?2, confirmed_at = COALESCE(confirmed_at, ?3) WHERE user_id = ?1 AND last_step < ?2')
    .bind(userId, step, now)
    .run();
  if (taken.meta.changes !== 1) return false;
  await db.prepare('UPDATE auth_tokens SET second_factor_at = ? WHERE token_hash = ? AND user_id = ?').bind(now, tokenHash, userId).run();
  return true;
}

/** Forgets an operator's authenticator (a lost device): they enrol again at their next visit; their logins lose the factor. */
export async function dropTotp(db: D1Database, userId: number): Promise<boolean> {
  const [dropped] = await db.batch([
    db.prepare('DELETE FROM operator_totp WHERE user_id = ?').bind(userId),
    db.prepare('UPDATE auth_tokens SET second_factor_at = NULL WHERE user_id = ?').bind(userId),
  ]);
  return dropped.meta.changes === 1;
}

/** Makes member `userId` an operator; false when there is no such member or they are one already. */
export async function addOperator(db: D1Database, userId: number, now: number): Promise<boolean> {
  const res = await db
    .prepare('INSERT INTO operators (user_id, created_at) SELECT id, ? FROM users WHERE id = ? AND cancelled_at IS NULL ON CONFLICT (user_id) DO NOTHING')
    .bind(now, userId)
    .run();
  return res.meta.changes === 1;
}

export interface AuditInput {
  actorId: number | null;
  actor: string;
  action: string;
  target?: string | null;
  reason?: string | null;
  detail?: Record<string, unknown> | null;
}

/** One audit row (for a batch with the action it records, where the action allows it). */
export function auditStatement(db: D1Database, e: AuditInput, now: number): D1PreparedStatement {
  return db
    .prepare('INSERT INTO audit_log (at, actor_id, actor, action, target, reason, detail) VALUES (?, ?, ?, ?, ?, ?, ?)')
    .bind(now, e.actorId, e.actor, e.action, e.target ?? null, e.reason ?? null, e.detail ? JSON.stringify(e.detail) : null);
}

/** A page of the trail, newest first. */
export async function auditPage(db: D1Database, limit: number, offset: number): Promise<{ rows: AuditEntry[]; total: number }> {
  const [rows, count] = await db.batch<{ id: number; at: number; actor: string; action: string; target: string | null; reason: string | null; detail: string | null } | { n: number }>([
    db.prepare('SELECT id, at, actor, action, target, reason, detail FROM audit_log ORDER BY id DESC LIMIT ? OFFSET ?').bind(limit, offset),
    db.prepare('SELECT COUNT(*) AS n FROM audit_log'),
  ]);
  const list = rows.results as { id: number; at: number; actor: string; action: string; target: string | null; reason: string | null; detail: string | null }[];
  return {
    rows: list.map((r) => ({ ...r, detail: r.detail ? (JSON.parse(r.detail) as Record<string, unknown>) : null })),
    total: (count.results[0] as { n: number } | undefined)?.n ?? 0,
  };
}

export type RefundTarget = { match: { userId: number; ref?: string; like?: string }; extra: D1PreparedStatement[] } | { refusal: string };

/** A store purchase to refund: its payment's reference, and its ownership removed with the refund. */
export async function purchaseRefundTarget(db: D1Database, purchaseId: number): Promise<RefundTarget | null> {
  const p = await db.prepare('SELECT user_id, kind, item_id FROM purchases WHERE id = ?').bind(purchaseId).first<{ user_id: number; kind: string; item_id: number }>();
  if (!p) return null;
  return { match: { userId: p.user_id, ref: `purchase:${p.kind}:${p.item_id}:${p.user_id}` }, extra: [db.prepare('DELETE FROM purchases WHERE id = ?').bind(purchaseId)] };
}

/** An ended chat session's paid minutes (a session paid by a phone call cost the member no coins: nothing to give back). */
export async function chatRefundTarget(db: D1Database, sessionId: string): Promise<RefundTarget | null> {
  const s = await db.prepare('SELECT user_id, state FROM chat_sessions WHERE id = ?').bind(sessionId).first<{ user_id: number | null; state: string }>();
  if (!s || s.user_id === null) return null;
  if (s.state !== 'ended') return { refusal: 'chat_running' };
  const like = `chat:${sessionId.replace(/[%_\\]/g, '\\$&')}:%`;
  if (await db.prepare("SELECT 1 FROM ledger WHERE ref LIKE ? ESCAPE '\\' AND ref LIKE '%:paid'").bind(like).first()) return { refusal: 'paid_by_phone' };
  return { match: { userId: s.user_id, like }, extra: [] };
}
