import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import type { Bindings } from '../../src/server/env';
import worker from '../../src/server/index';
import type { Session, User } from '../../src/shared/session';
import type { StoredMail } from '../../src/shared/mail';

// Helpers for the account API tests: a browser-like client with a cookie jar (CSRF cookie and
// header, session and auth cookies), its own client address (the login throttle counts per
// address), unique member data, and access to the mails the StoredMailer keeps in D1.

export const BASE = 'http://localhost';
export const DEMO = { name: 'demo', email: 'demo@example.com', password: 'demo-pass-2026' };
export const PASSWORD = 'correct-horse-42';

export type Json = Record<string, unknown>;
export interface ErrorBody {
  message: string;
  errors?: Record<string, string[]>;
}

let counter = 0;
/** Short unique suffix: letters and digits only (fits usernames and nicknames). */
export function uniq(): string {
  counter++;
  return `${Date.now().toString(36).slice(-5)}${counter.toString(36)}${Math.floor(Math.random() * 36 ** 3).toString(36)}`;
}

export function uniqueEmail(prefix = 'm'): string {
  return `${prefix}-${uniq()}@example.org`;
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

/**
 * Runs the worker's fetch handler (the default export of src/server/index.ts) on a request, with
 * the test bindings and its own execution context, whose waitUntil work is awaited too.
 *
 * Not `exports.default.fetch`: in @cloudflare/vitest-pool-workers each request through the
 * entrypoint gets slower as the number of requests in the workerd instance grows (about 3 ms for
 * the first hundred, over 100 ms per request after five hundred; cloudflare/workers-sdk#15446),
 * and these files send thousands.
 */
export async function dispatch(request: Request): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await worker.fetch(request, env, ctx);
  await waitOnExecutionContext(ctx);
  return res;
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
    const res = await dispatch(new Request(`${BASE}${path}`, { method, headers, body }));
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

/** Reads a JSON body and checks the status at the same time (message shows the body). */
export async function expectJson<T = Json>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  expect(res.status, `${res.url} -> ${text.slice(0, 500)}`).toBe(status);
  return (text ? JSON.parse(text) : null) as T;
}

/** The error shape of the contract: { message, errors? } and nothing else. */
export function expectErrorShape(body: unknown): asserts body is ErrorBody {
  expect(body).toBeTypeOf('object');
  const b = body as Json;
  expect(typeof b.message).toBe('string');
  expect((b.message as string).length).toBeGreaterThan(0);
  for (const key of Object.keys(b)) expect(['message', 'errors', 'email']).toContain(key);
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

export interface Member {
  client: Client;
  id: number;
  name: string;
  email: string;
  password: string;
}

/** Registers a fresh member through the API (logged in on its client, unverified). */
export async function registerMember(opts: { verified?: boolean; password?: string; name?: string; client?: Client } = {}): Promise<Member> {
  const client = opts.client ?? new Client();
  const email = uniqueEmail();
  const name = opts.name ?? `u${uniq()}`;
  const password = opts.password ?? PASSWORD;
  const res = await client.post('/api/register', { email, password, username: name, terms_check: true });
  const body = await expectJson<{ user: User; session: Session }>(res, 201);
  if (opts.verified) await env.DB.prepare('UPDATE users SET is_verified = 1 WHERE id = ?').bind(body.user.id).run();
  return { client, id: body.user.id, name, email, password };
}

export async function mailsTo(address: string): Promise<StoredMail[]> {
  const { results } = await env.DB.prepare('SELECT * FROM mails WHERE to_addr = ? ORDER BY id DESC').bind(address).all<StoredMail>();
  return results;
}

export async function lastMail(address: string, kind?: string): Promise<StoredMail> {
  const mails = (await mailsTo(address)).filter((m) => !kind || m.kind === kind);
  expect(mails.length, `no ${kind ?? ''} mail to ${address}`).toBeGreaterThan(0);
  return mails[0];
}

/** The token of the link in the newest mail of that kind (verify: ?token=..., reset: /users/reset/...). */
export async function mailedToken(address: string, kind: 'verify' | 'reset'): Promise<string> {
  const mail = await lastMail(address, kind);
  const re = kind === 'verify' ? /\/users\/activate\?token=([A-Za-z0-9_-]+)/ : /\/users\/reset\/([A-Za-z0-9_-]+)/;
  const token = re.exec(mail.text)?.[1];
  expect(token, mail.text).toBeTruthy();
  // The HTML part carries the same link.
  expect(mail.html).toContain(token);
  return token as string;
}

export async function count(table: string, where = '1 = 1', ...params: unknown[]): Promise<number> {
  const row = await env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE ${where}`)
    .bind(...params)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** Row counts of the tables that bad input must never change. */
export const GUARDED_TABLES = ['users', 'nicknames', 'user_tokens', 'mails', 'auth_tokens', 'coupons', 'user_logs'] as const;

export async function counts(tables: readonly string[] = GUARDED_TABLES): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const results = await env.DB.batch(tables.map((t) => env.DB.prepare(`SELECT COUNT(*) AS n FROM ${t}`)));
  tables.forEach((t, i) => (out[t] = (results[i].results[0] as { n: number }).n));
  return out;
}

export async function userRow(id: number): Promise<Json | null> {
  return env.DB.prepare('SELECT * FROM users WHERE id = ?').bind(id).first<Json>();
}

export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Puts a one-time token straight into user_tokens (kinds no route issues yet, e.g. 'login'). */
export async function insertToken(userId: number, kind: 'verify' | 'reset' | 'login', expiresIn = 900): Promise<string> {
  const token = `tok${uniq()}${crypto.randomUUID().replace(/-/g, '')}`;
  const now = Math.floor(Date.now() / 1000);
  // Mailed to the member's address as it is now (a link works only while the account has it).
  await env.DB.prepare('INSERT INTO user_tokens (token_hash, user_id, kind, expires_at, created_at, email) VALUES (?, ?, ?, ?, ?, (SELECT email FROM users WHERE id = ?))')
    .bind(await sha256Hex(token), userId, kind, now + expiresIn, now, userId)
    .run();
  return token;
}

/** The worker with other bindings (production without PUBLIC_ORIGIN, development, ...). */
export async function dispatchWith(bindings: Partial<Bindings>, request: Request): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await worker.fetch(request, { ...env, ...bindings } as typeof env, ctx);
  await waitOnExecutionContext(ctx);
  return res;
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
