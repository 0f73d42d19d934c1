import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import type { Bindings } from '../../src/server/env';
import { COUPON_CHECKS_PER_ADDRESS, MAIL_PER_ADDRESS, MAIL_PER_RECIPIENT, perAddress, SIGNUPS_PER_ADDRESS, TOKEN_TRIES_PER_ADDRESS } from '../../src/server/lib/limits';
import { count, counts, DEMO, mailsTo, PASSWORD, registerMember, uniq, uniqueEmail } from './account-helpers';
import { Client, expectError, expectJson, req, uniqueIp } from './helpers';

// Issue 9 point 10: every anonymous write has a size cap and a rate per client address, and
// mails are capped per recipient and per client address per hour. Oversize bodies are refused
// (413) and never stored; the write after the last allowed one in the window is a 429 with
// Retry-After, also when all of them arrive at once.

vi.setConfig({ testTimeout: 120_000 });

const USER_LOGS_PER_ADDRESS = 30;
const CLIENT_LOGS_PER_ADDRESS = 120;

function tally(statuses: number[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const s of statuses) out[s] = (out[s] ?? 0) + 1;
  return out;
}

async function expect429(res: Response): Promise<void> {
  await expectError(res, 429, 'too_many_attempts');
  expect(Number(res.headers.get('Retry-After'))).toBeGreaterThan(0);
}

/** Status of every response; each 429 carries Retry-After. */
async function statusesOf(responses: Response[]): Promise<number[]> {
  for (const res of responses) {
    if (res.status === 429) expect(Number(res.headers.get('Retry-After')), 'Retry-After').toBeGreaterThan(0);
    await res.arrayBuffer();
  }
  return responses.map((r) => r.status);
}

describe('POST user/log (anonymous, stored)', () => {
  it('refuses oversize bodies with 413 and stores nothing, with or without Content-Length', async () => {
    const client = new Client();
    await client.csrf();
    const before = await count('user_logs');
    for (const size of [9 * 1024, 1024 * 1024, 10 * 1024 * 1024]) {
      const body = JSON.stringify({ version: '1.0.0', errors: ['x'.repeat(size)] });
      await expectError(await client.post('/api/user/log', body), 413, 'payload_too_large');
    }
    // A streamed body (no Content-Length) is cut off as well.
    const chunk = new TextEncoder().encode(`{"version":"1","errors":["${'y'.repeat(64 * 1024)}`);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 16) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const res = await req('/api/user/log', {
      method: 'POST',
      body: stream,
      headers: { 'Content-Type': 'application/json', 'CF-Connecting-IP': client.ip, Cookie: client.cookieHeader, 'X-XSRF-TOKEN': client.cookie('XSRF-TOKEN') ?? '' },
    });
    await expectError(res, 413, 'payload_too_large');
    expect(await count('user_logs')).toBe(before);
    // A row of a normal size is still taken.
    expect((await client.post('/api/user/log', { version: '1.0.0', errors: [{ message: 'boom' }] })).status).toBe(204);
    expect(await count('user_logs')).toBe(before + 1);
  });

  it(`stores at most ${USER_LOGS_PER_ADDRESS} rows per address and hour, also from 100 parallel writes; other addresses are unaffected`, async () => {
    const ip = uniqueIp();
    const clients = Array.from({ length: 100 }, () => new Client(ip));
    await Promise.all(clients.map((c) => c.csrf()));
    const version = `v-${uniq()}`;
    const statuses = await statusesOf(await Promise.all(clients.map((c) => c.post('/api/user/log', { version, errors: ['e'] }))));
    expect(tally(statuses)).toEqual({ 204: USER_LOGS_PER_ADDRESS, 429: 100 - USER_LOGS_PER_ADDRESS });
    expect(await count('user_logs', 'version = ?', version)).toBe(USER_LOGS_PER_ADDRESS);
    await expect429(await new Client(ip).post('/api/user/log', { version, errors: [] }));
    expect((await new Client().post('/api/user/log', { version, errors: [] })).status).toBe(204);
  });
});

describe('POST log (client error log, anonymous)', () => {
  it(`takes ${CLIENT_LOGS_PER_ADDRESS} batches per address and hour, then 429; oversize batches are 413`, async () => {
    const ip = uniqueIp();
    const clients = Array.from({ length: 150 }, () => new Client(ip));
    await Promise.all(clients.map((c) => c.csrf()));
    const entry = { created: Date.now(), message: 'boom', level: 1 };
    const statuses = await statusesOf(await Promise.all(clients.map((c) => c.post('/api/log', { entries: [entry] }))));
    expect(tally(statuses)).toEqual({ 204: CLIENT_LOGS_PER_ADDRESS, 429: 150 - CLIENT_LOGS_PER_ADDRESS });
    const big = { entries: [{ ...entry, objects: ['z'.repeat(1024 * 1024)] }] };
    await expectError(await new Client().post('/api/log', big), 413, 'payload_too_large');
  });
});

