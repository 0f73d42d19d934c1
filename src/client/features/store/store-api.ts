import { api, ApiFailure } from '../../lib/api';

// Store calls whose refusals the page explains itself (no coins, not verified, not bought): the
// shared API client, told that the caller explains a 403, instead of its redirect.

export type StoreResult<T> = { ok: true; data: T } | { ok: false; status: number; code: string };

export async function storeCall<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<StoreResult<T>> {
  try {
    const data = method === 'GET' ? await api().get<T>(path, undefined, undefined, { explains403: true }) : await api().post<T>(path, body, { explains403: true });
    return { ok: true, data };
  } catch (e) {
    if (e instanceof ApiFailure) return { ok: false, status: e.status, code: e.message };
    return { ok: false, status: 0, code: 'network_error' };
  }
}
