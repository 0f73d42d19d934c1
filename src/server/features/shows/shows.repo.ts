import type { Locale } from '../../../shared/constants';
import type { ShowRow as ShowTable } from '../../lib/tables';
import {
  distanceKm,
  exclusiveActive,
  exclusiveOnly,
  exclusivePrice,
  type Paged,
  type Promo,
  type ShowDetail,
  type ShowFilter,
  type ShowSummary,
} from '../../../shared/shows';
import type { SearchText } from '../../../shared/search-names';
import { nameContains, nameTier } from '../../lib/search-rank';
import { nowSeconds } from '../../lib/clock';
import { notHiddenSql } from '../../lib/geo-hidden';

/** The columns of SHOW_COLUMNS (city_en was null before migration 0010 filled it). */
export type ShowRow = Omit<ShowTable, 'lat' | 'lon' | 'palette' | 'description_en' | 'description_de' | 'online_since' | 'sort_rank' | 'created_at' | 'city_en'> & {
  city_en: string | null;
};

export const SHOW_COLUMNS = `s.id, s.universal_id, s.contentprovider_id, s.name, s.slug_name, s.age, s.languages, s.city, s.city_en,
  s.country, s.price_per_minute, s.price_factor_exclusive, s.flag_free, s.flag_exclusive, s.features, s.rating,
  s.preview_count, s.ribbon, s.slogan_en, s.slogan_de, s.online`;

function parseFeatures(json: string): string[] {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.filter((f): f is string => typeof f === 'string') : [];
  } catch {
    return [];
  }
}

/** The city in the visitor's language (English pages showed German names). */
export function cityName(r: Pick<ShowRow, 'city' | 'city_en'>, locale: Locale): string {
  return locale === 'de' ? r.city : (r.city_en ?? r.city);
}

export function toShowSummary(r: ShowRow, locale: Locale): ShowSummary {
  return {
    id: r.id,
    universalId: r.universal_id,
    contentproviderId: r.contentprovider_id,
    show_id: r.id,
    name: r.name,
    showName: r.name,
    slugName: r.slug_name,
    age: r.age,
    online: r.online === 1,
    languages: r.languages.split(',').filter(Boolean),
    city: cityName(r, locale),
    country: r.country,
    pricePerMinute: r.price_per_minute,
    priceFactorExclusive: r.price_factor_exclusive,
    flags: { free: r.flag_free === 1, exclusive: r.flag_exclusive },
    features: parseFeatures(r.features),
    rating: r.rating,
    previews: Array.from({ length: r.preview_count }, (_, i) => i + 1),
    ribbon: r.ribbon,
    texts: { slogan: locale === 'de' ? r.slogan_de : r.slogan_en, description: '' },
    isFavorite: false,
  };
}


export interface ShowQuery {
  page: number;
  limit: number;
  /** With infinite scroll: return pages page_from..page in one answer. */
  pageFrom?: number;
  categoryId?: number | null;
  /** A search term from searchText(): matched by name or words, name matches first. */
  text?: SearchText | null;
  /** Tag slugs that must all be present. */
  tags?: string[];
  near?: { lat: number; lon: number } | null;
  /** free_online: shows whose free chat is open now (live and offering free mode). */
  filter?: ShowFilter | null;
  /** Shows hidden from the asker's place (geo-blocking): left out, counts included. */
  hidden?: readonly number[];
  locale: Locale;
}

/**
 * Shows for lists and search: online first then by rank, or by distance when `near` is given.
 * The SQL is assembled from fixed fragments only; every value is a bound parameter.
 */
