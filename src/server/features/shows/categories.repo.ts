import type { Locale } from '../../../shared/constants';
import type { Category } from '../../../shared/shows';
import type { CategoryRow as CategoryTable } from '../../lib/tables';

interface CategoryRow extends Omit<CategoryTable, 'position'> {
  count: number;
  online: number;
}

export type CategoryWithCounts = Category & { count: number; online: number };

/** All categories in display order with show counts; `hidden` shows (geo-blocking) are not counted. */
export async function listCategories(db: D1Database, locale: Locale, hidden: readonly number[] = []): Promise<CategoryWithCounts[]> {
  const { results } = await db
    .prepare(
      `SELECT c.id, c.slug, c.slug_description, c.name_en, c.name_de, c.is_search,
         COUNT(s.id) AS count, COALESCE(SUM(s.online), 0) AS online
       FROM categories c
       LEFT JOIN show_categories sc ON sc.category_id = c.id
       LEFT JOIN shows s ON s.id = sc.show_id AND s.id NOT IN (SELECT value FROM json_each(?1))
       GROUP BY c.id ORDER BY c.is_search, c.position, c.id`,
    )
    .bind(JSON.stringify(hidden))
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

export interface TagWithCount {
  id: number;
  slug: string;
  name: string;
  count: number;
}

/** Every tag with the number of shows that carry it; `hidden` shows (geo-blocking) are not counted. */
export async function listTags(db: D1Database, locale: Locale, hidden: readonly number[] = []): Promise<TagWithCount[]> {
  const { results } = await db
    .prepare(
      `SELECT t.id, t.slug, t.name_en, t.name_de, COUNT(st.show_id) AS count
       FROM tags t LEFT JOIN show_tags st ON st.tag_id = t.id AND st.show_id NOT IN (SELECT value FROM json_each(?1))
       GROUP BY t.id ORDER BY t.slug`,
    )
    .bind(JSON.stringify(hidden))
    .all<{ id: number; slug: string; name_en: string; name_de: string; count: number }>();
  return results.map((t) => ({ id: t.id, slug: t.slug, name: locale === 'de' ? t.name_de : t.name_en, count: t.count }));
}

/** The names of the given tag slugs, in their order; unknown slugs are left out. */
export async function tagNames(db: D1Database, slugs: string[], locale: Locale): Promise<string[]> {
  if (slugs.length === 0) return [];
  const { results } = await db
    .prepare('SELECT slug, name_en, name_de FROM tags WHERE slug IN (SELECT value FROM json_each(?))')
    .bind(JSON.stringify(slugs))
    .all<{ slug: string; name_en: string; name_de: string }>();
  return slugs.map((s) => results.find((r) => r.slug === s)).flatMap((r) => (r ? [locale === 'de' ? r.name_de : r.name_en] : []));
}
