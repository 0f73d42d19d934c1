import { SEARCH_HISTORY_MAX } from '../../../shared/constants';

// Search history: unique trimmed queries, newest first, at most
// 12, kept in localStorage so it survives reloads.
export const SEARCH_HISTORY_KEY = 'search_history';

/** The list with `query` added: trimmed, moved to the front if present, capped at `max`. */
export function addToHistory(list: readonly string[], query: string, max: number = SEARCH_HISTORY_MAX): string[] {
  const q = query.trim();
  if (!q) return list.slice(0, max);
  return [q, ...list.filter((entry) => entry !== q)].slice(0, max);
}

/** Anything read from storage, made safe: strings only, trimmed, unique, capped. */
export function normalizeHistory(value: unknown, max: number = SEARCH_HISTORY_MAX): string[] {
  if (!Array.isArray(value)) return [];
  const out: string[] = [];
  for (const entry of value) {
    if (typeof entry !== 'string') continue;
    const q = entry.trim();
    if (q && !out.includes(q)) out.push(q);
    if (out.length >= max) break;
  }
  return out;
}

type StorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

function storage(): StorageLike | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // blocked storage (privacy settings)
  }
}

export function loadHistory(store: StorageLike | null = storage()): string[] {
  try {
    return normalizeHistory(JSON.parse(store?.getItem(SEARCH_HISTORY_KEY) ?? '[]'));
  } catch {
    return [];
  }
}

export function rememberSearch(query: string, store: StorageLike | null = storage()): string[] {
  const next = addToHistory(loadHistory(store), query);
  try {
    store?.setItem(SEARCH_HISTORY_KEY, JSON.stringify(next));
  } catch {
    // full or blocked storage: the history just is not kept
  }
  return next;
}

export function clearHistory(store: StorageLike | null = storage()): void {
  try {
    store?.removeItem(SEARCH_HISTORY_KEY);
  } catch {
    // ignore
  }
}
