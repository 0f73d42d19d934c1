import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { insertToken, registerMember } from './account-helpers';
import { Client, expectError, expectJson } from './helpers';

describe('account hardening', () => {
  it('a password change ends the other logins of the account, not this one', async () => {
    const m = await registerMember();
    const other = new Client();
    await expectJson(await other.login(m.email, m.password), 200);
    expect(await other.me()).not.toBeNull();
    const res = await m.client.fetch('/api/user/update', {
      method: 'PUT',
      body: { password: 'a-new-password-1', password_confirm: 'a-new-password-1', current_password: m.password },
    });
    await expectJson(res, 200);
    expect(await m.client.me()).not.toBeNull();
    expect(await other.me()).toBeNull();
  });

  it('guesses of the current password are throttled', async () => {
    const m = await registerMember();
    let last: Response | null = null;
    for (let i = 0; i < 9; i++) last = await m.client.post('/api/user/cancel', { password: `wrong-${i}` });
    await expectError(last!, 429, 'too_many_attempts');
    expect(last!.headers.get('Retry-After')).toMatch(/^\d+$/);
  });

  it('mailed links do not log in a blocked member', async () => {
    const m = await registerMember();
    await env.DB.prepare('UPDATE users SET blocked = 1 WHERE id = ?').bind(m.id).run();
    const token = await insertToken(m.id, 'login');
    const visitor = new Client();
    await expectError(await visitor.post('/api/auth/token_login', { token }), 422, 'user_blocked');
    expect(visitor.cookie('auth._token')).toBeUndefined();
  });

  it("another member's verification token is refused without being used up", async () => {
    const owner = await registerMember();
    const intruder = await registerMember();
    const token = await insertToken(owner.id, 'verify');
    await expectError(await intruder.client.post('/api/user/email_validate', { token }), 422, 'token_invalid');
    const ok = await expectJson<{ user: { is_verified: boolean } }>(await owner.client.post('/api/user/email_validate', { token }), 200);
    expect(ok.user.is_verified).toBe(true);
  });
});
