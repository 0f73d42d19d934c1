import { Hono, type Context } from 'hono';
import type { ReactNode } from 'react';
import { canonicalHref, parsePage } from '../../../shared/pagination';
import { toTileGallery, toTileVideo, type ListItem, type ListProps } from '../../../shared/show-lists';
import { STORE_LIST_LIMIT } from '../../../shared/store';
import { Layout } from '../../../client/shell/layout';
import { ArchivePage, StoreListPage } from '../../../client/features/store/store-list-page';
import type { AppEnv } from '../../env';
import { renderPage } from '../../render/render-page';
import { archiveLatest, archiveList } from './store.service';

// The member's archive (/users/archive, /videos, /galleries): what they bought, newest first.
// Visitors go to the login, as on the other member pages.

const ARCHIVE = '/users/archive';

function page(c: Context<AppEnv>, title: string, trail: { label: string; href?: string }[], body: ReactNode, canonical?: string) {
  const t = c.get('t');
  return renderPage(c, <Layout breadcrumbs={trail}>{body}</Layout>, { title: `${title} – ${t('common.brand')}`, robots: 'noindex', canonical, texts: ['store'] });
}

async function archiveKind(c: Context<AppEnv>, kind: 'videos' | 'galleries') {
  const user = c.get('user');
  if (!user) return c.redirect('/login', 302);
  const t = c.get('t');
  const url = new URL(c.req.url);
  const q = { userId: user.id, page: parsePage(url.searchParams.get('page')), locale: c.get('locale'), hidden: await c.var.hiddenShows() };
  const r =
    kind === 'videos'
      ? await archiveList(c.env.DB, { ...q, kind }).then((a) => ({ ...a, items: a.data.map((v) => toTileVideo({ ...v, owned: true })) as ListItem[] }))
      : await archiveList(c.env.DB, { ...q, kind }).then((a) => ({ ...a, items: a.data.map((g) => toTileGallery({ ...g, owned: true })) as ListItem[] }));
  const items = r.items;
  const path = `${ARCHIVE}/${kind}`;
  const list: ListProps = {
    source: { kind, endpoint: `archive/${kind}`, params: {}, pageSize: STORE_LIST_LIMIT },
    items,
    page: r.current_page,
    lastPage: r.last_page,
    total: r.total,
    path,
    query: '',
    store: 'store',
  };
  const title = t(`store.archive.${kind}Title`);
  const tabs = (['videos', 'galleries'] as const).map((k) => ({ key: k, label: t(`store.nav.${k}`), href: `${ARCHIVE}/${k}`, active: k === kind }));
  return page(
    c,
    title,
    [{ label: t('store.archive.title'), href: ARCHIVE }, { label: t(`store.nav.${kind}`) }],
    <StoreListPage title={title} lead={t('store.archive.lead')} count={t(`store.${kind}.count`, { count: r.total })} tabs={tabs} list={list} />,
    canonicalHref(url.origin, path, url.searchParams),
  );
}

export const archivePages = new Hono<AppEnv>()
  .get('/', async (c) => {
    const user = c.get('user');
    if (!user) return c.redirect('/login', 302);
    const t = c.get('t');
    const r = await archiveLatest(c.env.DB, { userId: user.id, locale: c.get('locale'), hidden: await c.var.hiddenShows() });
    return page(
      c,
      t('store.archive.title'),
      [{ label: t('store.archive.title') }],
      <ArchivePage
        counts={{ video_count: r.video_count, gallery_count: r.gallery_count, video_total: r.video_total, gallery_total: r.gallery_total }}
        videos={r.videos.map((v) => toTileVideo({ ...v, owned: true }))}
        galleries={r.galleries.map((g) => toTileGallery({ ...g, owned: true }))}
      />,
    );
  })
  .get('/videos', (c) => archiveKind(c, 'videos'))
  .get('/galleries', (c) => archiveKind(c, 'galleries'));
