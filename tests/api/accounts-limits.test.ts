import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import { LOGIN_LIMIT_ACCOUNT, LOGIN_LIMIT_IP, NICKNAME_LIMIT } from '../../src/server/features/account/account.service';
import { count, DEMO, registerMember, uniq } from './account-helpers';
import { Client, expectError, expectJson, uniqueIp } from './helpers';

// Issue 9 point 3: every limit holds under a burst of 100 parallel requests, exactly. A slot is
// reserved (atomic counter) before the password hash is checked or the row is written.

vi.setConfig({ testTimeout: 120_000 });

const BURST = 100;

/** Fresh clients that already hold their CSRF cookie, so the burst itself is only the call under test. */
async function clients(n: number, ip?: string): Promise<Client[]> {
  const list = Array.from({ length: n }, () => new Client(ip ?? uniqueIp()));
  await Promise.all(list.map((c) => c.csrf()));
  return list;
}

function tally(statuses: number[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const s of statuses) out[s] = (out[s] ?? 0) + 1;
  return out;
}

/** Status of each response; every 429 must say when to come back. */
async function settle(responses: Response[]): Promise<number[]> {
  return Promise.all(
    responses.map(async (res) => {
      const body = (await res.json()) as { message: string };
      if (res.status === 429) {
        expect(body.message).toBe('too_many_attempts');
        expect(Number(res.headers.get('Retry-After'))).toBeGreaterThan(0);
      }
      if (res.status === 401) expect(body.message).toBe('unknown_credentials');
      return res.status;
    }),
  );
}

describe('login throttle under a burst of 100 parallel guesses', () => {
  it('per account: exactly 8 wrong passwords are checked, 92 get 429; then the right password does not get in, inside a burst or alone', async () => {
    const m = await registerMember();
    // Every guess from another address: only the account's counter can stop them.
    const attackers = await clients(BURST);
    const statuses = await settle(await Promise.all(attackers.map((a, i) => a.login(m.name, `wrong-guess-${i}`))));
    expect(tally(statuses)).toEqual({ 401: LOGIN_LIMIT_ACCOUNT, 429: BURST - LOGIN_LIMIT_ACCOUNT });

    // A second burst with the right password among the wrong ones: nothing is checked any more.
    const second = await clients(BURST);
    const tries = second.map((a, i) => (i === 57 ? a.login(m.email, m.password) : a.login(m.name, `wrong-again-${i}`)));
    expect(tally(await settle(await Promise.all(tries)))).toEqual({ 429: BURST });
    expect(second[57].cookie('auth._token')).toBeUndefined();
    await expectError(await new Client().login(m.name, m.password), 429, 'too_many_attempts');
  });

  it('per address: exactly 40 failures are checked from one address, 60 get 429; the right password is refused there, not elsewhere', async () => {
    const ip = uniqueIp();
    const attackers = await clients(BURST, ip);
    const statuses = await settle(await Promise.all(attackers.map((a) => a.login(`nobody-${uniq()}`, 'some-password-1'))));
    expect(tally(statuses)).toEqual({ 401: LOGIN_LIMIT_IP, 429: BURST - LOGIN_LIMIT_IP });
    await expectError(await new Client(ip).login(DEMO.name, DEMO.password), 429, 'too_many_attempts');
    await expectJson(await new Client().login(DEMO.name, DEMO.password), 200);
  });

  it("a right password clears the account's failures, not the address's: 39 failures and an own login leave that address one more", async () => {
    const m = await registerMember();
    const ip = uniqueIp();
    const attackers = await clients(LOGIN_LIMIT_IP - 1, ip);
    const statuses = await settle(await Promise.all(attackers.map((a) => a.login(`nobody-${uniq()}`, 'some-password-1'))));
    expect(tally(statuses)).toEqual({ 401: LOGIN_LIMIT_IP - 1 });
    // Logging into an own account from that address buys it no new guesses.
    await expectJson(await new Client(ip).login(m.name, m.password), 200);
    await expectError(await new Client(ip).login(`nobody-${uniq()}`, 'some-password-1'), 401, 'unknown_credentials');
    await expectError(await new Client(ip).login(`nobody-${uniq()}`, 'some-password-1'), 429, 'too_many_attempts');
    // The account's own failures are forgotten after its member got in.
    for (let i = 0; i < LOGIN_LIMIT_ACCOUNT - 1; i++) await expectError(await new Client().login(m.name, `wrong-${i}`), 401, 'unknown_credentials');
    await expectJson(await new Client().login(m.email, m.password), 200);
    const next = await settle(await Promise.all((await clients(20)).map((a, i) => a.login(m.name, `wrong-next-${i}`))));
    expect(tally(next)).toEqual({ 401: LOGIN_LIMIT_ACCOUNT, 429: 20 - LOGIN_LIMIT_ACCOUNT });
  });
});

