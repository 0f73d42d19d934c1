import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, expect } from 'vitest';
import type { Bindings } from '../../src/server/env';
import worker from '../../src/server/index';
import type { User } from '../../src/shared/session';

// How the Workers tests talk to the worker, in one place: every request runs the worker's fetch
// handler through dispatch() (a raw Request, req() for a path, websocket() for an upgrade), and
// Client is a browser-like client on top of it with a cookie jar (CSRF cookie and header, session
// and auth cookies) and its own client address (throttles count per address). Members, mails and
// tokens are in account-helpers.ts.

export const BASE = 'http://localhost';

/** The operator API's headers (OPS_TOKEN in vitest.workers.config.ts). */
export const OPS = { Authorization: 'Bearer test-ops-token', 'Content-Type': 'application/json' };

export type Json = Record<string, unknown>;
export interface ErrorBody {
  message: string;
  errors?: Record<string, string[]>;
}

/** A documentation-range address per client, so throttling of one test never touches another. */
export function uniqueIp(): string {
  const n = Math.floor(Math.random() * 0xffffff);
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

export function setCookies(res: Response): string[] {
  const h = res.headers as Headers & { getSetCookie?: () => string[] };
  if (typeof h.getSetCookie === 'function') return h.getSetCookie();
  const one = res.headers.get('Set-Cookie');
  return one ? [one] : [];
}

async function run(request: Request, bindings: typeof env): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await worker.fetch(request, bindings, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

/**
 * Runs the worker's fetch handler (the default export of src/server/index.ts) on a request, with
 * the test bindings and its own execution context, whose waitUntil work is awaited too.
 *
 * Not `exports.default.fetch`: in @cloudflare/vitest-pool-workers each request through the
 * entrypoint gets slower as the number of requests in the workerd instance grows (about 3 ms for
 * the first hundred, over 100 ms per request after five hundred; cloudflare/workers-sdk#15446),
 * and these files send thousands.
 */
export function dispatch(request: Request): Promise<Response> {
  return run(request, env);
}

/** The worker with other bindings (production without PUBLIC_ORIGIN, development, ...). */
export function dispatchWith(bindings: Partial<Bindings>, request: Request): Promise<Response> {
  return run(request, { ...env, ...bindings } as typeof env);
}

/** A request to the worker for `path` (no cookies but those in `init`). */
export function req(path: string, init: RequestInit = {}): Promise<Response> {
  return dispatch(new Request(`${BASE}${path}`, init));
}

/** A WebSocket upgrade of `path` (101 with `webSocket` when taken; the socket still needs accept()). */
export function websocket(path: string, headers: Record<string, string> = {}): Promise<Response> {
  return req(path, { headers: { Upgrade: 'websocket', ...headers } });
}

/**
 * Sockets a test leaves open (it failed before closing them) are closed after it: they hold
 * slots of the lobby's shards that later tests need. Call once at a file's top level; it answers
 * the function to hand each accepted socket to.
 */
export function closeSocketsAfterEach(): (ws: WebSocket) => WebSocket {
  const opened: WebSocket[] = [];
  afterEach(() => {
    for (const ws of opened.splice(0)) {
      try {
        ws.close(1000);
      } catch {
        // Closed by the test already.
      }
    }
  });
  return (ws) => {
    opened.push(ws);
    return ws;
  };
}

export interface SendOptions {
  method?: string;
  /** Serialised as JSON unless a string (sent as is). */
  body?: unknown;
  headers?: Record<string, string>;
  /** false: leave out the X-XSRF-TOKEN header (cookies as they are; no CSRF cookie is fetched). */
  csrf?: boolean;
  contentType?: string | null;
}

export class Client {
  readonly jar = new Map<string, string>();
  constructor(readonly ip: string = uniqueIp()) {}

  get cookieHeader(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  cookie(name: string): string | undefined {
    return this.jar.get(name);
  }

  /** A copy with the same cookies (another browser tab, or a stolen cookie jar). */
  clone(): Client {
    const c = new Client(this.ip);
    for (const [k, v] of this.jar) c.jar.set(k, v);
    return c;
  }

  absorb(res: Response): void {
    for (const line of setCookies(res)) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq < 1) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a)) || attrs.some((a) => /^\s*expires=.*1970/i.test(a));
      if (expired || value === '') this.jar.delete(name);
      else this.jar.set(name, value);
    }
  }

  async fetch(path: string, opts: SendOptions = {}): Promise<Response> {
    const method = opts.method ?? (opts.body === undefined ? 'GET' : 'POST');
    const headers: Record<string, string> = { 'CF-Connecting-IP': this.ip, ...(opts.headers ?? {}) };
    const unsafe = !['GET', 'HEAD', 'OPTIONS'].includes(method);
    if (unsafe && opts.csrf !== false && !this.jar.has('XSRF-TOKEN')) await this.csrf();
    if (unsafe && opts.csrf !== false) headers['X-XSRF-TOKEN'] = this.jar.get('XSRF-TOKEN') ?? '';
    if (this.jar.size) headers.Cookie = this.cookieHeader;
    let body: BodyInit | undefined;
    if (opts.body !== undefined) {
      body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
      if (opts.contentType !== null) headers['Content-Type'] = opts.contentType ?? 'application/json';
    }
    const res = await req(path, { method, headers, body });
    this.absorb(res);
    return res;
  }

  async csrf(): Promise<void> {
    const res = await this.fetch('/api/auth/csrf-cookie');
    expect(res.status).toBe(204);
    expect(this.jar.get('XSRF-TOKEN')).toBeTruthy();
  }

  get(path: string, headers?: Record<string, string>) {
    return this.fetch(path, { headers });
  }
  post(path: string, body: unknown = undefined, opts: Omit<SendOptions, 'body' | 'method'> = {}) {
    return this.fetch(path, { ...opts, method: 'POST', body });
  }
  put(path: string, body: unknown, opts: Omit<SendOptions, 'body' | 'method'> = {}) {
    return this.fetch(path, { ...opts, method: 'PUT', body });
  }
  del(path: string, opts: Omit<SendOptions, 'body' | 'method'> = {}) {
    return this.fetch(path, { ...opts, method: 'DELETE' });
  }

  login(username: string, password: string) {
    return this.post('/api/auth/login', { username, password });
  }

  async me(): Promise<User | null> {
    const res = await this.get('/api/auth/user');
    if (res.status === 401) return null;
    expect(res.status).toBe(200);
    return ((await res.json()) as { user: User }).user;
  }
}

