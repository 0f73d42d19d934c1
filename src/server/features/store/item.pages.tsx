import { Hono, type Context } from 'hono';
import { showHref } from '../../../shared/shows';
import { toTileGallery, toTileVideo } from '../../../shared/show-lists';
import { STORE_MLT_LIMIT } from '../../../shared/store';
import { clipHref, picturesHref, showGalleriesHref, showVideosHref, type StoreContext } from '../../../shared/store-links';
import type { Crumb } from '../../../client/ui/breadcrumbs';
import { Layout } from '../../../client/shell/layout';
import { ClipPage, GalleryPage } from '../../../client/features/store/store-item-page';
import type { AppEnv } from '../../env';
import { idParam } from '../../lib/params';
import { renderPage } from '../../render/render-page';
import { getGallery, getVideo, moreLikeGallery, moreLikeVideo } from './store.service';
import { seerOf } from './store-params';

// A video's clip page and a gallery's pictures page, each in three contexts: the store
// (/videos/clip/{id}/{part?}, /galleries/pictures/{showid}/{id}), a search
// (/search/videos/clip/..., /search/galleries/pictures/...) and nested in the show's address
// (/chat/{showid}/{slug}/videos/{id}/{part?}, /chat/{showid}/{slug}/galleries/{id}).

function contextCrumbs(c: Context<AppEnv>, ctx: StoreContext, kind: 'videos' | 'galleries', show: { id: number; name: string; slugName: string }): Crumb[] {
  const t = c.get('t');
  if (ctx === 'search') return [{ label: t('search.crumb'), href: `/search/${kind}` }];
  if (ctx === 'show') {
    return [
      { label: show.name, href: showHref(show) },
      { label: t(`store.nav.${kind}`), href: kind === 'videos' ? showVideosHref(show) : showGalleriesHref(show) },
    ];
  }
  return [{ label: t(`store.nav.${kind}`), href: `/${kind}` }];
}

async function renderClip(c: Context<AppEnv>, ctx: StoreContext) {
  const id = idParam.parse(c.req.param('id'));
  const rawPart = c.req.param('part');
  const part = rawPart === undefined ? 1 : idParam.parse(rawPart);
  if (id === null || part === null) return c.notFound();
  const locale = c.get('locale');
  const userId = c.get('user')?.id ?? null;
  const hidden = await c.var.hiddenShows();
  const video = await getVideo(c.env.DB, { id, locale, userId, seer: seerOf(c), hidden });
  if (!video || !video.parts_list.some((p) => p.part === part)) return c.notFound();
  const show = { id: video.show_id, name: video.showName, slugName: video.showSlug };
  if (ctx === 'show') {
    const showId = idParam.parse(c.req.param('showid'));
    if (showId !== video.show_id) return c.notFound();
    if (c.req.param('slug') !== video.showSlug) return c.redirect(clipHref(video, 'show', part), 301);
  }
  const more = (await moreLikeVideo(c.env.DB, { ccid: video.ccid, showId: video.show_id, limit: STORE_MLT_LIMIT, locale, userId, hidden })) ?? [];
  const t = c.get('t');
  const url = new URL(c.req.url);
  const basePath = clipHref(video, ctx);
  return renderPage(
    c,
    <Layout breadcrumbs={[...contextCrumbs(c, ctx, 'videos', show), { label: video.title }]}>
      <ClipPage video={video} part={part} basePath={basePath} show={{ name: video.showName, href: showHref(show) }} more={more.map(toTileVideo)} ctx={ctx} />
    </Layout>,
    {
      title: `${video.title} – ${video.showName} – ${t('common.brand')}`,
      description: t('store.clipDescription', { title: video.title, name: video.showName }),
      canonical: `${url.origin}${clipHref(video, 'store', part)}`,
      texts: ['store'],
    },
  );
}

async function renderGallery(c: Context<AppEnv>, ctx: StoreContext) {
  const showId = idParam.parse(c.req.param('showid'));
  const id = idParam.parse(c.req.param('id'));
  if (showId === null || id === null) return c.notFound();
  const locale = c.get('locale');
  const userId = c.get('user')?.id ?? null;
  const hidden = await c.var.hiddenShows();
  const gallery = await getGallery(c.env.DB, { showId, id, locale, userId, seer: seerOf(c), hidden });
  if (!gallery) return c.notFound();
  const show = { id: gallery.showId, name: gallery.showName, slugName: gallery.showSlug };
  if (ctx === 'show' && c.req.param('slug') !== gallery.showSlug) return c.redirect(picturesHref(gallery, 'show'), 301);
  const more = (await moreLikeGallery(c.env.DB, { id: gallery.id, showId: gallery.showId, limit: STORE_MLT_LIMIT, locale, userId, hidden })) ?? [];
  const t = c.get('t');
  const url = new URL(c.req.url);
  return renderPage(
    c,
    <Layout breadcrumbs={[...contextCrumbs(c, ctx, 'galleries', show), { label: gallery.title }]}>
      <GalleryPage gallery={gallery} show={{ name: gallery.showName, href: showHref(show) }} more={more.map(toTileGallery)} ctx={ctx} />
    </Layout>,
    {
      title: `${gallery.title} – ${gallery.showName} – ${t('common.brand')}`,
      description: t('store.galleryDescription', { title: gallery.title, name: gallery.showName }),
      canonical: `${url.origin}${picturesHref(gallery, 'store')}`,
      texts: ['store'],
    },
  );
}

export const storeItemPages = new Hono<AppEnv>()
  .get('/videos/clip/:id/:part?', (c) => renderClip(c, 'store'))
  .get('/search/videos/clip/:id/:part?', (c) => renderClip(c, 'search'))
  .get('/chat/:showid/:slug/videos/:id/:part?', (c) => renderClip(c, 'show'))
  .get('/galleries/pictures/:showid/:id', (c) => renderGallery(c, 'store'))
  .get('/search/galleries/pictures/:showid/:id', (c) => renderGallery(c, 'search'))
  .get('/chat/:showid/:slug/galleries/:id', (c) => renderGallery(c, 'show'));
