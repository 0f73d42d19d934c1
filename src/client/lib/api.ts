import { BUILD_HEADER, CSRF_COOKIE, CSRF_HEADER } from '../../shared/constants';
import { isSemver } from '../../shared/semver';
import type { Session } from '../../shared/session';
import type { RootState } from '../state/store';
import { readCookie } from './cookies';

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors: Record<string, string[]> = {},
    readonly body: unknown = null,
    /** Seconds to wait before trying again (Retry-After of a 429 or 503), when the server said. */
    readonly retryAfter: number | null = null,
  ) {
    super(message);
  }
}

function retryAfterOf(res: Response): number | null {
  const seconds = Number(res.headers.get('Retry-After'));
  return Number.isInteger(seconds) && seconds > 0 ? seconds : null;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** `explains403`: the caller shows a 403 itself (e.g. "not verified" next to a buy button) instead of the redirect. */
export interface CallOptions {
  explains403?: boolean;
}

export interface ApiClient {
  get<T>(path: string, query?: Record<string, string | number | undefined>, signal?: AbortSignal, opts?: CallOptions): Promise<T>;
  post<T>(path: string, body?: unknown, opts?: CallOptions): Promise<T>;
  put<T>(path: string, body?: unknown): Promise<T>;
  patch<T>(path: string, body?: unknown): Promise<T>;
  /** A body names what to delete where the path cannot (a push subscription's endpoint). */
  delete<T>(path: string, body?: unknown): Promise<T>;
}

/**
 * The client API layer: CSRF cookie before writes, the X-XSRF-TOKEN
 * header, the server build stored, session and coin updates applied, 401/403 redirects.
 */
let current: ApiClient | null = null;

/** The document's API client (islands act only in the browser, after main.ts created it). */
export function api(): ApiClient {
  if (!current) throw new Error('api used before main.ts created it');
  return current;
}

/**
 * The CSRF token the server handed out: on https under the `__Host-` name, on http (local
 * development) the plain one. Read afresh for every write, so the token a login or logout
 * rotated is used from the next write on.
 */
export function csrfToken(): string | null {
  return readCookie(`__Host-${CSRF_COOKIE}`) ?? readCookie(CSRF_COOKIE);
}

export function createApi(store: RootState, navigate: (to: string) => void = (to) => location.assign(to)): ApiClient {
  // One cookie request at a time: two at once would leave a write holding the other's token.
  let csrfRequest: Promise<unknown> | null = null;
  async function fetchCsrf(): Promise<void> {
    csrfRequest ??= fetch('/api/auth/csrf-cookie', { credentials: 'same-origin' }).finally(() => (csrfRequest = null));
    await csrfRequest;
  }
  async function ensureCsrf(): Promise<void> {
    if (!csrfToken()) await fetchCsrf();
  }

  function apply(res: Response, body: unknown): void {
    const build = res.headers.get(BUILD_HEADER);
    if (isSemver(build)) store.serverBuild = build;
    if (!body || typeof body !== 'object') return;
    const b = body as { session?: Session; user?: { coins?: unknown } };
    if (b.session && typeof b.session === 'object') store.session = b.session;
    if (store.user && typeof b.user?.coins === 'number') store.user.coins = b.user.coins;
  }

  async function request<T>(method: Method, path: string, body?: unknown, signal?: AbortSignal, opts: CallOptions = {}, retried = false): Promise<T> {
    if (method !== 'GET') await ensureCsrf();
    const headers: Record<string, string> = { Accept: 'application/json', 'Accept-Language': store.locale };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const token = csrfToken();
    if (method !== 'GET' && token) headers[CSRF_HEADER] = token;
    const url = `/api/${path.replace(/^\/+/, '')}`;
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: 'same-origin',
        signal,
      });
    } catch (e) {
      if ((e as Error).name === 'AbortError') throw e;
      throw new ApiFailure(0, 'network_error');
    }
    const text = await res.text();
    let data: unknown = null;
    try {
      data = text ? JSON.parse(text) : null;
    } catch {
      data = text;
    }
    apply(res, data);
    if (res.ok) return data as T;
    // A write refused for its CSRF token changed nothing: one that left before a login or logout
    // in another tab rotated the session fetches the current token and goes again, once.
    if (res.status === 419 && method !== 'GET' && !retried) {
      await fetchCsrf();
      return request<T>(method, path, body, signal, opts, true);
    }

    const message =
      data && typeof data === 'object' && typeof (data as { message?: unknown }).message === 'string'
        ? (data as { message: string }).message
        : 'unknown_error';
    if (res.status === 401 && store.user) {
      await fetch('/api/auth/csrf-cookie', { credentials: 'same-origin' }).catch(() => undefined);
      navigate('/logout');
    } else if (res.status === 403 && !opts.explains403) {
      navigate(message === 'not_verified' ? '/verify' : '/');
    }
    const errors = data && typeof data === 'object' ? ((data as { errors?: Record<string, string[]> }).errors ?? {}) : {};
    throw new ApiFailure(res.status, message, errors, data, retryAfterOf(res));
  }

  current = {
    get: (path, query, signal, opts) => {
      const q = new URLSearchParams();
      for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) q.set(k, String(v));
      const qs = q.toString();
      return request('GET', qs ? `${path}?${qs}` : path, undefined, signal, opts);
    },
    post: (path, body, opts) => request('POST', path, body ?? {}, undefined, opts),
    put: (path, body) => request('PUT', path, body ?? {}),
    patch: (path, body) => request('PATCH', path, body ?? {}),
    delete: (path, body) => request('DELETE', path, body),
  };
  return current;
}