describe('current-password check of user/update under a burst', () => {
  it('exactly 8 wrong current passwords are checked of 100 parallel changes; the rest and then the right one get 429; nothing changes', async () => {
    const m = await registerMember();
    await m.client.csrf();
    const before = await env.DB.prepare('SELECT password_hash, email FROM users WHERE id = ?').bind(m.id).first<{ password_hash: string; email: string }>();
    const change = (current: string) =>
      m.client.put('/api/user/update', { password: 'brand-new-pass-1', password_confirm: 'brand-new-pass-1', current_password: current });
    const responses = await Promise.all(Array.from({ length: BURST }, (_, i) => change(`wrong-current-${i}`)));
    const statuses = await Promise.all(
      responses.map(async (res) => {
        const body = (await res.json()) as { message: string; errors?: Record<string, string[]> };
        if (res.status === 422) expect(body.errors?.current_password).toEqual(['wrong_password']);
        if (res.status === 429) {
          expect(body.message).toBe('too_many_attempts');
          expect(Number(res.headers.get('Retry-After'))).toBeGreaterThan(0);
        }
        return res.status;
      }),
    );
    expect(tally(statuses)).toEqual({ 422: 8, 429: BURST - 8 });
    await expectError(await change(m.password), 429, 'too_many_attempts');
    const after = await env.DB.prepare('SELECT password_hash, email FROM users WHERE id = ?').bind(m.id).first();
    expect(after).toEqual(before);
  });
});

describe('nickname count under a burst', () => {
  it('100 parallel adds of different nicknames create exactly 10; the others get 422 nickname_limit', async () => {
    const m = await registerMember({ verified: true });
    await m.client.csrf();
    const names = Array.from({ length: BURST }, () => `n${uniq()}`.slice(0, 15));
    expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(BURST);
    const responses = await Promise.all(names.map((nickname) => m.client.post('/api/user/nickname/add', { nickname })));
    const statuses = await Promise.all(
      responses.map(async (res) => {
        const body = (await res.json()) as { errors?: Record<string, string[]> };
        if (res.status === 422) expect(body.errors?.nickname).toEqual(['nickname_limit']);
        return res.status;
      }),
    );
    expect(tally(statuses)).toEqual({ 200: NICKNAME_LIMIT, 422: BURST - NICKNAME_LIMIT });
    expect(await count('nicknames', 'user_id = ?', m.id)).toBe(NICKNAME_LIMIT);
    const me = await m.client.me();
    expect(me?.nicknames.data).toHaveLength(NICKNAME_LIMIT);
    expect(me?.nicknames.data.map((n) => n.id)).toContain(me?.nicknames.current_nickname);
  });

  it('100 parallel adds of the same nickname by different members: exactly one gets it', async () => {
    const members = await Promise.all(Array.from({ length: 10 }, () => registerMember({ verified: true })));
    await Promise.all(members.map((mm) => mm.client.csrf()));
    const nickname = `s${uniq()}`.slice(0, 15);
    const responses = await Promise.all(Array.from({ length: BURST }, (_, i) => members[i % members.length].client.post('/api/user/nickname/add', { nickname })));
    expect(tally(responses.map((r) => r.status))).toEqual({ 200: 1, 422: BURST - 1 });
    expect(await count('nicknames', 'nickname = ?', nickname)).toBe(1);
  });
});
