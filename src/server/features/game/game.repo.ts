import type { GameSpin } from '../../../shared/game';

interface SpinRow {
  day: string;
  segment: number;
  coins: number;
  created_at: number;
}

const toSpin = (r: SpinRow): GameSpin => ({ day: r.day, segment: r.segment, coins: r.coins, at: r.created_at });

/** The member's spin of that UTC day, if any. */
export async function findSpin(db: D1Database, userId: number, day: string): Promise<GameSpin | null> {
  const row = await db.prepare('SELECT day, segment, coins, created_at FROM game_spins WHERE user_id = ? AND day = ?').bind(userId, day).first<SpinRow>();
  return row ? toSpin(row) : null;
}

/**
 * The reservation of the day's spin, for the ledger batch that pays its prize: the primary key
 * (user_id, day) lets one row in, so of parallel spins exactly one commits and the others abort
 * whole (no ledger row, no balance change).
 */
export function reserveSpinStatement(db: D1Database, userId: number, spin: GameSpin): D1PreparedStatement {
  return db
    .prepare('INSERT INTO game_spins (user_id, day, segment, coins, created_at) VALUES (?, ?, ?, ?, ?)')
    .bind(userId, spin.day, spin.segment, spin.coins, spin.at);
}
