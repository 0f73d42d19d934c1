import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { Paged, SearchAll, ShowDetail, ShowSummary } from '../../src/shared/shows';
import { distanceKm, exclusivePrice } from '../../src/shared/shows';
import { req } from './helpers';

const get = async <T>(path: string, headers: Record<string, string> = {}) => {
  const res = await req(path, { headers });
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
};

describe('GET /api/shows', () => {
  it('pages with a default and maximum of 36, online first', async () => {
    const first = await get<Paged<ShowSummary> & { more: boolean }>('/api/shows');
    expect(first.data).toHaveLength(36);
    expect(first.total).toBe(264);
    expect(first.last_page).toBe(8);
    expect(first.more).toBe(true);
    const onlineFlags = first.data.map((s) => s.online);
    expect(onlineFlags.indexOf(false) === -1 || onlineFlags.slice(onlineFlags.indexOf(false)).every((o) => !o)).toBe(true);
    expect((await get<Paged<ShowSummary>>('/api/shows?limit=500')).data).toHaveLength(36);
    expect((await get<Paged<ShowSummary>>('/api/shows?limit=5&page=1')).data).toHaveLength(5);
    const last = await get<Paged<ShowSummary> & { more: boolean }>('/api/shows?page=8');
    expect(last.data).toHaveLength(264 - 7 * 36);
    expect(last.more).toBe(false);
  });

  it('returns pages page_from..page together for infinite scroll', async () => {
    const both = await get<Paged<ShowSummary>>('/api/shows?page=2&page_from=1&limit=10');
    const one = await get<Paged<ShowSummary>>('/api/shows?page=1&limit=10');
    const two = await get<Paged<ShowSummary>>('/api/shows?page=2&limit=10');
    expect(both.data.map((s) => s.id)).toEqual([...one.data, ...two.data].map((s) => s.id));
  });

  it('filters by category and falls back to all shows for unknown ids', async () => {
    const toy = await get<Paged<ShowSummary> & { category: number }>('/api/shows?category=20');
    expect(toy.category).toBe(20);
    expect(toy.total).toBeLessThan(264);
    expect(toy.data.every((s) => s.features.includes('toy'))).toBe(true);
    for (const bad of ['999', 'abc', '-1', '1e3']) {
      const all = await get<Paged<ShowSummary> & { category: number }>(`/api/shows?category=${bad}`);
      expect(all.category).toBe(0);
      expect(all.total).toBe(264);
    }
  });

  it('clamps bad paging values instead of failing', async () => {
    for (const q of ['page=-1', 'page=0', 'page=abc', 'page=99999999999', 'limit=-5', 'limit=abc', 'page_from=-3']) {
      const res = await req(`/api/shows?${q}`);
      expect(res.status, q).toBe(200);
    }
    const far = await get<Paged<ShowSummary>>('/api/shows?page=999999');
    expect(far.data).toEqual([]);
  });
});

describe('GET /api/shows/{id}', () => {
  it('has the show fields, the exclusive price and the bitfield rules', async () => {
    const rows = await env.DB.prepare('SELECT id, price_per_minute, price_factor_exclusive, flag_exclusive FROM shows').all<{
      id: number;
      price_per_minute: number;
      price_factor_exclusive: number;
      flag_exclusive: number;
    }>();
    const sample = [0, 1, 3].map((flag) => rows.results.find((r) => r.flag_exclusive === flag)!);
    for (const row of sample) {
      const show = await get<ShowDetail>(`/api/shows/${row.id}`);
      expect(show.id).toBe(row.id);
      expect(show.pricePerMinute).toBe(row.price_per_minute);
      expect(show.priceFactorExclusive).toBe(row.price_factor_exclusive);
      expect(show.flags.exclusive).toBe(row.flag_exclusive);
      expect(show.exclusivemode).toBe(row.flag_exclusive !== 0);
      expect(show.exclusiveOnly).toBe(row.flag_exclusive === 3);
      expect(show.pricing.exclusive).toBe(row.flag_exclusive ? exclusivePrice(row.price_per_minute, row.price_factor_exclusive) : null);
      expect(show.texts.description.length).toBeGreaterThan(20);
      expect(show.previews.length).toBeGreaterThanOrEqual(3);
    }
  });

  it('answers German texts for German visitors', async () => {
    const en = await get<ShowDetail>('/api/shows/1');
    const de = await get<ShowDetail>('/api/shows/1', { Cookie: 'i18n_redirected=de' });
    expect(de.texts.description).not.toBe(en.texts.description);
  });

  it('404s unknown and non-numeric ids', async () => {
    for (const id of ['99999', 'abc', '-1', '1.5', 'x'.repeat(500)]) {
      const res = await req(`/api/shows/${id}`);
      expect(res.status, id).toBe(404);
      expect(await res.json()).toEqual({ message: 'not_found' });
    }
  });
});

