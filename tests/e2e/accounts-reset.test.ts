import { afterEach, describe, expect, it } from 'vitest';
import { baseUrl, type Browser, call, open } from './browser';
import { clickThrough, startupWritesDone } from './accounts-helpers';
import { launchIn, mailLink, mails, MESSAGES, newMember, text, uniq } from './members';

// The reset runs in German (its mail and pages), the sign-up in English (accounts-signup.test.ts).
describe('password reset (de)', () => {
  const lang = 'de';
  const m = MESSAGES[lang];
  let b: Browser | undefined;
  let other: Browser | undefined;
  afterEach(async () => {
    await b?.close();
    await other?.close();
    b = undefined;
    other = undefined;
  });

  it('request -> mailed link -> new password -> logged in; the new password works, the old does not', async () => {
    b = await launchIn(lang);
    const page = b.page;
    const username = `e2e_rs_${lang}_${uniq()}`;
    const email = `${username}@example.com`;
    // Signed up unconfirmed, then logged out.
    await newMember(page, { email, username, password: 'first-password-1', verified: false });
    expect((await call(page, 'POST', 'auth/logout')).status).toBe(200);

    // Unknown accounts get the unknown-credentials text.
    await open(page, '/users/reset');
    expect(await text(page, 'main h1')).toBe(m.auth.reset.title);
    await page.fill('#reset-reset-login', `nobody-${username}`);
    await page.press('#reset-reset-login', 'Enter');
    await page.locator('[data-testid=reset-error]').waitFor();
    expect(await text(page, '[data-testid=reset-error]')).toBe(m.errors.unknown_credentials);

    // By username: the "sent" state, then the mail.
    await page.fill('#reset-reset-login', username);
    await page.click('form[data-form=reset-request] button[type=submit]');
    await page.locator('[data-state=sent]').waitFor();
    expect(await text(page, '[data-state=sent] h2')).toBe(m.auth.reset.sentTitle);
    const [mail] = await mails(email, { kind: 'reset', wait: 10_000 });
    expect(mail.subject).toBe(m.mail.reset.subject.replace('{{brand}}', m.common.brand));
    const link = mailLink(mail, '/users/reset/');

    other = await launchIn(lang);
    const p2 = other.page;
    await open(p2, link);
    expect(await text(p2, 'main h1')).toBe(m.auth.reset.newTitle);
    expect(await p2.getAttribute('#reset-password', 'autocomplete')).toBe('new-password');
    // Mismatch and too short are shown under the fields.
    await p2.fill('#reset-password', 'second-password-2');
    await p2.fill('#reset-confirm', 'something-else');
    await p2.press('#reset-confirm', 'Enter');
    expect(await text(p2, '[data-field=password_confirm] [role=alert]')).toBe(m.errors.password_mismatch);
    await p2.fill('#reset-password', 'short');
    await p2.fill('#reset-confirm', 'short');
    await p2.press('#reset-confirm', 'Enter');
    await p2.locator('[data-field=password] [role=alert]').waitFor();
    expect(await text(p2, '[data-field=password] [role=alert]')).toBe(m.errors.password_too_short);

    await p2.fill('#reset-password', 'second-password-2');
    await p2.fill('#reset-confirm', 'second-password-2');
    await p2.click('form[data-form=reset] button[type=submit]');
    await p2.locator('[data-state=done]').waitFor();
    expect(await text(p2, '[data-state=done] h2')).toBe(m.auth.reset.doneTitle);
    expect(await p2.locator('[data-state=done] .check-anim').count()).toBe(1);
    // Logged in by now: the top bar shows the member.
    expect(await text(p2, '[data-testid=member-name]')).toBe(username);
    await clickThrough(p2, '[data-state=done] a[data-action=next]');
    await p2.waitForURL(`${baseUrl()}/`);
    expect(await text(p2, '[data-testid=member-name]')).toBe(username);

    // The link is used up.
    await open(p2, link);
    await p2.fill('#reset-password', 'third-password-3');
    await p2.fill('#reset-confirm', 'third-password-3');
    await p2.click('form[data-form=reset] button[type=submit]');
    await p2.locator('[data-testid=reset-error]').waitFor();
    expect(await text(p2, '[data-testid=reset-error]')).toContain(m.errors.token_invalid);

    // Old password fails, new one works.
    await open(page, '/login');
    await startupWritesDone(page);
    await page.fill('#page-login-username', email);
    await page.fill('#page-login-password', 'first-password-1');
    await page.click('form[data-form=login] button[type=submit]');
    await page.locator('[data-testid=login-error]').waitFor();
    await page.fill('#page-login-password', 'second-password-2');
    await page.click('form[data-form=login] button[type=submit]');
    await page.waitForURL(`${baseUrl()}/`);
    await page.locator('[data-testid=member-name]').waitFor();
    // Chromium logs the expected 401/422 answers as failed resources; nothing else.
    expect(b.unexpectedProblems().filter((l) => !/status of (401|422)/.test(l))).toEqual([]);
  });
});

