import { describe, expect, it } from 'vitest';
import { applyVote, countdownParts, rankEntries, type ContestEntry } from '../../src/shared/contest';

const entry = (id: number, score: number): ContestEntry => ({
  id,
  score,
  rank: 0,
  show: { id, name: `s${id}`, slugName: `s${id}`, online: false, thumbnail: `/img/show/${id}/1.svg` },
});

describe('contest rules (src/shared/contest.ts)', () => {
  it('ranks best first, equal scores share a rank and keep the entry id order', () => {
    const ranked = rankEntries([entry(4, 3), entry(2, 5), entry(9, 3), entry(1, -1), entry(3, 5)]);
    expect(ranked.map((e) => [e.id, e.rank])).toEqual([
      [2, 1],
      [3, 1],
      [4, 3],
      [9, 3],
      [1, 5],
    ]);
  });

  it('a changed vote moves the score by the difference and re-ranks', () => {
    const start = rankEntries([entry(1, 6), entry(2, 6), entry(3, 2)]);
    const up = applyVote(start, 2, 0, 1);
    expect(up.map((e) => [e.id, e.score, e.rank])).toEqual([
      [2, 7, 1],
      [1, 6, 2],
      [3, 2, 3],
    ]);
    const down = applyVote(up, 2, 1, -1);
    expect(down.map((e) => [e.id, e.score, e.rank])).toEqual([
      [1, 6, 1],
      [2, 5, 2],
      [3, 2, 3],
    ]);
  });

  it('counts down in days, hours, minutes and seconds and stops at 0', () => {
    const end = 1_000_000;
    expect(countdownParts(end, (end - (2 * 86_400 + 3 * 3_600 + 4 * 60 + 5)) * 1000)).toEqual({ days: 2, hours: 3, minutes: 4, seconds: 5, over: false });
    expect(countdownParts(end, end * 1000 - 500)).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 0, over: true });
    expect(countdownParts(end, (end + 60) * 1000).over).toBe(true);
  });
});
