// The daily game: a wheel of coin prizes, one spin per member per UTC day. The server draws the
// segment; the client only turns the wheel to it.

export interface GameSegment {
  /** Coins credited through the ledger. */
  coins: number;
  /** Relative chance; the weights add up to GAME_WEIGHT_TOTAL. */
  weight: number;
}

/** Clockwise from the top of the wheel. Every field wins. */
export const GAME_SEGMENTS: readonly GameSegment[] = [
  { coins: 5, weight: 28 },
  { coins: 50, weight: 5 },
  { coins: 10, weight: 22 },
  { coins: 25, weight: 9 },
  { coins: 15, weight: 16 },
  { coins: 100, weight: 2 },
  { coins: 20, weight: 12 },
  { coins: 30, weight: 6 },
];

export const GAME_WEIGHT_TOTAL = GAME_SEGMENTS.reduce((sum, s) => sum + s.weight, 0);

/** The segment a uniform draw r in [0, 1) lands on. */
export function segmentFor(r: number): number {
  const x = Math.min(Math.max(r, 0), 1 - Number.EPSILON) * GAME_WEIGHT_TOTAL;
  let acc = 0;
  for (let i = 0; i < GAME_SEGMENTS.length; i++) {
    acc += GAME_SEGMENTS[i].weight;
    if (x < acc) return i;
  }
  return GAME_SEGMENTS.length - 1;
}

/** The UTC day (yyyy-mm-dd) a moment belongs to: one spin per member per such day. */
export function gameDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** Unix seconds of the next UTC midnight: when the next spin is allowed. */
export function nextGameDay(at: Date): number {
  const d = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1));
  return Math.floor(d.getTime() / 1000);
}

/** The ledger reference of a day's prize: unique, so a prize is never paid twice. */
export const gameRef = (userId: number, day: string) => `game:${userId}:${day}`;

export interface GameSpin {
  day: string;
  segment: number;
  coins: number;
  at: number;
}

/** GET /api/game and POST /api/game/spin. */
export interface GameState {
  day: string;
  /** Today's spin, or null while the member may still spin. */
  spin: GameSpin | null;
  next_at: number;
}

/** Degrees the wheel turns so that the segment's middle stops under the pointer at the top. */
export function wheelAngle(segment: number, turns = 5): number {
  const size = 360 / GAME_SEGMENTS.length;
  return turns * 360 + (360 - (segment * size + size / 2));
}
