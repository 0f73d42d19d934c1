import { archiveRoutes } from './features/store/archive.routes';
import { galleriesRoutes } from './features/store/galleries.routes';
import { mediaRoutes } from './features/store/media.routes';
import { videosRoutes } from './features/store/videos.routes';
import { Hono } from 'hono';
import { BUILD_ID } from '../shared/build';
import type { AppEnv } from './env';
import { imageRoutes, videoImageRoutes } from './features/images/images.routes';
import { infoPages } from './features/info/info.pages';
import { showsPages } from './features/shows/shows.pages';
import { showPages } from './features/shows/show.pages';
import { searchPages } from './features/search/search.pages';
import { accountPages } from './features/account/account.pages';
import { billingCallbackRoutes, billingRoutes } from './features/billing/billing.routes';
import { couponRoutes, rufRoutes } from './features/billing/coupons.routes';
import { gameRoutes } from './features/game/game.routes';
import { gamePages } from './features/game/game.pages';
import { contestRoutes } from './features/contest/contest.routes';
import { contestPages } from './features/contest/contest.pages';
import { studioPages } from './features/studio/studio.pages';
import { messagesPages } from './features/messages/messages.pages';
import { uploadsRoutes } from './features/studio/uploads.routes';
import { freePages } from './features/shows/free.pages';
import { storeListPages } from './features/store/store.pages';
import { storeItemPages } from './features/store/item.pages';
import { archivePages } from './features/store/archive.pages';
import { sandboxPages } from './features/billing/sandbox.pages';
import { billingPages } from './features/billing/billing.pages';
import { authRoutes } from './features/account/auth.routes';
import { opsRoutes } from './features/ops/ops.routes';
import { realtimeRoutes } from './features/realtime/realtime.routes';
import { registerRoutes } from './features/account/register.routes';
import { searchRoutes } from './features/search/search.routes';
import { sessionRoutes } from './features/session/session.routes';
import { sessionPages } from './features/session/session.pages';
import { categoriesRoutes, showsRoutes, tagsRoutes } from './features/shows/shows.routes';
import { profilePages } from './features/account/profile.pages';
import { avsPages } from './features/avs/avs.pages';
import { mailboxPages } from './features/dev/mailbox.pages';
import { pixelRoutes } from './features/system/pixel.routes';
import { logRoutes } from './features/system/system.routes';
import { textsRoutes } from './features/system/texts.routes';
import { userRoutes } from './features/account/user.routes';
import { chatSessionRoutes } from './features/chat/chatsession.routes';
import { chatEndRoutes } from './features/chat/chat-end.routes';
import { externalEndRoutes, externalRoutes } from './features/chat/chat-external.routes';
import { chatTipsRoutes } from './features/chat/chat-tips.routes';
import { chatHistoryRoutes, chatRoomRoutes } from './features/chat/chatroom.routes';
import { favoritesRoutes, userFavoritesRoutes } from './features/favorites/favorites.routes';
import { historyRoutes } from './features/favorites/history.routes';
import { studioRoutes } from './features/studio/studio.routes';
import { videoRoutes } from './features/video/video.routes';
import { streamKeyRoutes } from './features/studio/stream-key.routes';
import { whipRoutes } from './features/video/whip.routes';
import { conversationsRoutes } from './features/messages/conversations.routes';
import { studioInboxRoutes, supportInboxRoutes } from './features/messages/inbox.routes';
import { operatorPages } from './features/messages/operator.pages';
import { operatorSidePages } from './features/operator/operator.pages';
import { operatorRoutes } from './features/operator/operator.routes';
import { operatorMoneyRoutes } from './features/operator/money.routes';
import { operatorModerationRoutes } from './features/operator/moderation.routes';
import { operatorLiveRoutes } from './features/operator/live.routes';
import { operatorModerationPages } from './features/operator/moderation.pages';
import { payoutRoutes } from './features/studio/payouts.routes';
import { geoRoutes } from './features/studio/geo.routes';
import { chatSafetyRoutes } from './features/studio/chat-safety.routes';
import { operatorAccountRoutes } from './features/operator/accounts.routes';
import { operatorReportRoutes } from './features/operator/reports.routes';
import { reportsRoutes } from './features/reports/reports.routes';
import { applicationsRoutes } from './features/applications/applications.routes';
import { operatorApplicationRoutes } from './features/operator/applications.routes';
import { applicationPages } from './features/applications/applications.pages';
import { operatorAccountPages } from './features/operator/accounts.pages';
import { operatorReportPages } from './features/operator/reports.pages';
import { restrictionsRoutes } from './features/restrictions/restrictions.routes';
import { restrictionPages } from './features/restrictions/restrictions.pages';
import { pushRenewRoutes, pushRoutes } from './features/push/push.routes';
import { bodyGuard } from './middleware/body';
import { csrf, visitorCookies } from './middleware/csrf';
import { geo } from './middleware/geo';
import { preferences } from './middleware/preferences';
import { requestId } from './middleware/request-id';
import { routeGuards } from './middleware/route-guards';
import { securityHeaders } from './middleware/security';
import { session } from './middleware/session';
import { isApi, notFound, onError } from './render/error-answers';
import { ensureBuiltAssets } from './render/assets';

