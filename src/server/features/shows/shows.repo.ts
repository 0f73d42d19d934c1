import type { Locale } from '../../../shared/constants';
import type { Category, Paged, ShowSummary } from '../../../shared/shows';

interface ShowRow {
  id: number;
  universal_id: string;
  contentprovider_id: number;
  name: string;
  slug_name: string;
  age: number;
  languages: string;
  city: string;
  country: string;
  price_per_minute: number;
  price_factor_exclusive: number;
  flag_free: number;
  flag_exclusive: number;
  features: string;
  rating: number;
  preview_count: number;
  ribbon: string | null;
  slogan_en: string;
  slogan_de: string;
  online: number;
}

const SHOW_COLUMNS = `s.id, s.universal_id, s.contentprovider_id, s.name, s.slug_name, s.age, s.languages, s.city,
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
    city: r.city,
    country: r.country,
    pricePerMinute: r.price_per_minute,
    priceFactorExclusive: r.price_factor_exclusive,
    flags: { free: r.flag_free === 1, exclusive: r.flag_exclusive },
    features: parseFeatures(r.features),
    rating: r.rating,
    previews: Array.from({ length: r.preview_count }, (_, i) => i + 1),
    ribbon: r.ribbon,
    texts: { slogan: locale === 'de' ? r.slogan_de : r.slogan_en, description: '' },
  };
}

/** Shows ordered online first, then by rank; optionally within one category. */
export async function listShows(
  db: D1Database,
  opts: { page: number; limit: number; categoryId?: number | null; locale: Locale },
): Promise<Paged<ShowSummary> & { online: number }> {
  const offset = (opts.page - 1) * opts.limit;
  const cat = opts.categoryId ?? null;
  const [rows, count] = await db.batch([
    cat === null
      ? db.prepare(`SELECT ${SHOW_COLUMNS} FROM shows s ORDER BY s.online DESC, s.sort_rank, s.id LIMIT ? OFFSET ?`).bind(opts.limit, offset)
      : db
          .prepare(
            `SELECT ${SHOW_COLUMNS} FROM show_categories sc JOIN shows s ON s.id = sc.show_id
             WHERE sc.category_id = ? ORDER BY s.online DESC, s.sort_rank, s.id LIMIT ? OFFSET ?`,
          )
          .bind(cat, opts.limit, offset),
    cat === null
      ? db.prepare('SELECT COUNT(*) AS total, COALESCE(SUM(online), 0) AS online FROM shows')
      : db
          .prepare(
            'SELECT COUNT(*) AS total, COALESCE(SUM(s.online), 0) AS online FROM show_categories sc JOIN shows s ON s.id = sc.show_id WHERE sc.category_id = ?',
          )
          .bind(cat),
  ]);
  const { total, online } = (count.results[0] ?? { total: 0, online: 0 }) as { total: number; online: number };
  return {
    data: (rows.results as unknown as ShowRow[]).map((r) => toShowSummary(r, opts.locale)),
    current_page: opts.page,
    last_page: Math.max(1, Math.ceil(total / opts.limit)),
    total,
    online,
  };
}

interface CategoryRow {
  id: number;
  slug: string;
  slug_description: string;
  name_en: string;
  name_de: string;
  is_search: number;
  count: number;
  online: number;
}

export type CategoryWithCounts = Category & { count: number; online: number };

/** All categories in display order with show counts. */
export async function listCategories(db: D1Database, locale: Locale): Promise<CategoryWithCounts[]> {
  const { results } = await db
    .prepare(
      `SELECT c.id, c.slug, c.slug_description, c.name_en, c.name_de, c.is_search,
         COUNT(s.id) AS count, COALESCE(SUM(s.online), 0) AS online
       FROM categories c
       LEFT JOIN show_categories sc ON sc.category_id = c.id
       LEFT JOIN shows s ON s.id = sc.show_id
       GROUP BY c.id ORDER BY c.is_search, c.position, c.id`,
    )
    .all<CategoryRow>();
  return results.map((r) => ({
    id: r.id,
    slug: r.slug,
    slug_description: r.slug_description,
    name: locale === 'de' ? r.name_de : r.name_en,
    is_search: r.is_search === 1,
    count: r.count,
    online: r.online,
  }));
}