describe('verify page', () => {
  it('an unverified member sees the address, can send the link again (then 429), and a link to the settings', async () => {
    const b = await launchIn('en');
    const m = MESSAGES.en;
    try {
      const page = b.page;
      const username = `e2e_vf_${uniq()}`;
      const email = `${username}@example.com`;
      await newMember(page, { email, username, password: 'verify-pass-1', verified: false });
      const [first] = await mails(email, { wait: 10_000 });
      await open(page, '/verify');
      expect(await text(page, 'main h1')).toBe(m.auth.verify.title);
      expect(await text(page, '[data-testid=verify-email]')).toBe(email);
      expect(await page.getAttribute('[data-state=unverified] a[href="/users/profile/settings"]', 'href')).toBe('/users/profile/settings');
      await clickThrough(page, '[data-state=unverified] button[type=submit]');
      await page.locator('[data-testid=verify-result]').waitFor();
      expect(await text(page, '[data-testid=verify-result]')).toBe(m.auth.verify.sent.replace('{{email}}', email));
      const [second] = await mails(email, { after: first.id, wait: 10_000 });
      expect(second.id).toBeGreaterThan(first.id);
      await clickThrough(page, '[data-state=unverified] button[type=submit]');
      await page.waitForFunction((t) => document.querySelector('[data-testid=verify-result]')?.textContent?.includes(t), m.errors.too_many_attempts);

      // The member menu offers the confirmation while it is due.
      await clickThrough(page, '[data-testid=member-toggle]');
      expect(await page.getAttribute('[data-testid=member-menu] a[href="/verify"]', 'href')).toBe('/verify');
    } finally {
      await b.close();
    }
  });

  it('visitors get the login form', async () => {
    const b = await launchIn('de');
    try {
      await open(b.page, '/verify');
      await b.page.locator('[data-state=login] form[data-form=login]').waitFor();
      expect(await text(b.page, '[data-state=login] [role=status]')).toBe(MESSAGES.de.auth.verify.loginFirst);
    } finally {
      await b.close();
    }
  });
});

describe('mailed-link pages', () => {
  it('token_login and activate with a bad token show the translated error; email_validate asks visitors to log in', async () => {
    const b = await launchIn('de');
    const m = MESSAGES.de;
    try {
      const page = b.page;
      await open(page, '/token_login?token=not-a-valid-token-1234');
      expect(await text(page, 'main h1')).toBe(m.auth.tokenLogin.title);
      await page.locator('[data-testid=token-error]').waitFor();
      expect(await text(page, '[data-testid=token-error]')).toBe(m.errors.token_invalid);
      expect(await page.getAttribute('[data-state=failed] a.btn', 'href')).toBe('/login');

      await open(page, '/users/activate');
      expect(await text(page, '[data-testid=token-error]')).toBe(m.auth.activate.missing);

      await open(page, '/users/email_validate?token=not-a-valid-token-1234');
      await page.locator('[data-state=login] form[data-form=login]').waitFor();
      expect(await text(page, '[data-state=login] [role=status]')).toBe(m.auth.activate.loginFirst);
    } finally {
      await b.close();
    }
  });
});