export async function queryShows(db: D1Database, q: ShowQuery): Promise<Paged<ShowSummary> & { online: number }> {
  const where: string[] = [];
  const params: (string | number)[] = [];
  let from = 'shows s';
  if (q.categoryId != null) {
    from += ' JOIN show_categories sc ON sc.show_id = s.id AND sc.category_id = ?';
    params.push(q.categoryId);
  }
  if (q.text) {
    const byName = nameContains('s.name_key', q.text);
    where.push(`(s.id IN (SELECT rowid FROM shows_fts WHERE shows_fts MATCH ?) OR ${byName.sql})`);
    params.push(q.text.fts, ...byName.params);
  }
  for (const tag of q.tags ?? []) {
    where.push('EXISTS (SELECT 1 FROM show_tags st JOIN tags t ON t.id = st.tag_id WHERE st.show_id = s.id AND t.slug = ?)');
    params.push(tag);
  }
  if (q.filter === 'online') where.push('s.online = 1');
  if (q.filter === 'free') where.push('s.flag_free = 1');
  if (q.filter === 'new') where.push("s.ribbon = 'new'");
  if (q.filter === 'free_online') where.push('s.online = 1 AND s.flag_free = 1');
  const geo = notHiddenSql('s.id', q.hidden);
  if (geo) where.push(geo.sql), params.push(...geo.params);
  const whereSql = where.length ? `WHERE ${where.join(' AND ')}` : '';

  let order = 'ORDER BY s.online DESC, s.sort_rank, s.id';
  const orderParams: (string | number)[] = [];
  if (q.near) {
    // Equirectangular distance is exact enough to order by and needs no SQL trigonometry.
    const k = Math.cos((q.near.lat * Math.PI) / 180);
    order = 'ORDER BY ((s.lat - ?) * (s.lat - ?) + (s.lon - ?) * (s.lon - ?) * ?), s.id';
    orderParams.push(q.near.lat, q.near.lat, q.near.lon, q.near.lon, k * k);
  }
  if (q.text) {
    // Name matches first (exact, prefix, contained), then a word of the city or the tags, then
    // the texts; within a tier the list's own order (online first, or by distance).
    const tier = nameTier('s.name_key', q.text, [
      { sql: 's.id IN (SELECT rowid FROM shows_fts WHERE shows_fts MATCH ?)', params: [`{name city tags} : (${q.text.fts})`] },
    ]);
    order = order.replace('ORDER BY ', `ORDER BY ${tier.sql}, `);
    orderParams.unshift(...tier.params);
  }
  const first = Math.min(q.pageFrom ?? q.page, q.page);
  const offset = (first - 1) * q.limit;
  const count = (q.page - first + 1) * q.limit;
  const [rows, totals] = await db.batch([
    db.prepare(`SELECT ${SHOW_COLUMNS}, s.lat, s.lon FROM ${from} ${whereSql} ${order} LIMIT ? OFFSET ?`).bind(...params, ...orderParams, count, offset),
    db.prepare(`SELECT COUNT(*) AS total, COALESCE(SUM(s.online), 0) AS online FROM ${from} ${whereSql}`).bind(...params),
  ]);
  const { total, online } = (totals.results[0] ?? { total: 0, online: 0 }) as { total: number; online: number };
  return {
    data: (rows.results as (ShowRow & { lat: number; lon: number })[]).map((r) => {
      const show = toShowSummary(r, q.locale);
      return q.near ? { ...show, distance: Math.round(distanceKm(q.near, r) * 10) / 10 } : show;
    }),
    current_page: q.page,
    last_page: Math.max(1, Math.ceil(total / q.limit)),
    total,
    online,
  };
}

interface DetailRow extends ShowRow {
  description_en: string;
  description_de: string;
  lat: number;
  lon: number;
}

