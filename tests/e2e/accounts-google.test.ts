import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type StartedServer } from '../../scripts/lib.mjs';
import { open } from './browser';
import { launchIn } from './accounts-helpers';

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

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

describe('Google sign-in with a client id', () => {
  let server: StartedServer;
  let persistTo: string;
  beforeAll(async () => {
    persistTo = mkdtempSync(join(tmpdir(), 'livecam-e2e-google-'));
    server = await startServer({ port: await freePort(), persistTo, vars: { GOOGLE_CLIENT_ID: 'e2e-client.apps.googleusercontent.com' } });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(persistTo, { recursive: true, force: true });
  });

  it('asks for consent first and requests nothing from Google before it', async () => {
    const b = await launchIn('en');
    try {
      const requested: string[] = [];
      b.page.on('request', (r) => requested.push(r.url()));
      // A stand-in for Google's script: the test cannot reach Google.
      await b.context.route(`https://${GSI}/**`, (route) =>
        route.fulfill({
          contentType: 'text/javascript',
          body: "window.google={accounts:{id:{initialize(){},renderButton(el){const b=document.createElement('button');b.type='button';b.textContent='G';b.dataset.gsi='1';el.appendChild(b);}}}};",
        }),
      );
      await b.page.goto(`${server.url}/users/signup`);
      await b.page.locator('[data-testid=google-consent]').waitFor();
      await b.page.click('[data-action=login-toggle]');
      await b.page.locator('#login-panel [data-testid=google-consent]').waitFor();
      await b.page.waitForTimeout(500);
      expect(requested.filter((u) => u.includes(GSI))).toEqual([]);

      // Agreeing stores the choice (asked for ten years; Chromium caps cookies at 400 days) and loads the script once.
      await b.page.click('#login-panel [data-action=google-consent]');
      await b.page.locator('#login-panel [data-gsi]').waitFor();
      expect(requested.filter((u) => u.includes(GSI))).toHaveLength(1);
      const cookie = (await b.context.cookies(server.url)).find((k) => k.name === 'google_consent');
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
});