/**
 * A session cookie, its CSRF cookie and the matching header, as the client API layer sends them
 * (the token is bound to the session: it passes only together with that lc_sid). Fetched without
 * a client address, as the requests of req() that use it are sent.
 */
export async function csrf(): Promise<{ cookie: string; token: string; headers: Record<string, string> }> {
  const jar = new Client();
  jar.absorb(await req('/api/auth/csrf-cookie'));
  const token = jar.cookie('XSRF-TOKEN') ?? '';
  const cookie = [...jar.jar]
    .filter(([name]) => name === 'lc_sid' || name === 'XSRF-TOKEN')
    .map(([name, value]) => `${name}=${value}`)
    .join('; ');
  return { cookie, token, headers: { Cookie: cookie, 'X-XSRF-TOKEN': token } };
}

/** A JSON write of `client` (its cookies and CSRF token) to `url`, with other bindings. */
export async function writeWith(bindings: Partial<Bindings>, client: Client, url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  if (!client.cookie('XSRF-TOKEN')) await client.csrf();
  return dispatchWith(
    bindings,
    new Request(url, {
      method: 'POST',
      headers: {
        Cookie: client.cookieHeader,
        'X-XSRF-TOKEN': client.cookie('XSRF-TOKEN') ?? '',
        'Content-Type': 'application/json',
        'CF-Connecting-IP': client.ip,
        ...headers,
      },
      body: JSON.stringify(body),
    }),
  );
}

/** Reads a JSON body and checks the status at the same time (message shows the body). */
export async function expectJson<T = Json>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  expect(res.status, `${res.url} -> ${text.slice(0, 500)}`).toBe(status);
  return (text ? JSON.parse(text) : null) as T;
}

/**
 * The error shape of the contract: { message, errors? } and nothing else, but for the facts a
 * refusal names for its page: the address of a login that waits for its confirmation (email), and
 * a restricted account's kind and end (restriction, ends_at: the login form says until when).
 */
export function expectErrorShape(body: unknown): asserts body is ErrorBody {
  expect(body).toBeTypeOf('object');
  const b = body as Json;
  expect(typeof b.message).toBe('string');
  expect((b.message as string).length).toBeGreaterThan(0);
  for (const key of Object.keys(b)) expect(['message', 'errors', 'email', 'restriction', 'ends_at']).toContain(key);
  if (b.errors !== undefined) {
    expect(b.errors).toBeTypeOf('object');
    for (const codes of Object.values(b.errors as Json)) {
      expect(Array.isArray(codes)).toBe(true);
      for (const code of codes as unknown[]) expect(typeof code).toBe('string');
    }
  }
}

export async function expectError(res: Response, status: number, message: string, field?: [string, string]): Promise<ErrorBody> {
  const body = await expectJson<ErrorBody>(res, status);
  expectErrorShape(body);
  expect(body.message).toBe(message);
  if (field) expect(body.errors?.[field[0]], JSON.stringify(body)).toContain(field[1]);
  return body;
}
