import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import type { Session, User } from '../../src/shared/session';
import type { StoredMail } from '../../src/shared/mail';
import { Client, expectJson, type Json } from './helpers';

// Members for the API tests: unique member data, members registered through the API, and access
// to the rows they leave (the mails the StoredMailer keeps in D1, one-time tokens, row counts).
// Requests go through tests/api/helpers.ts.

export const DEMO = { name: 'demo', email: 'demo@example.com', password: 'demo-pass-2026' };
export const PASSWORD = 'correct-horse-42';

let counter = 0;
/** Short unique suffix: letters and digits only (fits usernames and nicknames). */
export function uniq(): string {
  counter++;
  return `${Date.now().toString(36).slice(-5)}${counter.toString(36)}${Math.floor(Math.random() * 36 ** 3).toString(36)}`;
}

export function uniqueEmail(prefix = 'm'): string {
  return `${prefix}-${uniq()}@example.org`;
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
