import { afterEach, describe, expect, it } from 'vitest';
import { open, waitForIslands, type Browser } from './browser';
import { launchIn, MESSAGES, newMember, sessionNow } from './members';

// Age verification with the sandbox provider, in the browser.

describe('age verification (sandbox)', () => {
  let b: Browser | undefined;
  afterEach(async () => {
    await b?.close();
    b = undefined;
  });

  // Pass in English, fail in German.
  it('pass returns to the target and marks the session (en)', async () => {
    const m = MESSAGES.en.avs;
    b = await launchIn('en');
    await open(b.page, '/avs?kjm=1&target=%2Ffaq%23top');
    expect(new URL(b.page.url()).pathname).toBe('/avs/sandbox');
    expect((await b.page.textContent('main h1'))?.trim()).toBe(m.sandbox.title);
    expect((await b.page.textContent('[data-action=avs-pass]'))?.trim()).toBe(m.sandbox.pass);
    expect((await b.page.textContent('[data-action=avs-fail]'))?.trim()).toBe(m.sandbox.fail);
    expect(await b.page.textContent('main')).toContain(m.sandbox.levelKjm);
    expect((await sessionNow(b.page)).agechecked).toBe(false);

    await b.page.click('[data-action=avs-pass]');
    await b.page.waitForURL((u) => u.pathname === '/faq');
    expect(new URL(b.page.url()).hash).toBe('#top');
    expect((await sessionNow(b.page)).agechecked).toBe(true);
    expect(b.unexpectedProblems()).toEqual([]);
  });

  it('fail shows the failure with a retry, nothing is marked (de)', async () => {
    const m = MESSAGES.de.avs;
    b = await launchIn('de');
    await open(b.page, '/avs?kjm=0&target=%2Fterms');
    await b.page.click('[data-action=avs-fail]');
    await b.page.waitForURL((u) => u.pathname === '/avs' && u.searchParams.get('failed') === '1');
    await waitForIslands(b.page);
    expect((await b.page.textContent('main h1'))?.trim()).toBe(m.failed.title);
    expect((await b.page.textContent('main .lead'))?.trim()).toBe(m.failed.text);
    expect((await sessionNow(b.page)).agechecked).toBe(false);

    await b.page.click('[data-action=avs-retry]');
    await b.page.waitForURL((u) => u.pathname === '/avs/sandbox');
    expect(await b.page.textContent('main')).toContain(m.sandbox.levelBasic);
    await b.page.click('[data-action=avs-pass]');
    await b.page.waitForURL((u) => u.pathname === '/terms');
    expect((await sessionNow(b.page)).agechecked).toBe(true);
  });

  it('a member verifies from the profile and it shows as verified', async () => {
    const m = MESSAGES.en.profile.overview;
    b = await launchIn('en');
    await newMember(b.page);
    await open(b.page, '/users/profile');
    expect((await b.page.textContent('[data-testid=age-status]'))?.trim()).toBe(m.ageOpen);
    await b.page.click('[data-action=verify-age]');
    await b.page.waitForURL((u) => u.pathname === '/avs/sandbox');
    await b.page.click('[data-action=avs-pass]');
    await b.page.waitForURL((u) => u.pathname === '/users/profile');
    expect((await b.page.textContent('[data-testid=age-status]'))?.trim()).toBe(m.ageVerified);
    expect(await b.page.locator('[data-action=verify-age]').count()).toBe(0);
  });

  it('ignores a target on another site', async () => {
    b = await launchIn('en');
    await open(b.page, '/avs?kjm=0&target=%2F%2Fevil.example%2Fx');
    await b.page.click('[data-action=avs-pass]');
    await b.page.waitForURL((u) => u.pathname === '/' && u.host === new URL(b!.base).host);
  });
});