describe('POST register (password-less sign-ups send a mail each)', () => {
  it(`${SIGNUPS_PER_ADDRESS} sign-ups per address and hour, also from 30 parallel ones; the refused ones store nothing and mail nobody`, async () => {
    const ip = uniqueIp();
    const clients = Array.from({ length: 30 }, () => new Client(ip));
    await Promise.all(clients.map((c) => c.csrf()));
    const emails = clients.map(() => uniqueEmail('burst'));
    const responses = await Promise.all(clients.map((c, i) => c.post('/api/register', { email: emails[i], terms_check: true })));
    const statuses = await statusesOf(responses);
    expect(tally(statuses)).toEqual({ 201: SIGNUPS_PER_ADDRESS, 429: 30 - SIGNUPS_PER_ADDRESS });
    const stored = await Promise.all(emails.map((e) => count('users', 'email = ?', e)));
    const mailed = await Promise.all(emails.map(async (e) => (await mailsTo(e)).length));
    statuses.forEach((s, i) => {
      expect(stored[i], emails[i]).toBe(s === 201 ? 1 : 0);
      expect(mailed[i], emails[i]).toBe(s === 201 ? 1 : 0);
    });
    await expect429(await new Client(ip).post('/api/register', { email: uniqueEmail(), terms_check: true }));
    // Another address signs up fine.
    await expectJson(await new Client().post('/api/register', { email: uniqueEmail(), terms_check: true }), 201);
  });

  it('refuses an oversize body with 413 and stores nothing', async () => {
    const email = uniqueEmail();
    const res = await new Client().post('/api/register', { email, terms_check: true, password: PASSWORD, padding: 'p'.repeat(1024 * 1024) });
    await expectError(res, 413, 'payload_too_large');
    expect(await count('users', 'email = ?', email)).toBe(0);
  });
});

describe('mail caps per hour', () => {
  it(`at most ${MAIL_PER_ADDRESS} mails caused from one client address, also from 30 parallel reset requests`, async () => {
    // 15 members (registered from their own addresses), two reset requests each from one address.
    const members = await Promise.all(Array.from({ length: 15 }, () => registerMember()));
    const ip = uniqueIp();
    const clients = Array.from({ length: 30 }, () => new Client(ip));
    await Promise.all(clients.map((c) => c.csrf()));
    const responses = await Promise.all(clients.map((c, i) => c.post('/api/auth/send', { email: members[i % members.length].email })));
    expect(tally(await statusesOf(responses))).toEqual({ 200: MAIL_PER_ADDRESS, 429: 30 - MAIL_PER_ADDRESS });
    const resetMails = (await Promise.all(members.map(async (m) => (await mailsTo(m.email)).filter((x) => x.kind === 'reset').length))).reduce((a, b) => a + b, 0);
    expect(resetMails).toBe(MAIL_PER_ADDRESS);
  });

  it(`at most ${MAIL_PER_RECIPIENT} mails to one recipient, whoever causes them: the next address change to it is 429 and changes nothing`, async () => {
    const m = await registerMember();
    const victim = uniqueEmail('victim');
    /** The member's session from a new address each time, so only the recipient's cap can stop it. */
    const fromNewAddress = () => {
      const c = new Client(uniqueIp());
      for (const [k, v] of m.client.jar) c.jar.set(k, v);
      return c;
    };
    const change = (email: string) => fromNewAddress().put('/api/user/update', { email, current_password: m.password });
    for (let i = 0; i < MAIL_PER_RECIPIENT; i++) {
      await expectJson(await change(victim), 200);
      await expectJson(await change(uniqueEmail('away')), 200);
    }
    expect((await mailsTo(victim)).length).toBe(MAIL_PER_RECIPIENT);
    const parked = (await env.DB.prepare('SELECT email FROM users WHERE id = ?').bind(m.id).first<{ email: string }>())?.email;
    await expect429(await change(victim));
    expect((await mailsTo(victim)).length).toBe(MAIL_PER_RECIPIENT);
    expect((await env.DB.prepare('SELECT email FROM users WHERE id = ?').bind(m.id).first<{ email: string }>())?.email).toBe(parked);
  });

  it('ADDRESS_LIMIT_FACTOR raises per-address limits outside production only', () => {
    const base = { DB: env.DB } as unknown as Bindings;
    expect(perAddress({ ...base, ENVIRONMENT: 'production', ADDRESS_LIMIT_FACTOR: '100' }, 10)).toBe(10);
    expect(perAddress({ ...base, ADDRESS_LIMIT_FACTOR: '100' }, 10)).toBe(10);
    expect(perAddress({ ...base, ENVIRONMENT: 'development', ADDRESS_LIMIT_FACTOR: '100' }, 10)).toBe(1000);
    expect(perAddress({ ...base, ENVIRONMENT: 'development', ADDRESS_LIMIT_FACTOR: 'lots' }, 10)).toBe(10);
    expect(perAddress({ ...base, ENVIRONMENT: 'test' }, 10)).toBe(10);
  });
});

