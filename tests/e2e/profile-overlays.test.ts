import { afterEach, describe, expect, it } from 'vitest';
import { type Browser, call, launch, open, waitForIslands } from './browser';
import { launchIn, MESSAGES, newMember, sessionNow } from './members';

// What the Overlays island adds on every page: session start, counter pixel, visitor id,
// the incentive panel for visitors and the welcome dialog for new members.

const START = new Date('2026-05-04T10:00:00Z').getTime();

describe('overlays', () => {
  let b: Browser | undefined;
  afterEach(async () => {
    await b?.close();
    b = undefined;
  });

  it('starts the session once for a new visitor, then shows the counter pixel', async () => {
    b = await launchIn('en');
    const inits: string[] = [];
    b.page.on('request', (r) => {
      if (r.url().includes('/api/session/init')) inits.push(r.url());
    });
    const res = await open(b.page, '/faq?redirect_splash=%2Fterms');
    // No pixel in the server's HTML (its rule is in the inlined stylesheet, the element is not).
    expect(await res?.text()).not.toContain('class="counter-pixel"');
    await b.page.locator('img.counter-pixel').waitFor({ state: 'attached' });
    expect(inits.length).toBe(1);
    expect(new URL(inits[0]).searchParams.get('redirect_splash')).toBe('/terms');
    const sid = (await b.cookie('lc_sid'))?.value;
    expect(sid).toBeTruthy();
    const src = new URL((await b.page.getAttribute('img.counter-pixel', 'src')) ?? '', b.base);
    expect(src.pathname).toBe('/api/pixel.gif');
    const session = await sessionNow(b.page);
    expect(Object.fromEntries(src.searchParams)).toEqual({ webid: '19', session: session.session_id, websiteid: '19', noredirect: '1', mid: '' });
    expect(await b.page.getAttribute('img.counter-pixel', 'alt')).toBe('');

    // With a session the next page does not ask again (sessionNow above asked through the
    // context's request API, which the page's request events do not see).
    expect(inits.length).toBe(1);
    await open(b.page, '/terms');
    await b.page.locator('img.counter-pixel').waitFor({ state: 'attached' });
    expect(inits.length).toBe(1);
  });

  it('puts the member id on the counter pixel', async () => {
    b = await launchIn('en');
    const member = await newMember(b.page);
    await open(b.page, '/faq');
    await b.page.locator('img.counter-pixel').waitFor({ state: 'attached' });
    const src = new URL((await b.page.getAttribute('img.counter-pixel', 'src')) ?? '', b.base);
    expect(src.searchParams.get('mid')).toBe(String(member.id));
  });

  it('sends the visitor fingerprint on the first click, once', async () => {
    b = await launchIn('en');
    const vids: { vid: string; confidence: number }[] = [];
    b.page.on('request', (r) => {
      if (r.url().endsWith('/api/session/vid')) vids.push(r.postDataJSON() as { vid: string; confidence: number });
    });
    await open(b.page, '/faq');
    await b.page.locator('img.counter-pixel').waitFor({ state: 'attached' });
    expect(vids.length).toBe(0);
    const sent = b.page.waitForResponse((r) => r.url().endsWith('/api/session/vid'));
    await b.page.click('main h1');
    expect((await sent).status()).toBe(200);
    expect(vids[0].vid).toMatch(/^[0-9a-f]{64}$/);
    expect(vids[0].confidence).toBeGreaterThanOrEqual(0.5);
    expect(vids[0].confidence).toBeLessThanOrEqual(0.9);
    expect((await sessionNow(b.page)).visitor_id).toBe(vids[0].vid);
    await b.page.click('main h1');
    await b.page.waitForTimeout(300);
    expect(vids.length).toBe(1);
    expect(b.unexpectedProblems()).toEqual([]);
  });

  it('retries a failed fingerprint on later clicks, at most 5 times', async () => {
    b = await launchIn('en');
    let tries = 0;
    await b.page.route('**/api/session/vid', async (route) => {
      tries++;
      await route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"server_error"}' });
    });
    await open(b.page, '/faq');
    await b.page.locator('img.counter-pixel').waitFor({ state: 'attached' });
    for (let i = 1; i <= 7; i++) {
      if (i <= 5) {
        const finished = b.page.waitForEvent('requestfinished', (r) => r.url().endsWith('/api/session/vid'));
        await b.page.click('main h1');
        await finished;
        expect(tries).toBe(i);
      } else {
        // Past the fifth try, clicks send nothing more.
        await b.page.click('main h1');
        await b.page.waitForTimeout(250);
        expect(tries).toBe(5);
      }
    }
    expect((await sessionNow(b.page)).visitor_id).toBeNull();
  });

  it('incentive panel: collapsed, expands after 2 s, counts down 15 minutes, then 60 s overtime (en)', async () => {
    const lang = 'en';
    const m = MESSAGES[lang].incentive;
    b = await launchIn(lang);
    const page = b.page;
    const seconds = async (sel: string) => {
      const [mm, ss] = ((await page.textContent(sel)) ?? '').trim().split(':').map(Number);
      return mm * 60 + ss;
    };
    await page.clock.install({ time: START });
    const post = page.waitForResponse((r) => r.url().endsWith('/api/session/incentive_tsp'));
    await open(page, '/');
    const first = await post;
    const sentTsp = (first.request().postDataJSON() as { incentive_tsp: number }).incentive_tsp;
    expect(sentTsp).toBeGreaterThanOrEqual(Math.floor(START / 1000));
    expect(sentTsp).toBeLessThan(Math.floor(START / 1000) + 30);
    // The server keeps its own clock's start (it decides the welcome offer's window), not the
    // client's; the page shows the countdown from it on the device's (here: faked) clock.
    const offer = (await first.json()) as { incentive_tsp: number; now: number; video_id: number; voucher_percent: number };
    expect(offer.incentive_tsp).toBeLessThanOrEqual(offer.now);
    expect(offer.incentive_tsp).toBeGreaterThanOrEqual(offer.now - 2);
    expect(Math.abs(offer.now - Date.now() / 1000)).toBeLessThan(60);

    // Collapsed first, expanded 2 s later.
    await page.locator('[data-testid=incentive-chip]').waitFor();
    expect(await page.locator('[data-testid=incentive-panel]').count()).toBe(0);
    await page.clock.runFor(2_100);
    const panel = page.locator('[data-testid=incentive-panel]');
    await panel.waitFor();
    const box = await panel.boundingBox();
    expect(box?.width).toBe(400);
    expect(box?.height).toBe(450);
    expect((await panel.locator('h2').textContent())?.trim()).toBe(m.title);
    expect((await page.textContent('[data-testid=incentive-percent]'))?.trim()).toBe(m.percent.replace('{{percent}}', String(offer.voucher_percent)));
    expect(await panel.locator('img').getAttribute('src')).toBe(`/api/videos/image/${offer.video_id}/1`);
    expect(await panel.locator('a[data-action=incentive-signup]').getAttribute('href')).toBe('/users/signup');
    expect((await panel.locator('.incentive-timer .muted').textContent())?.trim()).toBe(m.endsIn);
    const left = await seconds('[data-testid=incentive-clock]');
    expect(left).toBeGreaterThan(870);
    expect(left).toBeLessThanOrEqual(898);

    // It counts down.
    await page.clock.runFor(60_000);
    const later = await seconds('[data-testid=incentive-clock]');
    expect(left - later).toBeGreaterThanOrEqual(59);
    expect(left - later).toBeLessThanOrEqual(66);

    // A reload does not restart it: the server answers with the first start.
    const again = page.waitForResponse((r) => r.url().endsWith('/api/session/incentive_tsp'));
    await page.reload();
    await waitForIslands(page);
    const second = await again;
    expect((second.request().postDataJSON() as { incentive_tsp: number }).incentive_tsp).toBeGreaterThan(sentTsp);
    expect(((await second.json()) as { incentive_tsp: number }).incentive_tsp).toBe(offer.incentive_tsp);

    // Closing collapses it (and it stays collapsed on later pages of the visit).
    await page.locator('[data-testid=incentive-chip]').waitFor();
    await page.clock.runFor(2_100);
    await panel.waitFor();
    await page.click('.incentive-close');
    await panel.waitFor({ state: 'detached' });
    expect(await page.locator('[data-testid=incentive-chip]').isVisible()).toBe(true);
    await open(page, '/faq');
    await page.locator('[data-testid=incentive-chip]').waitFor();
    await page.clock.runFor(2_100);
    expect(await panel.count()).toBe(0);

    // After the 15 minutes: 60 s of overtime.
    const rest = await seconds('[data-testid=incentive-chip-clock]');
    await page.clock.runFor((rest + 2) * 1000);
    await page.locator('.incentive-chip.overtime').waitFor();
    await page.click('[data-testid=incentive-chip]');
    await panel.waitFor();
    expect(await panel.getAttribute('class')).toContain('overtime');
    expect((await panel.locator('.incentive-timer .muted').textContent())?.trim()).toBe(m.overtime);
    const overtime = await seconds('[data-testid=incentive-clock]');
    expect(overtime).toBeGreaterThan(40);
    expect(overtime).toBeLessThanOrEqual(60);

    // Then the offer is over.
    await page.clock.runFor(61_000);
    await panel.waitFor({ state: 'detached' });
    expect(await page.locator('[data-testid=incentive-chip]').count()).toBe(0);
  });

  it('incentive panel stays away while the age splash is open and from members', async () => {
    b = await launch({ cookies: { consent: true } });
    await b.page.clock.install({ time: START });
    await open(b.page, '/');
    await b.page.locator('.splash[role=dialog]').waitFor();
    await b.page.clock.runFor(3_000);
    expect(await b.page.locator('[data-testid=incentive-chip], [data-testid=incentive-panel]').count()).toBe(0);
    await b.page.click('[data-action=splash-confirm]');
    await b.page.locator('[data-testid=incentive-chip]').waitFor();

    await newMember(b.page);
    await open(b.page, '/');
    await b.page.clock.runFor(3_000);
    expect(await b.page.locator('[data-testid=incentive-chip], [data-testid=incentive-panel]').count()).toBe(0);
  });

  it('incentive panel is a small chip on phones until tapped', async () => {
    b = await launchIn('en', { viewport: { width: 390, height: 844 } });
    await b.page.clock.install({ time: START });
    await open(b.page, '/');
    const chip = b.page.locator('[data-testid=incentive-chip]');
    await chip.waitFor();
    await b.page.clock.runFor(3_000);
    expect(await b.page.locator('[data-testid=incentive-panel]').count()).toBe(0);
    const box = await chip.boundingBox();
    expect(box!.height).toBeLessThan(50);
    expect(box!.y + box!.height).toBeLessThanOrEqual(844 - 58);
    await chip.click();
    const panel = b.page.locator('[data-testid=incentive-panel]');
    await panel.waitFor();
    expect((await panel.boundingBox())!.width).toBeLessThanOrEqual(390);
  });

  it('welcome dialog shows once for a new member and not after closing (de)', async () => {
    const lang = 'de';
    const m = MESSAGES[lang].welcome;
    b = await launchIn(lang);
    const member = await newMember(b.page, { welcome: true });
    // Issue 9: the showing is recorded when the dialog opens (it used to be when it closed).
    const shown = b.page.waitForResponse((r) => r.url().endsWith('/api/session/welcome_shown'));
    await open(b.page, '/faq');
    const dialog = b.page.locator('[data-testid=welcome-dialog]');
    await dialog.waitFor();
    expect((await dialog.locator('h2').textContent())?.trim()).toBe(m.title.replace('{{name}}', member.name));
    expect((await dialog.locator('[data-part=video] h3').textContent())?.trim()).toBe(m.video.title);
    expect((await dialog.locator('[data-part=voucher] h3').textContent())?.trim()).toBe(m.voucher.title);
    expect((await shown).status()).toBe(200);

    await b.page.click('[data-action=welcome-start]');
    await dialog.waitFor({ state: 'detached' });
    expect((await sessionNow(b.page)).welcome_dialog).toBeNull();

    await open(b.page, '/faq');
    await b.page.waitForTimeout(500);
    expect(await dialog.count()).toBe(0);
    expect(b.unexpectedProblems()).toEqual([]);
  });

  it('welcome dialog waits until the address is confirmed and stays off the account pages', async () => {
    b = await launchIn('en');
    await newMember(b.page, { verified: false, welcome: true });
    await open(b.page, '/faq');
    await b.page.waitForTimeout(500);
    expect(await b.page.locator('[data-testid=welcome-dialog]').count()).toBe(0);
    expect((await sessionNow(b.page)).welcome_dialog).not.toBeNull();

    const b2 = await launchIn('en');
    try {
      await newMember(b2.page, { welcome: true });
      await open(b2.page, '/users/cancel');
      await b2.page.waitForTimeout(500);
      expect(await b2.page.locator('[data-testid=welcome-dialog]').count()).toBe(0);
      await open(b2.page, '/faq');
      const dialog = b2.page.locator('[data-testid=welcome-dialog]');
      await dialog.waitFor();
      // Escape closes it; its key listener starts a moment after it appears, so press until it does.
      await expect
        .poll(
          async () => {
            await b2.page.keyboard.press('Escape');
            return dialog.count();
          },
          { timeout: 15_000, interval: 250 },
        )
        .toBe(0);
    } finally {
      await b2.close();
    }
  });

  it('welcome dialog is not shown to visitors', async () => {
    b = await launchIn('en');
    await open(b.page, '/faq');
    await b.page.locator('img.counter-pixel').waitFor({ state: 'attached' });
    expect((await sessionNow(b.page)).welcome_dialog).not.toBeNull();
    await b.page.waitForTimeout(300);
    expect(await b.page.locator('[data-testid=welcome-dialog]').count()).toBe(0);
    expect((await call(b.page, 'GET', 'auth/user')).status).toBe(401);
  });
});
