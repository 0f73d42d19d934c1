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

describe('geo-blocking: category and tag counts', () => {
  it('a blocked country or region counts the show in none of its categories and tags; elsewhere it counts', async () => {
    const performer = await performerOf(SHOW);
    expect((await performer.put('/api/studio/geo', { codes: ['AT', 'US-CA'] })).status).toBe(200);
    expect((await req(`/api/ops/shows/${SHOW}/status`, { method: 'POST', headers: OPS, body: JSON.stringify({ online: true }) })).status).toBe(200);
    const mine = new Set((await env.DB.prepare('SELECT category_id FROM show_categories WHERE show_id = ?').bind(SHOW).all<{ category_id: number }>()).results.map((r) => r.category_id));
    const myTags = new Set((await env.DB.prepare('SELECT tag_id FROM show_tags WHERE show_id = ?').bind(SHOW).all<{ tag_id: number }>()).results.map((r) => r.tag_id));
    expect(mine.size).toBeGreaterThan(0);
    expect(myTags.size).toBeGreaterThan(0);

    const open = await categoriesFrom('FR');
    const openTags = await tagsFrom('FR');
    const openPage = await pageCounts('FR', [...open.values()]);
    for (const place of ['AT', 'US-CA']) {
      const blocked = await categoriesFrom(place);
      expect([...blocked.keys()].sort()).toEqual([...open.keys()].sort());
      for (const [id, cat] of open) {
        const less = mine.has(id) ? 1 : 0;
        expect({ count: blocked.get(id)!.count, online: blocked.get(id)!.online }, `category ${id} from ${place}`).toEqual({ count: cat.count - less, online: cat.online - less });
      }
      const tags = await tagsFrom(place);
      for (const [id, count] of openTags) expect(tags.get(id), `tag ${id} from ${place}`).toBe(count - (myTags.has(id) ? 1 : 0));
      // The category page shows the same counts as the API for that place.
      const page = await pageCounts(place, [...open.values()]);
      for (const [id, cat] of blocked) {
        expect(page.get(id), `card of category ${id} from ${place}`).toMatch(new RegExp(`^${cat.count} .* ${cat.online} `));
        if (mine.has(id)) expect(page.get(id)).not.toBe(openPage.get(id));
      }
    }
  });
});