describe('the other anonymous writes: a rate per address and a size cap each', () => {
  const SESSION_WRITES = 300;
  const token = () => `t${uniq()}${'x'.repeat(40)}`;
  // [route, a valid-looking body, the per-address limit of its counter, the status of an allowed call]
  const ROUTES: [string, (i: number) => unknown, number, number][] = [
    ['/api/session/vid', (i) => ({ vid: `visitor-${i}-${uniq()}`, confidence: 0.5 }), SESSION_WRITES, 200],
    ['/api/auth/send', () => ({ email: `nobody-${uniq()}@example.org` }), 30, 422],
    ['/api/auth/token_login', () => ({ token: token() }), TOKEN_TRIES_PER_ADDRESS, 422],
    ['/api/register/coupon', () => ({ code: `NOPE${uniq()}` }), COUPON_CHECKS_PER_ADDRESS, 422],
  ];

  for (const [path, body, limit, allowed] of ROUTES) {
    it(`${path}: ${limit} per address and hour from a parallel burst, then 429 with Retry-After`, async () => {
      const ip = uniqueIp();
      const clients = Array.from({ length: limit + 10 }, () => new Client(ip));
      await Promise.all(clients.map((c) => c.csrf()));
      const statuses = await statusesOf(await Promise.all(clients.map((c, i) => c.post(path, body(i)))));
      expect(tally(statuses)).toEqual({ [allowed]: limit, 429: 10 });
    });
  }

  it('the mailed-token routes share one counter per address (reset, login link, verification)', async () => {
    const client = new Client();
    await client.csrf();
    const paths = ['/api/auth/reset', '/api/auth/token_login', '/api/register/validate'];
    for (let i = 0; i < TOKEN_TRIES_PER_ADDRESS; i++) {
      const res = await client.post(paths[i % 3], { token: token(), password: 'long-enough-1', password_confirm: 'long-enough-1' });
      expect(res.status).toBe(422);
      await res.arrayBuffer();
    }
    for (const path of paths) await expect429(await client.post(path, { token: token(), password: 'long-enough-1', password_confirm: 'long-enough-1' }));
  });

  it('every anonymous write refuses a 1 MB body with 413 and stores nothing', async () => {
    const start = await counts();
    const sessions = await count('sessions');
    const big = 'b'.repeat(1024 * 1024);
    const writes: [string, unknown][] = [
      ['/api/user/log', { version: '1', errors: [big] }],
      ['/api/log', { entries: [{ created: 1, message: 'm', objects: [big] }] }],
      ['/api/register', { email: uniqueEmail(), terms_check: true, big }],
      ['/api/register/coupon', { code: 'WELCOME50', big }],
      ['/api/register/validate', { token: token(), big }],
      ['/api/auth/send', { email: DEMO.email, big }],
      ['/api/auth/reset', { token: token(), password: big, password_confirm: big }],
      ['/api/auth/token_login', { token: token(), big }],
      ['/api/auth/login', { username: 'demo', password: big }],
      ['/api/session/splash18', { big }],
      ['/api/session/vid', { vid: 'visitor-1234567', confidence: 0.5, big }],
      ['/api/session/welcome_shown', { big }],
      ['/api/session/incentive_tsp', { incentive_tsp: 1_800_000_000, big }],
    ];
    for (const [path, body] of writes) {
      const client = new Client();
      await client.csrf();
      await expectError(await client.post(path, body), 413, 'payload_too_large');
    }
    expect(await counts()).toEqual(start);
    expect(await count('sessions')).toBe(sessions);
  });
});
