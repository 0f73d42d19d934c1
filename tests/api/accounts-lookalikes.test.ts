import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import de from '../../locales/de.json';
import en from '../../locales/en.json';
import { uniqueUsername } from '../../src/server/features/account/account.service';
import { USERNAME_PATTERN } from '../../src/shared/account-rules';
import type { User } from '../../src/shared/session';
import { count, DEMO, registerMember, uniq, uniqueEmail } from './account-helpers';
import { Client, expectError, expectJson } from './helpers';

// Issue 9 point 11: nicknames and usernames are Latin letters, digits and ._- after NFKC, and
// "exists" is case-insensitive. So `dеmo` (Cyrillic е) and `ᴅᴇᴍᴏ` (small capitals) are refused
// by the pattern, and full-width `ｄｅｍｏ` becomes `demo`, which is taken.

const LOOKALIKES: [string, string][] = [
  ['d\u0435mo', 'pattern'], // Cyrillic small ie
  ['\uff44\uff45\uff4d\uff4f', 'taken'], // full-width, NFKC -> demo
  ['\u1d05\u1d07\u1d0d\u1d0f', 'pattern'], // small capitals
];

/** Latin letters typed in full width (NFKC turns them back into ASCII). */
const fullWidth = (s: string) => [...s].map((ch) => (/[a-z0-9]/i.test(ch) ? String.fromCharCode(ch.charCodeAt(0) + 0xfee0) : ch)).join('');

describe('lookalike nicknames', () => {
  it('dеmo, ｄｅｍｏ and ᴅᴇᴍᴏ cannot be added beside demo (422 field errors, nothing stored)', async () => {
    const m = await registerMember({ verified: true });
    for (const [nickname, why] of LOOKALIKES) {
      const res = await m.client.post('/api/user/nickname/add', { nickname });
      await expectError(res, 422, 'validation_failed', ['nickname', why === 'taken' ? 'nickname_taken' : 'nickname_pattern']);
    }
    expect(await count('nicknames', 'user_id = ?', m.id)).toBe(0);
  });

  it("a full-width or other-script copy of another member's nickname is refused; a full-width new one is stored in ASCII", async () => {
    const a = await registerMember({ verified: true });
    const b = await registerMember({ verified: true });
    const taken = `Shadow${uniq()}`.slice(0, 15);
    await expectJson(await a.client.post('/api/user/nickname/add', { nickname: taken }), 200);
    await expectError(await b.client.post('/api/user/nickname/add', { nickname: fullWidth(taken) }), 422, 'validation_failed', ['nickname', 'nickname_taken']);
    await expectError(await b.client.post('/api/user/nickname/add', { nickname: fullWidth(taken.toLowerCase()) }), 422, 'validation_failed', ['nickname', 'nickname_taken']);
    await expectError(await b.client.post('/api/user/nickname/add', { nickname: taken.replace('o', '\u043e') }), 422, 'validation_failed', ['nickname', 'nickname_pattern']);
    await expectError(await b.client.post('/api/user/nickname/add', { nickname: 'J\u00fcrgen' }), 422, 'validation_failed', ['nickname', 'nickname_pattern']);
    expect(await count('nicknames', 'user_id = ?', b.id)).toBe(0);

    const fresh = `wide${uniq()}`.slice(0, 15);
    const body = await expectJson<{ user: User }>(await b.client.post('/api/user/nickname/add', { nickname: fullWidth(fresh) }), 200);
    expect(body.user.nicknames.data.map((n) => n.nickname)).toEqual([fresh]);
  });
});

describe('lookalike usernames at sign-up', () => {
  it('dеmo, ｄｅｍｏ and ᴅᴇᴍᴏ cannot sign up beside demo (422 field errors, nothing stored)', async () => {
    for (const [username, why] of LOOKALIKES) {
      const email = uniqueEmail();
      const res = await new Client().post('/api/register', { email, password: 'long-enough-1', username, terms_check: true });
      await expectError(res, 422, 'validation_failed', ['username', why === 'taken' ? 'username_taken' : 'username_pattern']);
      expect(await count('users', 'email = ?', email)).toBe(0);
    }
    expect(await count('users', 'name = ?', DEMO.name)).toBe(1);
  });

  it('a full-width name is stored in ASCII; a name taken in another case is refused; derived names are Latin', async () => {
    const name = `wide${uniq()}`;
    const first = await expectJson<{ user: User }>(
      await new Client().post('/api/register', { email: uniqueEmail(), password: 'long-enough-1', username: fullWidth(name), terms_check: true }),
      201,
    );
    expect(first.user.name).toBe(name);
    await expectError(
      await new Client().post('/api/register', { email: uniqueEmail(), password: 'long-enough-1', username: name.toUpperCase(), terms_check: true }),
      422,
      'validation_failed',
      ['username', 'username_taken'],
    );
    // Without a username (or from Google) the name is derived: accents dropped, other scripts left out.
    const derived = await uniqueUsername(env.DB, `j\u00fcrgen.\u0434${uniq()}`);
    expect(derived).toMatch(USERNAME_PATTERN);
    expect(derived.startsWith('jurgen.')).toBe(true);
  });

  it('the pattern errors say so in English and German', () => {
    expect(en.errors.username_pattern).toContain('Latin letters (A–Z)');
    expect(en.errors.nickname_pattern).toContain('Latin letters (A–Z)');
    expect(de.errors.username_pattern).toContain('lateinische Buchstaben (A–Z)');
    expect(de.errors.nickname_pattern).toContain('lateinische Buchstaben (A–Z)');
  });
});
