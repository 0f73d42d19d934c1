import type { TipGoal, TipMenuItem } from '../../../shared/tips';

// The tip menu and the tip goal of a show in D1 (migration 0037). A tip adds to the current goal
// with goalStatement, run in the tip's ledger batch: D1 runs one batch at a time as one
// transaction, so parallel tips each add exactly once, and a tip the ledger refuses (no coins, a
// replayed reference) rolls its addition back with it.

interface MenuRow {
  id: number;
  coins: number;
  text_en: string;
  text_de: string;
}

interface GoalRow {
  id: number;
  amount: number;
  text: string;
  progress: number;
  ends_at: number | null;
  reached_at: number | null;
}

const menuItem = (r: MenuRow): TipMenuItem => ({ id: r.id, coins: r.coins, en: r.text_en, de: r.text_de });

/** A goal row as viewers see it at `now` (unix ms). */
export function goalView(r: GoalRow, now: number): TipGoal {
  const state = r.reached_at !== null ? 'reached' : r.ends_at !== null && r.ends_at <= now ? 'expired' : 'open';
  return { id: r.id, amount: r.amount, text: r.text, progress: r.progress, state, left_ms: state === 'open' && r.ends_at !== null ? r.ends_at - now : null };
}

export async function tipMenu(db: D1Database, showId: number): Promise<TipMenuItem[]> {
  const { results } = await db.prepare('SELECT id, coins, text_en, text_de FROM tip_menu_items WHERE show_id = ? ORDER BY position, id').bind(showId).all<MenuRow>();
  return results.map(menuItem);
}

export async function tipMenuItem(db: D1Database, showId: number, id: number): Promise<TipMenuItem | null> {
  const r = await db.prepare('SELECT id, coins, text_en, text_de FROM tip_menu_items WHERE show_id = ? AND id = ?').bind(showId, id).first<MenuRow>();
  return r ? menuItem(r) : null;
}

/** Replaces the whole menu in one batch (parallel saves: one of them wins whole). */
export async function replaceTipMenu(db: D1Database, showId: number, items: { coins: number; en: string; de: string }[]): Promise<void> {
  await db.batch([
    db.prepare('DELETE FROM tip_menu_items WHERE show_id = ?').bind(showId),
    ...items.map((it, i) => db.prepare('INSERT INTO tip_menu_items (show_id, position, coins, text_en, text_de) VALUES (?, ?, ?, ?, ?)').bind(showId, i, it.coins, it.en, it.de)),
  ]);
}

const GOAL_COLUMNS = 'id, amount, text, progress, ends_at, reached_at';

/** The show's current goal (reached and expired ones stay current until the performer starts or ends another). */
export async function currentGoal(db: D1Database, showId: number, now: number): Promise<TipGoal | null> {
  const r = await db.prepare(`SELECT ${GOAL_COLUMNS} FROM tip_goals WHERE show_id = ? AND closed_at IS NULL`).bind(showId).first<GoalRow>();
  return r ? goalView(r, now) : null;
}

/** Closes the current goal and starts a new one, in one batch. */
export async function startGoal(db: D1Database, showId: number, g: { amount: number; text: string; minutes: number | null }, now: number): Promise<TipGoal | null> {
  await db.batch([
    db.prepare('UPDATE tip_goals SET closed_at = ? WHERE show_id = ? AND closed_at IS NULL').bind(now, showId),
    db.prepare('INSERT INTO tip_goals (show_id, amount, text, created_at, ends_at) VALUES (?, ?, ?, ?, ?)').bind(showId, g.amount, g.text, now, g.minutes === null ? null : now + g.minutes * 60_000),
  ]);
  return currentGoal(db, showId, now);
}

/** Ends the current goal without a new one (answers whether there was one). */
export async function endGoal(db: D1Database, showId: number, now: number): Promise<boolean> {
  const r = await db.prepare('UPDATE tip_goals SET closed_at = ? WHERE show_id = ? AND closed_at IS NULL').bind(now, showId).run();
  return (r.meta.changes ?? 0) > 0;
}

/**
 * A tip of `coins` counts towards the show's current goal if it is still open at `now` (not
 * reached, its time not run out); the tip that makes the amount marks it reached. One conditional
 * UPDATE, for the tip's ledger batch (a refused tip rolls it back).
 */
export function goalStatement(db: D1Database, showId: number, coins: number, now: number): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE tip_goals SET progress = progress + ?1, reached_at = CASE WHEN progress + ?1 >= amount THEN ?2 ELSE NULL END
       WHERE show_id = ?3 AND closed_at IS NULL AND reached_at IS NULL AND (ends_at IS NULL OR ends_at > ?2)`,
    )
    .bind(coins, now, showId);
}
