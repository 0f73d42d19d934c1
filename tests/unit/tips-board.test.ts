import { describe, expect, it } from 'vitest';
import type { TipGoal } from '../../src/shared/tips';
import { reduceLines, type RoomLines } from '../../src/client/features/chat/room-lines';
import { emptyBoard } from '../../src/client/features/chat/chat.slice';
import { applyTipsEvent } from '../../src/client/features/chat/tips-board';

// The chat's tip menu and goal as the room's events keep them: the bar never moves back for a late
// answer of the same goal, a new goal replaces it, reaching it is announced once, and a menu tip's
// line keeps its action.

const goal = (id: number, progress: number, state: TipGoal['state'] = 'open'): TipGoal => ({ id, amount: 30, text: 'Encore', progress, state, left_ms: null });

describe('tips board', () => {
  it('keeps the highest count of a goal, takes a new goal, announces reaching it once', () => {
    const lines: RoomLines = { items: [], typing: null };
    const board = emptyBoard();
    expect(applyTipsEvent(lines, board, { t: 'goal', goal: goal(1, 20) })).toBe(true);
    applyTipsEvent(lines, board, { t: 'goal', goal: goal(1, 10) });
    expect(board.goal?.progress).toBe(20);
    applyTipsEvent(lines, board, { t: 'goal', goal: goal(1, 30, 'reached'), reached: true });
    applyTipsEvent(lines, board, { t: 'goal', goal: goal(1, 30, 'reached') });
    expect(lines.items.filter((i) => i.kind === 'notice').map((i) => i.kind === 'notice' && [i.key, i.vars])).toEqual([['chat.goal.reached', { text: 'Encore' }]]);
    applyTipsEvent(lines, board, { t: 'goal', goal: goal(2, 0) });
    expect(board.goal).toMatchObject({ id: 2, progress: 0 });
    applyTipsEvent(lines, board, { t: 'goal', goal: null });
    expect(board.goal).toBeNull();
    expect(applyTipsEvent(lines, board, { t: 'menu', menu: [{ id: 4, coins: 10, en: 'Dance', de: 'Tanzen' }] })).toBe(true);
    expect(board.menu.map((i) => i.id)).toEqual([4]);
    expect(applyTipsEvent(lines, board, { t: 'typing', from: 's', nick: 'n' })).toBe(false);
  });

  it("a menu tip's line keeps its action", () => {
    const lines: RoomLines = { items: [], typing: null };
    reduceLines(lines, { t: 'tip', from: 's1', nick: 'Ann', coins: 10, ts: 5, action: { en: 'Dance', de: 'Tanzen' } }, 's1');
    reduceLines(lines, { t: 'tip', from: 's2', nick: 'Bo', coins: 5, ts: 6 }, 's1');
    expect(lines.items).toEqual([
      { kind: 'tip', id: 't5-s1', ts: 5, nick: 'Ann', coins: 10, mine: true, action: { en: 'Dance', de: 'Tanzen' } },
      { kind: 'tip', id: 't6-s2', ts: 6, nick: 'Bo', coins: 5, mine: false },
    ]);
  });
});