describe('categories, tags and promos', () => {
  it('lists categories and search categories (ids >= 1001)', async () => {
    const body = await get<{ categories: { id: number; cat: string }[]; search_categories: Record<string, { id: number }> }>('/api/categories');
    expect(body.categories.map((c) => c.id)).toContain(20);
    expect(body.categories.every((c) => c.id < 1001)).toBe(true);
    for (const id of ['1013', '1024', '1051', '1052', '1054', '1062']) expect(body.search_categories[id]?.id).toBe(Number(id));
  });

  it('lists tags with counts', async () => {
    const body = await get<{ data: { slug: string; count: number }[] }>('/api/tags');
    expect(body.data.length).toBeGreaterThanOrEqual(20);
    expect(body.data.every((t) => t.count > 0)).toBe(true);
  });

  it('promos carry a stop timestamp', async () => {
    const body = await get<{ data: { stop: number; show: { id: number } }[] }>('/api/shows/promos');
    expect(body.data.length).toBe(4); // the seeded promotion that ended is left out
    for (const p of body.data) expect(p.stop).toBeGreaterThan(Date.now() / 1000);
    const list = await get<{ promos: unknown[] }>('/api/shows');
    expect(list.promos).toHaveLength(4);
  });
});

describe('search', () => {
  it('quick search returns shows, videos and galleries with totals', async () => {
    const name = (await env.DB.prepare('SELECT name FROM shows WHERE id = 5').first<{ name: string }>())!.name;
    const body = await get<SearchAll>(`/api/search/all?search=${encodeURIComponent(name.slice(0, 4))}&page=1&limit=6&extend=0`);
    expect(body.shows.data.length).toBeGreaterThan(0);
    expect(body.shows.data.length).toBeLessThanOrEqual(6);
    expect(body.shows.data.some((s) => s.name === name)).toBe(true);
    expect(typeof body.videos.total).toBe('number');
    expect(typeof body.galleries.total).toBe('number');
  });

  it('full-text search matches names, cities and descriptions, diacritics-insensitively', async () => {
    const city = await get<Paged<ShowSummary>>('/api/search/shows?search=munchen');
    expect(city.total).toBeGreaterThan(0);
    // The city in the visitor's language (issue 9: English answers named it in German).
    expect(city.data.every((s) => s.city === 'Munich')).toBe(true);
    const stadt = await get<Paged<ShowSummary>>('/api/search/shows?search=munchen&lang=de');
    expect(stadt.total).toBe(city.total);
    expect(stadt.data.every((s) => s.city === 'München')).toBe(true);
    // Either name finds the city.
    expect((await get<Paged<ShowSummary>>('/api/search/shows?search=munich')).total).toBe(city.total);
    const none = await get<Paged<ShowSummary>>('/api/search/shows?search=zzqxnotaword');
    expect(none.total).toBe(0);
    expect((await get<Paged<ShowSummary>>('/api/search/shows?search=*')).total).toBe(264);
    expect((await get<Paged<ShowSummary>>('/api/search/shows')).total).toBe(264);
  });

  it('tag search requires every tag', async () => {
    const one = await get<Paged<ShowSummary>>('/api/search/shows?tags=music');
    const two = await get<Paged<ShowSummary>>('/api/search/shows?tags=music,travel');
    expect(one.total).toBeGreaterThan(0);
    expect(two.total).toBeLessThanOrEqual(one.total);
    const ids = two.data.map((s) => s.id);
    if (ids.length) {
      const rows = await env.DB.prepare(
        `SELECT COUNT(DISTINCT st.show_id) AS n FROM show_tags st JOIN tags t ON t.id = st.tag_id WHERE t.slug IN ('music', 'travel') AND st.show_id IN (${ids.join(',')}) GROUP BY st.show_id HAVING COUNT(*) = 2`,
      ).all();
      expect(rows.results.length).toBe(ids.length);
    }
  });

  it('orders by distance for a location search', async () => {
    const berlin = { lat: 52.52, lon: 13.405 };
    const body = await get<Paged<ShowSummary & { distance: number }>>(`/api/search/shows?lat=${berlin.lat}&lon=${berlin.lon}&limit=36`);
    const distances = body.data.map((s) => s.distance);
    expect(distances.every((d) => typeof d === 'number')).toBe(true);
    for (let i = 1; i < distances.length; i++) expect(distances[i]).toBeGreaterThanOrEqual(distances[i - 1] - 0.5);
    expect(body.data[0].city).toBe('Berlin');
    expect(distanceKm(berlin, { lat: 48.137, lon: 11.575 })).toBeGreaterThan(500);
  });

  it('searches videos and galleries, and 404s unknown cores', async () => {
    expect((await get<Paged<unknown>>('/api/search/videos')).total).toBeGreaterThan(0);
    expect((await get<Paged<unknown>>('/api/search/galleries?showid=1')).data.length).toBeGreaterThan(0);
    expect((await req('/api/search/nonsense')).status).toBe(404);
  });

  it('survives hostile search parameters', async () => {
    const nasty = ['x'.repeat(10_000), '"', 'NEAR(a b)', 'a OR b AND', '*', '-', '^', 'ä'.repeat(300), "'; DROP TABLE shows; --"];
    for (const s of nasty) {
      const res = await req(`/api/search/shows?search=${encodeURIComponent(s)}`);
      expect(res.status, s.slice(0, 20)).toBe(200);
    }
    for (const q of ['lat=abc&lon=1', 'lat=91&lon=0', 'lat=1', 'lat=1e400&lon=2', `tags=${'a,'.repeat(5000)}`, 'filter=drop', 'cat=abc', 'page=-4&limit=9999']) {
      const res = await req(`/api/search/shows?${q}`);
      expect(res.status, q).toBe(200);
    }
    expect((await env.DB.prepare('SELECT COUNT(*) AS n FROM shows').first<{ n: number }>())!.n).toBe(264);
  });
});
