import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { CategoriesAnswer, CategoryItem, DataAnswer, TagItem } from '../../src/shared/api';
import { categoryHref } from '../../src/shared/shows';
import { performerOf } from './chat-helpers';
import { expectJson, OPS, req } from './helpers';

// Geo-blocking (issue 30 point 3): the counts of the categories and tags (the API, the category
// page and bar) leave out the shows hidden from the visitor's place, as the lists do.

const SHOW = 14;

const from = (place: string) => ({ headers: { 'X-Dev-Geo': place } });
const categoriesFrom = async (place: string) => {
  const body = await expectJson<CategoriesAnswer>(await req('/api/categories', from(place)), 200);
  return new Map<number, CategoryItem>([...body.categories, ...Object.values(body.search_categories)].map((c) => [c.id, c]));
};
const tagsFrom = async (place: string) => new Map((await expectJson<DataAnswer<TagItem>>(await req('/api/tags', from(place)), 200)).data.map((t) => [t.id, t.count]));
/** The counts text of each category card of /shows/categories. */
async function pageCounts(place: string, cats: CategoryItem[]): Promise<Map<number, string>> {
  const html = await (await req('/shows/categories', from(place))).text();
  return new Map(
    cats.map((c) => {
      const card = new RegExp(`href="${categoryHref(c)}"[^>]*>\\s*<span class="category-name">[^<]*</span>\\s*<span class="muted small">([^<]*)</span>`).exec(html);
      return [c.id, card?.[1] ?? ''];
    }),
  );
}

/** Each category's shows and live shows, counted in D1 without `hidden` (what the API should answer). */
async function countsWithout(hidden: number[]): Promise<Map<number, { count: number; online: number }>> {
  const { results } = await env.DB.prepare(
    `SELECT c.id, COUNT(s.id) AS count, COALESCE(SUM(s.online), 0) AS online FROM categories c
     LEFT JOIN show_categories sc ON sc.category_id = c.id LEFT JOIN shows s ON s.id = sc.show_id AND s.id NOT IN (SELECT value FROM json_each(?))
     GROUP BY c.id`,
  )
    .bind(JSON.stringify(hidden))
    .all<{ id: number; count: number; online: number }>();
  return new Map(results.map((r) => [r.id, { count: r.count, online: r.online }]));
}

// Places no other file blocks: the categories' per-isolate cache outlives a file (the modules stay
// loaded, isolate: false), so this file's places must be keys no earlier file filled.
const BLOCKED = ['LI', 'CA-YT'];

describe('geo-blocking: category and tag counts', () => {
  it('a blocked country or region counts the show in none of its categories and tags; elsewhere it counts', async () => {
    const performer = await performerOf(SHOW);
    expect((await performer.put('/api/studio/geo', { codes: BLOCKED })).status).toBe(200);
    expect((await req(`/api/ops/shows/${SHOW}/status`, { method: 'POST', headers: OPS, body: JSON.stringify({ online: true }) })).status).toBe(200);
    const mine = new Set((await env.DB.prepare('SELECT category_id FROM show_categories WHERE show_id = ?').bind(SHOW).all<{ category_id: number }>()).results.map((r) => r.category_id));
    const myTags = new Set((await env.DB.prepare('SELECT tag_id FROM show_tags WHERE show_id = ?').bind(SHOW).all<{ tag_id: number }>()).results.map((r) => r.tag_id));
    expect(mine.size).toBeGreaterThan(0);
    expect(myTags.size).toBeGreaterThan(0);

    const all = await countsWithout([]);
    const expected = await countsWithout([SHOW]);
    // The test can fail: the show is live and counted in each of its categories.
    for (const id of mine) expect(expected.get(id), `category ${id}`).toEqual({ count: all.get(id)!.count - 1, online: all.get(id)!.online - 1 });
    const openTags = await tagsFrom('FR');
    for (const place of BLOCKED) {
      const blocked = await categoriesFrom(place);
      expect([...blocked.keys()].sort()).toEqual([...expected.keys()].sort());
      for (const [id, cat] of blocked) expect({ count: cat.count, online: cat.online }, `category ${id} from ${place}`).toEqual(expected.get(id));
      const tags = await tagsFrom(place);
      for (const [id, count] of openTags) expect(tags.get(id), `tag ${id} from ${place}`).toBe(count - (myTags.has(id) ? 1 : 0));
      // The category page shows the same counts as the API for that place.
      const page = await pageCounts(place, [...blocked.values()]);
      for (const [id, cat] of blocked) expect(page.get(id), `card of category ${id} from ${place}`).toMatch(new RegExp(`^${cat.count} .* ${cat.online} `));
    }
  });
});
