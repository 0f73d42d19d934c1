import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SEARCH_HISTORY_MAX } from '../../src/shared/constants';
import { addToHistory, clearHistory, loadHistory, normalizeHistory, rememberSearch, SEARCH_HISTORY_KEY } from '../../src/client/features/search/search-history';

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
    data,
  };
}

describe('search history rules', () => {
  it('keeps queries trimmed, newest first', () => {
    let h: string[] = [];
    h = addToHistory(h, '  berlin ');
    h = addToHistory(h, 'yoga');
    expect(h).toEqual(['yoga', 'berlin']);
  });

  it('keeps each query once: a repeated query moves to the front', () => {
    let h = ['yoga', 'berlin', 'music'];
    h = addToHistory(h, ' berlin');
    expect(h).toEqual(['berlin', 'yoga', 'music']);
  });

  it('ignores empty and blank queries', () => {
    expect(addToHistory(['a b c'], '')).toEqual(['a b c']);
    expect(addToHistory(['a b c'], '   ')).toEqual(['a b c']);
  });

  it(`holds at most ${SEARCH_HISTORY_MAX} entries, dropping the oldest`, () => {
    let h: string[] = [];
    for (let i = 1; i <= 20; i++) h = addToHistory(h, `query ${i}`);
    expect(h).toHaveLength(SEARCH_HISTORY_MAX);
    expect(h[0]).toBe('query 20');
    expect(h[SEARCH_HISTORY_MAX - 1]).toBe('query 9');
  });

  it('holds for any sequence of queries: unique, trimmed, capped, newest first', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 8 }), { maxLength: 40 }), (queries) => {
        const h = queries.reduce<string[]>((list, q) => addToHistory(list, q), []);
        expect(h.length).toBeLessThanOrEqual(SEARCH_HISTORY_MAX);
        expect(new Set(h).size).toBe(h.length);
        for (const e of h) expect(e).toBe(e.trim());
        for (const e of h) expect(e).not.toBe('');
        const last = [...queries].reverse().find((q) => q.trim() !== '');
        if (last !== undefined) expect(h[0]).toBe(last.trim());
      }),
    );
  });

  it('reads stored lists defensively', () => {
    expect(normalizeHistory('nope')).toEqual([]);
    expect(normalizeHistory([' a ', 1, null, 'a', 'b'])).toEqual(['a', 'b']);
    expect(normalizeHistory(Array.from({ length: 30 }, (_, i) => `q${i}`))).toHaveLength(SEARCH_HISTORY_MAX);
  });

  it('persists in storage and survives a reload, and can be cleared', () => {
    const s = memoryStorage();
    rememberSearch('Berlin', s);
    rememberSearch('yoga ', s);
    expect(JSON.parse(s.data.get(SEARCH_HISTORY_KEY)!)).toEqual(['yoga', 'Berlin']);
    expect(loadHistory(s)).toEqual(['yoga', 'Berlin']);
    clearHistory(s);
    expect(loadHistory(s)).toEqual([]);
    expect(loadHistory(memoryStorage({ [SEARCH_HISTORY_KEY]: '{broken' }))).toEqual([]);
    expect(loadHistory(null)).toEqual([]);
  });
});
