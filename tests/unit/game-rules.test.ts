import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GAME_SEGMENTS, GAME_WEIGHT_TOTAL, gameDay, gameRef, nextGameDay, segmentFor, wheelAngle } from '../../src/shared/game';

describe('daily game rules', () => {
  it('every field wins coins', () => {
    for (const s of GAME_SEGMENTS) {
      expect(Number.isInteger(s.coins)).toBe(true);
      expect(s.coins).toBeGreaterThan(0);
    }
  });

  it('a draw lands on each field in proportion to its weight', () => {
    const hits = new Array(GAME_SEGMENTS.length).fill(0);
    for (let k = 0; k < GAME_WEIGHT_TOTAL; k++) hits[segmentFor((k + 0.5) / GAME_WEIGHT_TOTAL)]++;
    expect(hits).toEqual(GAME_SEGMENTS.map((s) => s.weight));
    expect(segmentFor(0)).toBe(0);
    expect(segmentFor(0.999999999)).toBe(GAME_SEGMENTS.length - 1);
    // Out-of-range draws are clamped, never undefined.
    expect(segmentFor(-1)).toBe(0);
    expect(segmentFor(1)).toBe(GAME_SEGMENTS.length - 1);
  });

  it('the day is the UTC day, and the next spin is at the next UTC midnight', () => {
    expect(gameDay(new Date('2026-11-23T23:59:59.999Z'))).toBe('2026-11-23');
    expect(gameDay(new Date('2026-11-24T00:00:00.000Z'))).toBe('2026-11-24');
    expect(nextGameDay(new Date('2026-11-23T10:00:00Z'))).toBe(Date.UTC(2026, 10, 24) / 1000);
    expect(nextGameDay(new Date('2026-12-31T23:00:00Z'))).toBe(Date.UTC(2027, 0, 1) / 1000);
    expect(gameRef(7, '2026-11-23')).toBe('game:7:2026-11-23');
  });

  it('the wheel stops with the drawn field under the pointer at the top', () => {
    const size = 360 / GAME_SEGMENTS.length;
    for (let i = 0; i < GAME_SEGMENTS.length; i++) {
      const rest = wheelAngle(i) % 360;
      // The field's middle (i * size + size / 2, clockwise from the top) turned by `rest` is at 0.
      expect((i * size + size / 2 + rest) % 360).toBeCloseTo(0, 6);
      expect(wheelAngle(i)).toBeGreaterThanOrEqual(5 * 360);
    }
  });

  it('the stylesheet turns the wheel to the same angles (rest and after five turns)', () => {
    const css = readFileSync(new URL('../../src/client/features/game/game.css', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    // Each stop sets its rest angle (--rest); a spun disc turns to it plus five turns.
    expect(css).toContain('.game-disc[data-stop] { transform: rotate(var(--rest)); }');
    expect(css).toContain('.game-disc.is-spun[data-stop] { transform: rotate(calc(var(--rest) + 1800deg)); }');
    for (let i = 0; i < GAME_SEGMENTS.length; i++) {
      expect(css).toContain(`.game-disc[data-stop="${i}"] { --rest: ${wheelAngle(i, 0)}deg; }`);
      expect(wheelAngle(i)).toBe(wheelAngle(i, 0) + 1800);
    }
  });
});