const STATIC_PREFIXES = ['/assets/', '/static/'];
const STATIC_FILES = new Set(['/favicon.svg', '/robots.txt', '/manifest.webmanifest', '/sw.js', '/offline']);
/** Built files carry a content hash in their name (vite.config.ts): a new build is a new URL. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

export function createApp() {
  const app = new Hono<AppEnv>();

  app.use(requestId, securityHeaders);

  // Built client files and other static files come from the assets binding, through the worker so they carry the same headers as everything else.
  app.use(async (c, next) => {
    const path = c.req.path;
    if (c.req.method === 'GET' && (STATIC_FILES.has(path) || STATIC_PREFIXES.some((p) => path.startsWith(p)))) {
      const res = await c.env.ASSETS.fetch(c.req.raw);
      if (res.status !== 404) {
        const out = new Response(res.body, res);
        if (path.startsWith('/assets/') && (res.status === 200 || res.status === 304)) out.headers.set('Cache-Control', IMMUTABLE);
        return out;
      }
    }
    // Pages name the hashed entry and inline the stylesheet: read the build's manifest once.
    if (!isApi(c)) await ensureBuiltAssets(c.env);
    await next();
  });

  app.get('/version', (c) => c.text(BUILD_ID, 200, { 'Cache-Control': 'no-store' }));
  app.route('/img', imageRoutes);
  app.route('/i18n', textsRoutes);
  app.route('/api/videos/image', videoImageRoutes);
  // A room socket proves who it is by its token alone: no visitor session is loaded for it (a storm of reconnects after a deploy then costs no D1 read but the login check of members).
  app.route('/api/chatroom', chatRoomRoutes);
  // OBS over WHIP: SDP bodies, the stream key as the credential (no visitor session, no CSRF).
  app.route('/whip', whipRoutes);
  // A browser's new push subscription, reported by its service worker: the old one's secret as the credential.
  app.route('/api/push/renew', pushRenewRoutes);

  app.use(preferences, session, bodyGuard, geo);
  // The store's files: checked per request against the session's member, never an age-splash page.
  app.route('/media', mediaRoutes);

  const api = new Hono<AppEnv>()
    .use(csrf)
    .route('/log', logRoutes)
    .route('/pixel.gif', pixelRoutes)
    .route('/session', sessionRoutes)
    .route('/auth', authRoutes)
    .route('/register', registerRoutes)
    .route('/user/chathistory', chatHistoryRoutes)
    .route('/user/favorites', userFavoritesRoutes)
    .route('/user/history', historyRoutes)
    .route('/favorites', favoritesRoutes)
    .route('/user', userRoutes)
    .route('/shows', showsRoutes)
    .route('/tags', tagsRoutes)
    .route('/categories', categoriesRoutes)
    .route('/search', searchRoutes)
    .route('/realtime', realtimeRoutes)
    .route('/billing', billingRoutes)
    .route('/coupons', couponRoutes)
    .route('/ruf', rufRoutes)
    .route('/game', gameRoutes)
    .route('/contest', contestRoutes)
    .route('/chatsession', chatSessionRoutes)
    .route('/chat/external', externalRoutes)
    .route('/chat/tips', chatTipsRoutes)
    .route('/studio/uploads', uploadsRoutes)
    .route('/studio/conversations', studioInboxRoutes)
    .route('/studio/stream-key', streamKeyRoutes)
    .route('/studio/payouts', payoutRoutes)
    .route('/studio/geo', geoRoutes)
    .route('/studio/chat-safety', chatSafetyRoutes)
    .route('/support/conversations', supportInboxRoutes)
    .route('/operator', operatorRoutes)
    .route('/operator', operatorMoneyRoutes)
    .route('/operator', operatorAccountRoutes)
    .route('/operator', operatorReportRoutes)
    .route('/reports', reportsRoutes)
    .route('/operator', operatorModerationRoutes)
    .route('/operator', operatorLiveRoutes)
    .route('/operator', operatorApplicationRoutes)
    .route('/applications', applicationsRoutes)
    .route('/restrictions', restrictionsRoutes)
    .route('/push', pushRoutes)
    .route('/conversations', conversationsRoutes)
    .route('/studio', studioRoutes)
    .route('/video', videoRoutes)
    .route('/videos', videosRoutes)
    .route('/galleries', galleriesRoutes)
    .route('/archive', archiveRoutes);
  // Operator calls and payment postbacks authenticate by token or signature instead of the CSRF cookie, so they are mounted first.
  app.route('/api/ops', opsRoutes);
  app.route('/api/billing', billingCallbackRoutes);
  // The page-hide beacon cannot send the CSRF header: the end call checks it, or the room token, itself.
  app.route('/api/chatsession/end', chatEndRoutes);
  // The same for the external provider's end call (`?beacon=1`); without the flag it checks CSRF itself.
  app.route('/api/chat/external/end', externalEndRoutes);
  app.route('/api', api);

  app.use(async (c, next) => (isApi(c) ? next() : visitorCookies(c, next)));
  app.use(async (c, next) => (isApi(c) ? next() : routeGuards(c, next)));
  // Pages answer the site's own URLs (the spec's routes), which share no prefix per feature.
  for (const pages of [showPages, showsPages, searchPages, infoPages, freePages, storeListPages, storeItemPages, accountPages, sandboxPages, billingPages, sessionPages, applicationPages]) app.route('/', pages);
  app.route('/game', gamePages);
  app.route('/contest', contestPages);
  app.route('/studio', studioPages);
  app.route('/messages', messagesPages);
  for (const pages of [operatorPages, operatorSidePages, operatorAccountPages, operatorReportPages, operatorModerationPages]) app.route('/operator', pages);
  app.route('/account', restrictionPages);
  app.route('/users/archive', archivePages);
  app.route('/users', profilePages);
  app.route('/avs', avsPages);
  app.route('/dev', mailboxPages);

  app.notFound(notFound);
  app.onError(onError);

  return app;
}
