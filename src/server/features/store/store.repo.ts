import type { Locale } from '../../../shared/constants';
import type { GallerySummary, Paged, VideoSummary } from '../../../shared/shows';
import type { StoreSort } from '../../../shared/store';
import type { SearchText } from '../../../shared/search-names';
import { nameContains, nameTier } from '../../lib/search-rank';
import { notHiddenSql } from '../../lib/geo-hidden';

// The store's lists and more-like-this (issue 13; one item's page: item.repo.ts). Every query shows only published
// items; `owned` is worked out in the same query for a logged-in member (bought, or price 0).
// The SQL is assembled from fixed fragments only; every value is a bound parameter.

export type Kind = 'video' | 'gallery';

/**
 * Who sees an item that is not approved (issue 29: uploads wait for an operator's review): the
 * parameter `p` is the asker's "seer" (seerOf): -1 an operator sees every item, a show id its
 * performer sees that show's, 0 nobody. Lists and searches never show unapproved items.
 */
export const reviewedFor = (alias: string, p: string) => `(${alias}.review = 'approved' OR ${p} = -1 OR ${alias}.show_id = ${p})`;
type Param = string | number;

interface MediaRow {
  id: number;
  show_id: number;
  show_name: string;
  show_slug: string;
  title_en: string;
  title_de: string;
  price: number;
  rating: number;
  owned: number | null;
  created_at: number;
}
export interface VideoListRow extends MediaRow {
  ccid: string;
  duration_s: number;
  parts: number;
}
export interface GalleryListRow extends MediaRow {
  picture_count: number;
}

const TABLE = { video: 'videos', gallery: 'galleries' } as const;
const EXTRA = { video: 'm.ccid, m.duration_s, m.parts', gallery: 'm.picture_count' } as const;

/** Orders by name (anything else: newest). Galleries count no views: newest. */
const ORDER: Record<Kind, Record<StoreSort, string>> = {
  video: {
    newest: 'm.created_at DESC, m.id DESC',
    rating: 'm.rating DESC, m.id DESC',
    price_asc: 'm.price ASC, m.id DESC',
    price_desc: 'm.price DESC, m.id DESC',
    views: 'm.views DESC, m.id DESC',
  },
  gallery: {
    newest: 'm.created_at DESC, m.id DESC',
    rating: 'm.rating DESC, m.id DESC',
    price_asc: 'm.price ASC, m.id DESC',
    price_desc: 'm.price DESC, m.id DESC',
    views: 'm.created_at DESC, m.id DESC',
  },
};

/** The select list of a tile; binds the member id (or null: owned stays null). */
export function tileColumns(kind: Kind): string {
  return `m.id, m.show_id, s.name AS show_name, s.slug_name AS show_slug, m.title_en, m.title_de, m.price, m.rating, m.created_at, ${EXTRA[kind]},
    CASE WHEN ?1 IS NULL THEN NULL WHEN m.price = 0 OR EXISTS (SELECT 1 FROM purchases p WHERE p.user_id = ?1 AND p.kind = '${kind}' AND p.item_id = m.id) THEN 1 ELSE 0 END AS owned`;
}

/** What a tile of either kind shows: title in the locale, show, price, rating, art; owned only when a member asked. */
function toTile(r: MediaRow, locale: Locale, kind: Kind) {
  return {
    id: r.id,
    showName: r.show_name,
    showSlug: r.show_slug,
    title: locale === 'de' ? r.title_de : r.title_en,
    price: r.price,
    rating: r.rating,
    image: `/img/${kind}/${r.id}.svg`,
    ...(r.owned !== null && { owned: r.owned === 1 }),
  };
}

export function toVideoSummary(r: VideoListRow, locale: Locale): VideoSummary {
  return { ...toTile(r, locale, 'video'), ccid: r.ccid, show_id: r.show_id, duration: r.duration_s, parts: r.parts };
}

export function toGallerySummary(r: GalleryListRow, locale: Locale): GallerySummary {
  return { ...toTile(r, locale, 'gallery'), showId: r.show_id, picture_count: r.picture_count };
}

export interface ListQuery {
  page: number;
  limit: number;
  /** A search term from searchText(): titles and show names; items of a show named so first. */
  text?: SearchText | null;
  showId?: number | null;
  /** Tag slugs that must all be present (a video's own tags; a gallery's show's tags). */
  tags?: string[];
  sort?: StoreSort;
  /** Category id: items of the shows in it. */
  cat?: number | null;
  /** Only price 0 (videos). */
  free?: boolean;
  /** Shows hidden from the asker's place (geo-blocking): their items are left out. */
  hidden?: readonly number[];
  userId: number | null;
}

