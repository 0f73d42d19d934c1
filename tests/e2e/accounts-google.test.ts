import { importJWK, SignJWT, type CryptoKey } from 'jose';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { open, secondServerUp, waitForIslands } from './browser';
import { logoutByMenu } from './accounts-helpers';
import { launchIn, uniq } from './members';

const GSI = 'accounts.google.com';

describe('Google sign-in without a client id', () => {
  it('shows no Google button or consent box anywhere', async () => {
    const b = await launchIn('en');
    try {
      const requested: string[] = [];
      b.page.on('request', (r) => requested.push(r.url()));
      await open(b.page, '/users/signup');
      await b.page.click('[data-action=login-toggle]');
      await b.page.locator('#login-panel form').waitFor();
      expect(await b.page.locator('[data-testid=google-consent], [data-testid=google-signin], .or-divider').count()).toBe(0);
      expect(await b.page.evaluate(() => (JSON.parse(document.getElementById('__state')!.textContent!) as { googleClientId: unknown }).googleClientId)).toBeNull();
      expect(requested.filter((u) => u.includes(GSI))).toEqual([]);
    } finally {
      await b.close();
    }
  });
});

/**
 * A stand-in for Google's script (the test cannot reach Google): its button hands the callback
 * whatever ID token the test put into window.__credential.
 */
const GSI_STUB = `window.google={accounts:{id:{
  initialize(c){window.__gsiCallback=c.callback;},
  renderButton(el,o){const b=document.createElement('button');b.type='button';b.textContent='Google '+o.text;b.dataset.gsi=o.text;
    b.onclick=()=>window.__gsiCallback({credential:window.__credential});el.appendChild(b);}}}};`;

// The server with GOOGLE_CLIENT_ID and the test's key set (global setup starts it in the background).
describe('Google sign-in with a client id', () => {
  const google = inject('secondServer')!;
  let privateKey: CryptoKey;
  beforeAll(async () => {
    expect(google, 'the Google sign-in server of the global setup').toBeTruthy();
    privateKey = (await importJWK(google.privateJwk, 'RS256')) as CryptoKey;
    await secondServerUp(google.url);
  }, 180_000);

  function idToken(email: string, sub: string): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ email, email_verified: true, name: email.split('@')[0] })
      .setProtectedHeader({ alg: 'RS256', kid: google.kid, typ: 'JWT' })
      .setIssuer('https://accounts.google.com')
      .setAudience(google.clientId)
      .setSubject(sub)
      .setIssuedAt(now - 10)
      .setExpirationTime(now + 3600)
      .sign(privateKey);
  }

  it('asks for consent first and requests nothing from Google before it', async () => {
    const b = await launchIn('en');
    try {
      const requested: string[] = [];
      b.page.on('request', (r) => requested.push(r.url()));
      await b.context.route(`https://${GSI}/**`, (route) => route.fulfill({ contentType: 'text/javascript', body: GSI_STUB }));
      await b.page.goto(`${google.url}/users/signup`);
      await waitForIslands(b.page);
      await b.page.locator('[data-testid=google-consent]').waitFor();
      await b.page.click('[data-action=login-toggle]');
      await b.page.locator('#login-panel [data-testid=google-consent]').waitFor();
      await b.page.waitForTimeout(500);
      expect(requested.filter((u) => u.includes(GSI))).toEqual([]);

      // Agreeing stores the choice (asked for ten years; Chromium caps cookies at 400 days) and loads the script once.
      await b.page.click('#login-panel [data-action=google-consent]');
      await b.page.locator('#login-panel [data-gsi]').waitFor();
      expect(requested.filter((u) => u.includes(GSI))).toHaveLength(1);
      const cookie = (await b.context.cookies(google.url)).find((k) => k.name === 'google_consent');
      expect(cookie?.value).toBe('1');
      expect((cookie!.expires * 1000 - Date.now()) / 86_400_000).toBeGreaterThan(390);
      // The sign-up screen behind switched too; in sign-up mode both boxes must be ticked first.
      await b.page.keyboard.press('Escape');
      const signup = b.page.locator('.register-screen [data-testid=google-signin][data-mode=register]');
      await signup.waitFor();
      expect(await signup.locator('input[type=checkbox]').count()).toBe(2);
      expect(await signup.locator('.google-blocker').count()).toBe(1);
      await signup.locator('input[type=checkbox]').nth(0).check();
      await signup.locator('input[type=checkbox]').nth(1).check();
      expect(await signup.locator('.google-blocker').count()).toBe(0);
    } finally {
      await b.close();
    }
  });

  it('a Google account without a member opens sign-up prefilled; signing up with Google logs in; later Google logs in', async () => {
    const b = await launchIn('de', { cookies: {} });
    try {
      await b.context.addCookies([{ name: 'google_consent', value: '1', url: google.url }]);
      await b.context.route(`https://${GSI}/**`, (route) => route.fulfill({ contentType: 'text/javascript', body: GSI_STUB }));
      const page = b.page;
      const email = `${`g_${uniq()}`}@example.com`;
      const token = await idToken(email, `sub${uniq()}`);
      await page.goto(`${google.url}/`);
      await waitForIslands(page);
      await page.click('[data-action=login-toggle]');
      // Consent remembered: the button renders at once.
      await page.locator('#login-panel [data-gsi=signin_with]').waitFor();
      await page.evaluate((t) => ((window as unknown as { __credential: string }).__credential = t), token);
      await page.click('#login-panel [data-gsi=signin_with]');
      await page.waitForURL(`${google.url}/users/signup?email=${encodeURIComponent(email)}`);
      await waitForIslands(page);
      expect(await page.inputValue('#signup-reg-email')).toBe(email);
      expect(await page.locator('#login-panel').count()).toBe(0);

      // Sign-up mode: the button does nothing until both boxes are ticked.
      const g = page.locator('.register-screen [data-testid=google-signin][data-mode=register]');
      await g.locator('[data-gsi=signup_with]').waitFor();
      await page.evaluate((t) => ((window as unknown as { __credential: string }).__credential = t), token);
      await g.locator('.google-blocker').click();
      await g.locator('[role=alert]').waitFor();
      await g.locator('input[type=checkbox]').nth(0).check();
      await g.locator('input[type=checkbox]').nth(1).check();
      await g.locator('[data-gsi=signup_with]').click();
      await page.waitForURL(`${google.url}/`);
      await waitForIslands(page);
      await page.locator('[data-testid=member-name]').waitFor();

      await logoutByMenu(page, google.url);
      await waitForIslands(page);
      const again = await idToken(email, 'other-sub-same-mail');
      await page.click('[data-action=login-toggle]');
      await page.locator('#login-panel [data-gsi=signin_with]').waitFor();
      await page.evaluate((t) => ((window as unknown as { __credential: string }).__credential = t), again);
      await page.click('#login-panel [data-gsi=signin_with]');
      await page.locator('[data-testid=member-name]').waitFor();
      expect(await page.locator('#login-panel').count()).toBe(0);
    } finally {
      await b.close();
    }
  });
});
