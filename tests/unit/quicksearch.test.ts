import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QUICKSEARCH_DEBOUNCE_MS } from '../../src/shared/constants';
import type { SearchAll } from '../../src/shared/shows';
import { createQuicksearch, QUICKSEARCH_BLUR_DELAY_MS, type QuicksearchState } from '../../src/client/features/search/quicksearch-state';

const hits = (n: number): SearchAll => ({
  shows: { data: Array.from({ length: n }, (_, i) => ({ id: i + 1 }) as never), total: n },
  videos: { data: [], total: 0 },
  galleries: { data: [], total: 0 },
});

function setup(search: (q: string, signal: AbortSignal) => Promise<SearchAll>) {
  const states: QuicksearchState[] = [];
  const qs = createQuicksearch({ search, onChange: (s) => states.push(s) });
  return { qs, states };
}

describe('quicksearch', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('does nothing below 3 characters and clears results', async () => {
    const search = vi.fn(async () => hits(2));
    const { qs } = setup(search);
    qs.focus();
    expect(qs.state.status).toBe('focused');
    qs.input('be');
    await vi.advanceTimersByTimeAsync(2 * QUICKSEARCH_DEBOUNCE_MS);
    expect(search).not.toHaveBeenCalled();
    expect(qs.state.status).toBe('focused');
    qs.input('  be ');
    await vi.advanceTimersByTimeAsync(2 * QUICKSEARCH_DEBOUNCE_MS);
    expect(search).not.toHaveBeenCalled();

    qs.input('ber');
    await vi.advanceTimersByTimeAsync(QUICKSEARCH_DEBOUNCE_MS);
    expect(qs.state.status).toBe('results');
    qs.input('be');
    expect(qs.state.results).toBeNull();
    expect(qs.state.status).toBe('focused');
  });

  it('waits 500 ms after the last keystroke and searches once, trimmed', async () => {
    const search = vi.fn(async (_q: string, _signal: AbortSignal) => hits(3));
    const { qs } = setup(search);
    qs.focus();
    qs.input('ber');
    await vi.advanceTimersByTimeAsync(300);
    qs.input('berl');
    await vi.advanceTimersByTimeAsync(300);
    qs.input('berli ');
    expect(qs.state.status).toBe('loading');
    await vi.advanceTimersByTimeAsync(QUICKSEARCH_DEBOUNCE_MS - 1);
    expect(search).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(search).toHaveBeenCalledTimes(1);
    expect(search.mock.calls[0][0]).toBe('berli');
    await vi.runAllTimersAsync();
    expect(qs.state.status).toBe('results');
    expect(qs.state.results?.shows.total).toBe(3);
  });

  it('cancels the previous request, and a late answer never wins', async () => {
    const signals: AbortSignal[] = [];
    const resolvers: ((r: SearchAll) => void)[] = [];
    const search = vi.fn((_q: string, signal: AbortSignal) => {
      signals.push(signal);
      return new Promise<SearchAll>((resolve) => resolvers.push(resolve));
    });
    const { qs } = setup(search);
    qs.focus();
    qs.input('mus');
    await vi.advanceTimersByTimeAsync(QUICKSEARCH_DEBOUNCE_MS);
    qs.input('musi');
    expect(signals[0].aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(QUICKSEARCH_DEBOUNCE_MS);
    resolvers[1](hits(1));
    await vi.advanceTimersByTimeAsync(0);
    resolvers[0](hits(5)); // the aborted one answers late
    await vi.advanceTimersByTimeAsync(0);
    expect(qs.state.results?.shows.total).toBe(1);
    expect(qs.state.query).toBe('musi');
  });

  it('reports no results and errors', async () => {
    let fail = false;
    const { qs } = setup(async () => {
      if (fail) throw new Error('offline');
      return hits(0);
    });
    qs.focus();
    qs.input('zzzz');
    await vi.runAllTimersAsync();
    expect(qs.state.status).toBe('empty');
    fail = true;
    qs.input('zzzzz');
    await vi.runAllTimersAsync();
    expect(qs.state.status).toBe('error');
  });

  it('closes shortly after blur (so clicks on results land), and a refocus in time keeps it open', async () => {
    const { qs } = setup(async () => hits(2));
    qs.focus();
    qs.input('yoga');
    await vi.runAllTimersAsync();
    qs.blur();
    await vi.advanceTimersByTimeAsync(QUICKSEARCH_BLUR_DELAY_MS - 10);
    expect(qs.state.status).toBe('results');
    qs.focus();
    await vi.advanceTimersByTimeAsync(QUICKSEARCH_BLUR_DELAY_MS);
    expect(qs.state.status).toBe('results');
    qs.blur();
    await vi.advanceTimersByTimeAsync(QUICKSEARCH_BLUR_DELAY_MS);
    expect(qs.state.status).toBe('idle');
    expect(qs.state.results).toBeNull();
    expect(qs.state.query).toBe('yoga');
  });

  it('a blur cancels a pending search; focusing again searches the kept text at once', async () => {
    const search = vi.fn(async () => hits(1));
    const { qs } = setup(search);
    qs.focus();
    qs.input('dance');
    qs.blur();
    await vi.advanceTimersByTimeAsync(QUICKSEARCH_BLUR_DELAY_MS + QUICKSEARCH_DEBOUNCE_MS);
    expect(search).not.toHaveBeenCalled();
    expect(qs.state.status).toBe('idle');
    qs.focus();
    await vi.advanceTimersByTimeAsync(0);
    expect(search).toHaveBeenCalledTimes(1);
    expect(qs.state.status).toBe('results');
  });

  it('Escape closes at once; picking a history entry searches without waiting', async () => {
    const search = vi.fn(async () => hits(1));
    const { qs } = setup(search);
    qs.focus();
    qs.searchNow('berlin');
    await vi.advanceTimersByTimeAsync(0);
    expect(search).toHaveBeenCalledWith('berlin', expect.any(AbortSignal));
    expect(qs.state.status).toBe('results');
    qs.close();
    expect(qs.state.status).toBe('idle');
  });
});