/** One page of published items (with the total) in one round trip. */
export async function queryList<R extends MediaRow>(db: D1Database, kind: Kind, q: ListQuery): Promise<Paged<R>> {
  const table = TABLE[kind];
  const where = ["m.status = 'published'", "m.review = 'approved'"];
  const params: Param[] = [];
  if (q.text) {
    const byName = nameContains('k.name_key', q.text);
    where.push(`(m.id IN (SELECT rowid FROM ${table}_fts WHERE ${table}_fts MATCH ?) OR m.show_id IN (SELECT k.id FROM shows k WHERE ${byName.sql}))`);
    params.push(q.text.fts, ...byName.params);
  }
  if (q.showId != null) {
    where.push('m.show_id = ?');
    params.push(q.showId);
  }
  if (q.cat != null) {
    where.push('EXISTS (SELECT 1 FROM show_categories sc WHERE sc.show_id = m.show_id AND sc.category_id = ?)');
    params.push(q.cat);
  }
  for (const tag of q.tags ?? []) {
    where.push(
      kind === 'video'
        ? 'EXISTS (SELECT 1 FROM video_tags vt JOIN tags t ON t.id = vt.tag_id WHERE vt.video_id = m.id AND t.slug = ?)'
        : 'EXISTS (SELECT 1 FROM show_tags st JOIN tags t ON t.id = st.tag_id WHERE st.show_id = m.show_id AND t.slug = ?)',
    );
    params.push(tag);
  }
  if (q.free) where.push('m.price = 0');
  const geo = notHiddenSql('m.show_id', q.hidden);
  if (geo) {
    where.push(geo.sql);
    params.push(...geo.params);
  }
  const whereSql = `WHERE ${where.join(' AND ')}`;
  const sorted = ORDER[kind][q.sort ?? 'newest'] ?? ORDER[kind].newest;
  // A search ranks by the show's name first (the shows' ranking), then the chosen order.
  const tier = q.text ? nameTier('s.name_key', q.text) : null;
  const order = tier ? `${tier.sql}, ${sorted}` : sorted;
  const orderParams = tier?.params ?? [];
  // ?1 is the member id (tileColumns); the filters' parameters follow as ?2...
  const numbered = (sql: string, from: number) => {
    let n = from;
    return sql.replace(/\?(?!\d)/g, () => `?${n++}`);
  };
  const n = params.length + orderParams.length;
  const [rows, count] = await db.batch([
    db
      .prepare(`SELECT ${tileColumns(kind)} FROM ${table} m JOIN shows s ON s.id = m.show_id ${numbered(`${whereSql} ORDER BY ${order}`, 2)} LIMIT ?${n + 2} OFFSET ?${n + 3}`)
      .bind(q.userId, ...params, ...orderParams, q.limit, (q.page - 1) * q.limit),
    db.prepare(`SELECT COUNT(*) AS total FROM ${table} m ${whereSql}`).bind(...params),
  ]);
  const total = (count.results[0] as { total: number } | undefined)?.total ?? 0;
  return { data: rows.results as R[], current_page: q.page, last_page: Math.max(1, Math.ceil(total / q.limit)), total };
}

/**
 * More like an item: the given show's items first (when asked), then those sharing the most tags
 * (a video's own tags; for galleries their shows' tags), then the best rated. Never the item itself.
 */
export async function queryMoreLike<R extends MediaRow>(db: D1Database, kind: Kind, itemId: number, showId: number | null, limit: number, userId: number | null, hidden: readonly number[] = []): Promise<R[]> {
  const shared =
    kind === 'video'
      ? '(SELECT COUNT(*) FROM video_tags a JOIN video_tags b ON b.tag_id = a.tag_id WHERE a.video_id = m.id AND b.video_id = ?2)'
      : '(SELECT COUNT(*) FROM show_tags a JOIN show_tags b ON b.tag_id = a.tag_id WHERE a.show_id = m.show_id AND b.show_id = (SELECT show_id FROM galleries WHERE id = ?2))';
  const { results } = await db
    .prepare(
      `SELECT ${tileColumns(kind)} FROM ${TABLE[kind]} m JOIN shows s ON s.id = m.show_id
       WHERE m.status = 'published' AND m.review = 'approved' AND m.id != ?2 AND m.show_id NOT IN (SELECT value FROM json_each(?5))
       ORDER BY (m.show_id IS ?3) DESC, ${shared} DESC, m.rating DESC, m.id DESC LIMIT ?4`,
    )
    .bind(userId, itemId, showId, limit, JSON.stringify(hidden))
    .all<R>();
  return results;
}
