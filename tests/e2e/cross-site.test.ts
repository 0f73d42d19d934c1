import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { baseUrl, call, open, waitForIslands, type Browser } from './browser';
import { DEMO, type Lang, launchIn, mails, MESSAGES, newMember, text } from './members';

// Issue 9 points 1 and 7: a page on another site links to session/init?redirect_splash=...,
// /logout and /users/activate?token=<the attacker's token>. Following each link changes nothing
// for the visitor: still logged in as themselves, not logged into the attacker's account, and no
// redirect planted. The attacker's page is served from a second origin (localhost on its own
// port; the app runs on 127.0.0.1: another site, so SameSite=Lax cookies go along as in a real
// cross-site navigation).

let attackerServer: Server;
let attackerOrigin = '';
let attackerHtml = '<!doctype html><title>nothing here</title>';

beforeAll(async () => {
  attackerServer = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(attackerHtml);
  });
  await new Promise<void>((resolve) => attackerServer.listen(0, '127.0.0.1', resolve));
  attackerOrigin = `http://localhost:${(attackerServer.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => attackerServer.close(() => resolve()));
});

/** Signs up an account the attacker controls (in its own browser) and returns its unused verification token. */
async function attackerToken(lang: Lang): Promise<{ name: string; token: string }> {
  const b = await launchIn(lang);
  try {
    const attacker = await newMember(b.page, { verified: false, prefix: 'evil', password: 'attacker-pass-2026' });
    const [mail] = await mails(attacker.email, { kind: 'verify', wait: 10_000 });
    const token = /\/users\/activate\?token=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
    expect(token).toBeTruthy();
    return { name: attacker.name, token: token as string };
  } finally {
    await b.close();
  }
}

function attackerPage(links: Record<string, string>): string {
  const items = Object.entries(links)
    .map(([id, href]) => `<li><a id="${id}" href="${href.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}">${id}</a></li>`)
    .join('');
  return `<!doctype html><html><head><title>Free coins</title></head><body><h1>Free coins</h1><ul>${items}</ul></body></html>`;
}

/** Opens the attacker's page and follows one of its links (a real cross-site navigation). */
async function follow(page: Page, id: string): Promise<void> {
  await page.goto(`${attackerOrigin}/`);
  await Promise.all([page.waitForURL((url) => url.origin === new URL(baseUrl()).origin), page.click(`#${id}`)]);
  await page.waitForLoadState('load');
}

async function whoAmI(page: Page): Promise<string | null> {
  const res = await call<{ user?: { name: string } }>(page, 'GET', 'auth/user');
  return res.status === 200 ? (res.body.user?.name ?? null) : null;
}

/** Home renders at our origin (no planted detour) for the member, named in the top bar. */
async function homeIsUnchanged(page: Page, name: string | null): Promise<void> {
  for (const path of ['/', '/shows/all-shows']) {
    const res = await page.goto(`${baseUrl()}${path}`);
    expect(res?.status(), path).toBe(200);
    expect(page.url(), path).toBe(`${baseUrl()}${path}`);
    await waitForIslands(page);
    if (name) expect(await text(page, '[data-testid=member-name]')).toBe(name);
    else expect(await page.locator('[data-action=login-toggle]').count()).toBe(1);
  }
}

// Each case in one language (they alternate).
describe('a cross-site page changes nothing for the visitor', () => {
  let b: Browser | undefined;
  afterEach(async () => {
    await b?.close();
    b = undefined;
  });

  it('session/init?redirect_splash=..., /logout and /users/activate?token=<attacker> leave a member logged in as themselves (en)', async () => {
    const lang = 'en';
    const m = MESSAGES[lang];
    const attacker = await attackerToken(lang);
    const base = baseUrl();
    attackerHtml = attackerPage({
      'plant-tab': `${base}/api/session/init?redirect_splash=%2F%09%2Fevil.example`,
      'plant-lf': `${base}/api/session/init?redirect_splash=%2Fa%0ab`,
      logout: `${base}/logout`,
      activate: `${base}/users/activate?token=${attacker.token}`,
    });

    b = await launchIn(lang);
    const page = b.page;
    const me = await newMember(page);
    await homeIsUnchanged(page, me.name);

    // Planted redirects: the session does not store them; every page still renders here.
    for (const id of ['plant-tab', 'plant-lf']) {
      await follow(page, id);
      await homeIsUnchanged(page, me.name);
    }

    // /logout from another site only asks; the member stays logged in.
    await follow(page, 'logout');
    await waitForIslands(page);
    expect(page.url()).toBe(`${base}/logout`);
    await page.locator('[data-action=logout-confirm]').waitFor();
    expect(await text(page, '[data-state=ask] .lead')).toBe(m.auth.logout.question);
    expect(await whoAmI(page)).toBe(me.name);
    await homeIsUnchanged(page, me.name);

    // The attacker's activation link verifies the attacker's address, but the member stays who they are.
    await follow(page, 'activate');
    await waitForIslands(page);
    await page.locator('[data-state=done]').waitFor();
    // The done state goes home by itself after 2 s; a navigation of ours meanwhile would race it.
    await page.waitForURL(`${base}/`);
    await homeIsUnchanged(page, me.name);
    expect(await whoAmI(page)).toBe(me.name);
    expect(attacker.name).not.toBe(me.name);
    // Chromium asks for /favicon.ico when it shows the JSON answer of session/init itself.
    expect(b.unexpectedProblems().filter((line) => !line.includes('/favicon.ico'))).toEqual([]);
  });

  it("a visitor following the attacker's activation link is asked to log in, not logged into the attacker's account (de)", async () => {
    const lang = 'de';
    const m = MESSAGES[lang];
    const attacker = await attackerToken(lang);
    attackerHtml = attackerPage({ activate: `${baseUrl()}/users/activate?token=${attacker.token}` });
    b = await launchIn(lang);
    const page = b.page;
    await open(page, '/faq');
    await follow(page, 'activate');
    await waitForIslands(page);
    await page.locator('[data-state=verified-login]').waitFor();
    expect(await text(page, '[data-state=verified-login] .form-alert')).toBe(m.auth.activate.verifiedLogin);
    expect(await whoAmI(page)).toBeNull();
    await homeIsUnchanged(page, null);

    // The member's own click on "Log out" still works, through the button.
    await open(page, '/faq');
    expect((await call(page, 'POST', 'auth/login', { username: DEMO.username, password: DEMO.password })).status).toBe(200);
    await open(page, '/logout');
    await page.click('[data-action=logout-confirm]');
    await page.waitForURL(`${baseUrl()}/`);
    await page.locator('[data-action=login-toggle]').waitFor();
    expect(await whoAmI(page)).toBeNull();
  });
});
