import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GallerySummary, Paged, VideoSummary } from '../../src/shared/shows';
import { topBarCoins } from './billing-helpers';
import { type Browser, call, open } from './browser';
import { grantCoins, launchIn, mails, MESSAGES, newMember, text, untranslated } from './members';

// German, page group by page group. The flows of the other files run once each, in English or in
// German (they alternate); this file renders every page group in German: a few key German
// strings, no message key or placeholder shown instead of a text, no console error, and the
// group's main action once where no German flow does it (the 404 page's way home, redeeming a
// voucher, the daily game with reduced motion, buying a video). One visitor and one member, each
// a single browser context on a desktop (the phone layouts in German: home, show lists, search,
// contest, the gallery store, messages, favourites and the live rooms).

const de = MESSAGES.de;
const fill = (template: string, vars: Record<string, string | number>) => template.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(vars[k]));

/** The info routes (tests/e2e/info-pages.test.ts checks each in English). */
const INFO = ['contact', 'complaints', 'faq', 'terms', 'privacy_policy', 'refund', 'usc2257', 'camgirl_werden', 'special', 'xmas'] as const;

/** Opens a page (hydrated unless told) and checks that it is German and shows no untranslated text. */
async function german(page: Page, path: string, { hydrate = true, status = 200 } = {}): Promise<void> {
  const res = await open(page, path, { hydrate });
  expect(res?.status(), path).toBe(status);
  expect(await page.getAttribute('html', 'lang'), path).toBe('de');
  expect(await untranslated(page), path).toEqual([]);
}

