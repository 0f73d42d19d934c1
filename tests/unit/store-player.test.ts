// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import { normalizePlayer, PLAYER_POSITIONS_MAX, PLAYER_STORAGE_KEY, positionKey, rememberPosition, restorePlayer } from '../../src/client/features/store/player-storage';
import { testStore } from './client-state';

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('the persisted video-player state', () => {
  beforeEach(() => localStorage.clear());

  it('whatever storage holds is made safe', () => {
    expect(normalizePlayer(null)).toEqual({ volume: 1, muted: false, positions: {} });
    expect(normalizePlayer({ volume: 7, muted: 'yes', positions: { '1:1:full': 12, bad: 3, '2:1:preview': -1, '3:2:full': 'x' } })).toEqual({
      volume: 1,
      muted: false,
      positions: { '1:1:full': 12 },
    });
    expect(normalizePlayer({ volume: -2 }).volume).toBe(0);
  });

  it('restores volume, mute and positions after a reload and saves every change', async () => {
    localStorage.setItem(PLAYER_STORAGE_KEY, JSON.stringify({ volume: 0.4, muted: true, positions: { '5:2:full': 33.3 } }));
    const store = testStore();
    expect(store.player.volume).toBe(1);
    restorePlayer(store);
    expect(store.player).toMatchObject({ volume: 0.4, muted: true, positions: { '5:2:full': 33.3 }, restored: true });

    store.player.volume = 0.7;
    rememberPosition(store, positionKey(9, 1, false), 4.26);
    await tick();
    expect(JSON.parse(localStorage.getItem(PLAYER_STORAGE_KEY) ?? '{}')).toEqual({ volume: 0.7, muted: true, positions: { '5:2:full': 33.3, '9:1:preview': 4.3 } });

    // A second document starts where this one left off.
    const next = testStore();
    restorePlayer(next);
    expect(next.player.volume).toBe(0.7);
    expect(next.player.positions[positionKey(9, 1, false)]).toBe(4.3);
  });

  it('keeps only the most recent positions', () => {
    const store = testStore();
    for (let i = 0; i < PLAYER_POSITIONS_MAX + 5; i++) rememberPosition(store, positionKey(i, 1, true), i);
    const keys = Object.keys(store.player.positions);
    expect(keys.length).toBe(PLAYER_POSITIONS_MAX);
    expect(keys[0]).toBe(positionKey(5, 1, true));
    expect(keys.at(-1)).toBe(positionKey(PLAYER_POSITIONS_MAX + 4, 1, true));
  });
});
