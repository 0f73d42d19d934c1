import { CSRF_HEADER } from '../../../shared/constants';
import { csrfToken } from '../../lib/api';
import type { RootState } from '../../state/store';

// Store calls whose refusals the page explains itself (no coins, not verified, not bought): the
// shared API client would navigate away on a 403, so these go through this small fetch wrapper.

export type StoreResult<T> = { ok: true; data: T } | { ok: false; status: number; code: string };

async function ensureCsrf(): Promise<void> {
  if (!csrfToken()) await fetch('/api/auth/csrf-cookie', { credentials: 'same-origin' });
}

export async function storeCall<T>(store: RootState, method: 'GET' | 'POST', path: string, body?: unknown): Promise<StoreResult<T>> {
  const headers: Record<string, string> = { Accept: 'application/json', 'Accept-Language': store.locale };
  try {
    if (method === 'POST') {
      await ensureCsrf();
      headers['Content-Type'] = 'application/json';
      const token = csrfToken();
      if (token) headers[CSRF_HEADER] = token;
    }
    const res = await fetch(`/api/${path}`, { method, headers, credentials: 'same-origin', body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined });
    const data = (await res.json().catch(() => null)) as { message?: unknown; user?: { coins?: unknown } } | null;
    // Coins changed by this answer show in the top bar at once (other tabs get user:coins).
    if (store.user && typeof data?.user?.coins === 'number') store.user.coins = data.user.coins;
    if (res.ok) return { ok: true, data: data as T };
    return { ok: false, status: res.status, code: typeof data?.message === 'string' ? data.message : 'unknown_error' };
  } catch {
    return { ok: false, status: 0, code: 'network_error' };
  }
}