/** One show with everything the show page needs, in one round trip. */
export async function getShowDetail(db: D1Database, id: number, locale: Locale): Promise<ShowDetail | null> {
  const [show, tags, cats, counts] = await db.batch([
    db.prepare(`SELECT ${SHOW_COLUMNS}, s.description_en, s.description_de, s.lat, s.lon FROM shows s WHERE s.id = ?`).bind(id),
    db.prepare('SELECT t.slug, t.name_en, t.name_de FROM show_tags st JOIN tags t ON t.id = st.tag_id WHERE st.show_id = ? ORDER BY t.slug').bind(id),
    db
      .prepare(
        'SELECT c.id, c.name_en, c.name_de, c.slug, c.slug_description FROM show_categories sc JOIN categories c ON c.id = sc.category_id WHERE sc.show_id = ? ORDER BY c.is_search, c.position',
      )
      .bind(id),
    // What the store lists of the show: published and approved items only.
    db
      .prepare(
        "SELECT (SELECT COUNT(*) FROM videos WHERE show_id = ?1 AND status = 'published' AND review = 'approved') AS videos, (SELECT COUNT(*) FROM galleries WHERE show_id = ?1 AND status = 'published' AND review = 'approved') AS galleries",
      )
      .bind(id),
  ]);
  const r = show.results[0] as DetailRow | undefined;
  if (!r) return null;
  const base = toShowSummary(r, locale);
  const de = locale === 'de';
  return {
    ...base,
    texts: { slogan: base.texts.slogan, description: de ? r.description_de : r.description_en },
    pricing: { private: r.price_per_minute, exclusive: exclusiveActive(r.flag_exclusive) ? exclusivePrice(r.price_per_minute, r.price_factor_exclusive) : null },
    exclusivemode: exclusiveActive(r.flag_exclusive),
    exclusiveOnly: exclusiveOnly(r.flag_exclusive),
    freemode: r.flag_free === 1,
    isFavorite: false,
    phone: { not_available: !base.features.includes('phone'), busy: false, online: base.online && base.features.includes('phone'), extension: null, connecting: false },
    server: { host: null },
    tags: (tags.results as { slug: string; name_en: string; name_de: string }[]).map((t) => ({ slug: t.slug, name: de ? t.name_de : t.name_en })),
    categories: (cats.results as { id: number; name_en: string; name_de: string; slug: string; slug_description: string }[]).map((c) => ({
      id: c.id,
      name: de ? c.name_de : c.name_en,
      slug: c.slug,
      slug_description: c.slug_description,
    })),
    lat: r.lat,
    lon: r.lon,
    counts: (counts.results[0] as { videos: number; galleries: number }) ?? { videos: 0, galleries: 0 },
  };
}

/** Previous and next show around `id` in the list order (online first, then rank). */
export async function neighbours(db: D1Database, id: number, categoryId: number | null, hidden: readonly number[] = []): Promise<{ prev: ShowRef | null; next: ShowRef | null }> {
  const scope = `${categoryId === null ? 'shows s' : 'shows s JOIN show_categories sc ON sc.show_id = s.id AND sc.category_id = ?2'} WHERE s.id NOT IN (SELECT value FROM json_each(?3))`;
  const row = await db
    .prepare(
      `WITH ordered AS (SELECT s.id, s.slug_name, s.name, ROW_NUMBER() OVER (ORDER BY s.online DESC, s.sort_rank, s.id) AS n FROM ${scope})
       SELECT
         (SELECT json_object('id', id, 'slugName', slug_name, 'name', name) FROM ordered WHERE n = (SELECT n FROM ordered WHERE id = ?1) - 1) AS prev,
         (SELECT json_object('id', id, 'slugName', slug_name, 'name', name) FROM ordered WHERE n = (SELECT n FROM ordered WHERE id = ?1) + 1) AS next`,
    )
    .bind(id, categoryId, JSON.stringify(hidden))
    .first<{ prev: string | null; next: string | null }>();
  return { prev: row?.prev ? (JSON.parse(row.prev) as ShowRef) : null, next: row?.next ? (JSON.parse(row.next) as ShowRef) : null };
}

export type ShowRef = { id: number; slugName: string; name: string };

interface PromoRow extends ShowRow {
  promo_id: number;
  promo_title_en: string;
  promo_title_de: string;
  start_at: number;
  stop_at: number;
}

/** Promotions running now (page 1 of the show list, the home strip, GET shows/promos). */
export async function activePromos(db: D1Database, locale: Locale): Promise<Promo[]> {
  const now = nowSeconds();
  const { results } = await db
    .prepare(
      `SELECT p.id AS promo_id, p.title_en AS promo_title_en, p.title_de AS promo_title_de, p.start_at, p.stop_at, ${SHOW_COLUMNS}
       FROM promos p JOIN shows s ON s.id = p.show_id WHERE p.start_at <= ?1 AND p.stop_at > ?1 ORDER BY p.stop_at LIMIT 12`,
    )
    .bind(now)
    .all<PromoRow>();
  return results.map((r) => ({
    id: r.promo_id,
    show_id: r.id,
    title: locale === 'de' ? r.promo_title_de : r.promo_title_en,
    start: r.start_at,
    stop: r.stop_at,
    show: toShowSummary(r, locale),
  }));
}