describe('German, page group by page group', () => {
  let visitor: Browser;
  let member: Browser;
  beforeAll(async () => {
    [visitor, member] = await Promise.all([launchIn('de'), launchIn('de')]);
  });
  afterAll(async () => {
    await Promise.all([visitor?.close(), member?.close()]);
  });

  it('for a visitor: home, the welcome offer, the login panel, lists, search, a show, the stores, free videos and shows, game, contest, the account pages, billing by phone, the age check, the info pages and the 404 page', async () => {
    const page = visitor.page;

    // Home with the welcome offer (it opens by itself after 2 s), the login panel, the show lists and a show page.
    await german(page, '/');
    expect(await text(page, 'main h1')).toBe(de.home.title);
    expect(await text(page, '.category-bar a[href="/shows/all-shows"]')).toBe(de.nav.allShows);
    const offer = page.locator('[data-testid=incentive-panel]');
    await offer.waitFor();
    expect(await text(page, '[data-testid=incentive-panel] h2')).toBe(de.incentive.title);
    expect(await text(page, '[data-testid=incentive-panel] .incentive-timer .muted')).toBe(de.incentive.endsIn);
    await page.click('.incentive-close');
    await offer.waitFor({ state: 'detached' });
    await page.click('[data-action=login-toggle]');
    await page.locator('#login-panel form[data-form=login]').waitFor();
    expect(await text(page, '#login-panel-title')).toBe(de.auth.login.title);
    expect(await text(page, 'label[for=panel-username]')).toBe(de.auth.login.username);
    expect(await untranslated(page)).toEqual([]);
    await page.keyboard.press('Escape');
    const showPath = (await page.getAttribute('.show-grid .show-tile a.tile-link', 'href'))!;
    await german(page, '/shows/all-shows');
    expect(await text(page, 'main h1')).toBe(de.nav.allShows);
    await german(page, '/shows/categories');
    await german(page, showPath);
    expect([de.shows.chat.private, de.shows.chat.exclusive, de.shows.chat.free]).toContain(await text(page, '.chat-btn.btn-primary'));
    await german(page, '/search?search=Berlin');
    expect(await text(page, 'main h1')).toBe(fill(de.search.titleTerm, { term: 'Berlin' }));

    // The stores, the free lists, the game and the contest.
    await german(page, '/videos');
    await german(page, '/galleries');
    const galleries = await call<Paged<GallerySummary>>(page, 'GET', 'search/galleries?limit=48&sort=price_asc');
    const gallery = galleries.body.data.find((g) => g.price > 0)!;
    await german(page, `/galleries/pictures/${gallery.showId}/${gallery.id}`);
    await german(page, '/freevideo');
    expect(await text(page, 'main h1')).toBe(de.freeVideos.title);
    expect(await text(page, '.video-tile .price')).toBe(de.search.free);
    await german(page, '/freeshow');
    expect(await text(page, 'main h1')).toBe(de.freeShows.title);
    await german(page, '/game');
    expect(await text(page, 'main h1')).toBe(de.game.title);
    await german(page, '/contest');
    expect(await text(page, 'main h1')).toBe(de.contest.title);
    await german(page, '/contest/latest');
    expect(await text(page, 'main h1')).toBe(de.contest.latest.title);

    // The account pages and billing by phone (the flows: accounts-*.test.ts).
    await german(page, '/login');
    expect(await text(page, 'main h1')).toBe(de.auth.login.title);
    await german(page, '/users/signup');
    expect(await text(page, 'main h1')).toBe(de.auth.register.title);
    await german(page, '/users/reset');
    expect(await text(page, 'main h1')).toBe(de.auth.reset.title);
    await german(page, '/billing?voicecall=1');
    expect(await text(page, 'h1')).toBe(de.billing.voicecallTitle);
    // The age check's sandbox provider.
    await open(page, '/avs?kjm=1&target=%2Ffaq');
    expect(new URL(page.url()).pathname).toBe('/avs/sandbox');
    expect(await text(page, 'main h1')).toBe(de.avs.sandbox.title);
    expect(await untranslated(page)).toEqual([]);

    // The info pages as the server sends them (no island to wait for).
    for (const key of INFO) {
      await german(page, `/${key}`, { hydrate: false });
      expect(await text(page, 'article.info-page h1'), key).toBe(de.info[key].title);
    }

    // The 404 page, and its way home.
    await german(page, '/diese/seite/gibt-es-nicht', { status: 404 });
    expect(await text(page, 'main h1')).toBe(de.errorPage.notFound.title);
    expect(await text(page, '[data-testid=support-link]')).toBe(de.errorPage.support);
    expect(await page.getAttribute('meta[name=robots]', 'content')).toBe('noindex');
    const home = page.locator('.error-page a.btn-primary');
    expect((await home.textContent())?.trim()).toBe(de.errorPage.home);
    await home.click();
    await page.waitForURL(`${visitor.base}/`);
    await page.locator('.show-grid .show-tile').first().waitFor();
    expect(await text(page, 'main h1')).toBe(de.home.title);
    expect(visitor.unexpectedProblems(page, { ignoreDocument404: true })).toEqual([]);
  });

  it('for a member: sign-up success, the verification mail, profile, settings, a voucher redeemed, the game spun, a video bought, archive, messages, billing, a phone call, logout', async () => {
    const page = member.page;
    const me = await newMember(page, { verified: false });
    // The sign-up's success page; the verification mail speaks the language of the sign-up.
    await german(page, '/users/signup_success');
    expect(await text(page, 'main h1')).toBe(de.auth.success.title);
    expect(await text(page, '[data-testid=success-text]')).toBe(fill(de.auth.success.text, { email: me.email }));
    const [mail] = await mails(me.email, { kind: 'verify', wait: 10_000 });
    expect(mail.subject).toBe(fill(de.mail.verify.subject, { brand: de.common.brand }));
    const token = /token=([A-Za-z0-9_-]+)/.exec(mail.text)![1];
    expect((await call(page, 'POST', 'register/validate', { token })).status).toBe(200);

    // The profile and its tabs.
    await german(page, '/users/profile');
    expect(await text(page, 'main h1')).toBe(de.profile.title);
    expect(await text(page, '.profile-greeting')).toBe(fill(de.profile.overview.greeting, { name: me.name }));
    await german(page, '/users/profile/settings');
    expect(await text(page, '[data-tab=settings]')).toBe(de.profile.tabs.settings);
    await german(page, '/users/profile/favorites');
    expect(await text(page, '[data-testid=favorites-empty] h2')).toBe(de.profile.favorites.title);
    await german(page, '/users/cancel');
    expect(await text(page, 'main h1')).toBe(de.profile.cancel.title);

    // A voucher redeemed in the coupons tab.
    await german(page, '/users/profile/coupons');
    await page.fill('#coupon-code', 'LOYAL25');
    await page.click('[data-action=coupon-redeem]');
    await page.locator('[data-testid=coupon-notice][data-kind=success]').waitFor();
    expect(await text(page, '[data-testid=coupon-notice]')).toBe(fill(de.coupons.redeemed.coins_other, { count: 25 }));
    expect(await text(page, '[data-coupon=LOYAL25] [data-testid=coupon-expiry]')).toBe(de.coupons.noExpiry);
    expect(await untranslated(page)).toEqual([]);

    // The daily game with reduced motion: the wheel stops at once (the animated spin: promises.test.ts).
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await german(page, '/game');
    await page.click('[data-action=game-spin]');
    const result = page.locator('[data-testid=game-result]');
    await result.waitFor({ timeout: 15_000 });
    const won = Number(await result.getAttribute('data-coins'));
    expect(await text(page, '.game-won')).toBe(fill(won === 1 ? de.game.won_one : de.game.won_other, { count: won }));
    expect(await untranslated(page)).toEqual([]);
    await page.emulateMedia({ reducedMotion: null });

    // A video bought with coins; the archive lists it.
    const videos = await call<Paged<VideoSummary>>(page, 'GET', 'search/videos?limit=48&sort=price_asc');
    const video = videos.body.data.find((v) => v.price > 1)!;
    await grantCoins(me.id, video.price);
    await german(page, `/videos/clip/${video.id}`);
    const before = await topBarCoins(page);
    await page.getByRole('button', { name: fill(de.store.buy.coins.video_other, { count: video.price }) }).click();
    await page.locator('[data-testid=store-clip][data-owned="1"]').waitFor();
    expect(await topBarCoins(page)).toBe(before - video.price);
    await german(page, '/users/archive');
    expect(await text(page, '[data-testid=archive-video-count]')).toBe(fill(de.store.archive.videos_one, { count: 1 }));
    await german(page, '/users/archive/videos');
    expect(await text(page, 'h1')).toBe(de.store.archive.videosTitle);

    // Messages and billing (the flows: messages.test.ts, billing-*.test.ts).
    await german(page, '/messages');
    await german(page, '/messages/support');
    await page.locator('[data-testid=thread] h2', { hasText: de.messages.support.title }).waitFor();
    await german(page, '/billing');
    await page.locator('[data-testid=billing-picker]').waitFor();
    expect(await untranslated(page)).toEqual([]);

    // Paying by phone: the call connects on the sandbox phone line, the pages say why the menus
    // are limited, and "Anruf beenden" ends it (the whole flow: billing-voicecall.test.ts in English).
    const init = await call<{ link: string }>(page, 'POST', 'billing/init_phonecall', { paymenttypeid: 3, productid: 8 });
    expect(init.status).toBe(200);
    const bid = new URL(init.body.link, member.base).searchParams.get('bid') ?? '';
    const line = await page.context().request.post(`${member.base}/billing/phone`, { form: { bid, action: 'start' }, maxRedirects: 0 });
    expect(line.status()).toBe(303);
    await german(page, '/faq');
    const notice = page.locator('[data-testid=voicecall-notice-drawer]');
    await notice.waitFor();
    expect(await text(page, '[data-testid=voicecall-notice-drawer] .voicecall-notice-text')).toBe(de.voicecall.notice);
    expect(await text(page, '[data-testid=voicecall-notice-drawer] [data-action=voicecall-end]')).toBe(de.voicecall.endCall);
    await Promise.all([page.waitForURL(`${member.base}/`, { timeout: 15_000 }), notice.locator('[data-action=voicecall-end]').click()]);
    await page.locator('[data-testid^=voicecall-notice]').waitFor({ state: 'detached' });

    // Logging out asks first.
    await german(page, '/logout');
    expect(await text(page, '[data-state=ask] .lead')).toBe(de.auth.logout.question);
    await page.click('[data-action=logout-confirm]');
    await page.waitForURL(`${member.base}/`);
    await page.locator('[data-action=login-toggle]').waitFor();
    expect(member.unexpectedProblems(page)).toEqual([]);
  });
});
