import { QUICKSEARCH_DEBOUNCE_MS, QUICKSEARCH_MIN_CHARS } from '../../../shared/constants';
import type { SearchAll } from '../../../shared/shows';

// The quicksearch's behaviour without React or the DOM, so it can be tested with fake timers:
// acts at 3 or more characters (fewer clears the results), waits 500 ms after the last
// keystroke, cancels the request before it, and closes shortly after the field loses focus.

export type QuicksearchStatus = 'idle' | 'focused' | 'loading' | 'results' | 'empty' | 'error';

export interface QuicksearchState {
  query: string;
  status: QuicksearchStatus;
  results: SearchAll | null;
}

export interface QuicksearchDeps {
  search: (query: string, signal: AbortSignal) => Promise<SearchAll>;
  onChange: (state: QuicksearchState) => void;
  debounceMs?: number;
  minChars?: number;
  /** Delay before a blur closes the panel, so a click on a result still lands. */
  blurDelayMs?: number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (id: unknown) => void;
}

export const QUICKSEARCH_BLUR_DELAY_MS = 200;

export function resultCount(r: SearchAll | null): number {
  return r ? r.shows.data.length + r.videos.data.length + r.galleries.data.length : 0;
}

/** True when a query is long enough to search (trimmed, 3 or more characters). */
export function searchable(query: string, minChars: number = QUICKSEARCH_MIN_CHARS): boolean {
  return query.trim().length >= minChars;
}

export interface Quicksearch {
  readonly state: QuicksearchState;
  focus(): void;
  input(query: string): void;
  /** Search now (no debounce), e.g. after picking a history entry. */
  searchNow(query: string): void;
  blur(): void;
  /** Close the panel now (Escape); the text stays. */
  close(): void;
  dispose(): void;
}

export function createQuicksearch(deps: QuicksearchDeps): Quicksearch {
  const debounceMs = deps.debounceMs ?? QUICKSEARCH_DEBOUNCE_MS;
  const minChars = deps.minChars ?? QUICKSEARCH_MIN_CHARS;
  const blurDelayMs = deps.blurDelayMs ?? QUICKSEARCH_BLUR_DELAY_MS;
  const setTimer = deps.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  const clearTimer = deps.clearTimer ?? ((id) => clearTimeout(id as ReturnType<typeof setTimeout>));

  let state: QuicksearchState = { query: '', status: 'idle', results: null };
  let debounce: unknown = null;
  let blurTimer: unknown = null;
  let controller: AbortController | null = null;

  const set = (patch: Partial<QuicksearchState>) => {
    state = { ...state, ...patch };
    deps.onChange(state);
  };

  const cancel = () => {
    if (debounce !== null) clearTimer(debounce);
    debounce = null;
    controller?.abort();
    controller = null;
  };

  const run = async (query: string) => {
    debounce = null;
    controller?.abort();
    const own = new AbortController();
    controller = own;
    set({ status: 'loading' });
    try {
      const results = await deps.search(query.trim(), own.signal);
      if (own.signal.aborted || controller !== own) return;
      controller = null;
      set({ status: resultCount(results) > 0 ? 'results' : 'empty', results });
    } catch (error) {
      if (own.signal.aborted || controller !== own || (error as Error)?.name === 'AbortError') return;
      controller = null;
      set({ status: 'error', results: null });
    }
  };

  const schedule = (query: string, delay: number) => {
    cancel();
    if (!searchable(query, minChars)) {
      set({ query, status: 'focused', results: null });
      return;
    }
    // Shown as loading while the debounce runs; the previous results stay until replaced.
    set({ query, status: 'loading' });
    if (delay <= 0) void run(query);
    else debounce = setTimer(() => void run(query), delay);
  };

  return {
    get state() {
      return state;
    },
    focus() {
      if (blurTimer !== null) clearTimer(blurTimer);
      blurTimer = null;
      if (state.status !== 'idle') return;
      if (searchable(state.query, minChars)) schedule(state.query, 0);
      else set({ status: 'focused' });
    },
    input(query) {
      schedule(query, debounceMs);
    },
    searchNow(query) {
      if (blurTimer !== null) clearTimer(blurTimer);
      blurTimer = null;
      schedule(query, 0);
    },
    blur() {
      if (blurTimer !== null) clearTimer(blurTimer);
      blurTimer = setTimer(() => {
        blurTimer = null;
        cancel();
        set({ status: 'idle', results: null });
      }, blurDelayMs);
    },
    close() {
      cancel();
      set({ status: 'idle', results: null });
    },
    dispose() {
      cancel();
      if (blurTimer !== null) clearTimer(blurTimer);
      blurTimer = null;
    },
  };
}

/** One entry the arrow keys walk through. */
export interface Option {
  id: string;
  /** A link to follow, or an action (history entries fill the field). */
  href?: string;
  run?: () => void;
  /** The query the option stands for, kept in the history when followed. */
  remember?: string;
}

/** The search page for a trimmed term. */
export function searchHref(term: string): string {
  return term ? `/search?search=${encodeURIComponent(term)}` : '/search';
}
