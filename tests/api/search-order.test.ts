import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { GallerySummary, Paged, SearchAll, ShowSummary, VideoSummary } from '../../src/shared/shows';
import { nameKey } from '../../src/shared/search-names';
import { req } from './helpers';

// Issue 15 point 5: a search finds a performer by name. Against the seeded demo data (264 shows,
// names such as Liv, LivJoy, FriedaBlue, Käthe, "Yara & Ben"; Köln is a city of the catalogue).

const get = async <T>(path: string) => {
  const res = await req(path);
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
};
const shows = (term: string, extra = '') => get<Paged<ShowSummary>>(`/api/search/shows?search=${encodeURIComponent(term)}${extra}`);

/** 0 exact name, 1 name prefix, 2 name contains, 3 no name match: what the ranking promises. */
function tier(name: string, term: string): number {
  const n = nameKey(name);
  const k = nameKey(term.normalize('NFC'));
  return n === k ? 0 : n.startsWith(k) ? 1 : n.includes(k) ? 2 : 3;
}

// The table: a query and the name of its first hit (or its city, for a place).
const TABLE: { q: string; first: string; by?: 'city' }[] = [
  { q: 'Liv', first: 'Liv' },
  { q: 'liv', first: 'Liv' },
  { q: 'Liv Joy', first: 'LivJoy' },
  { q: 'livjoy', first: 'LivJoy' },
  { q: 'frieda blue', first: 'FriedaBlue' },
  { q: 'friedablue', first: 'FriedaBlue' },
  { q: 'FRIEDA-BLUE', first: 'FriedaBlue' },
  { q: 'Frieda', first: 'Frieda' },
  { q: 'friedar', first: 'FriedaRose' },
  { q: 'edablue', first: 'FriedaBlue' },
  { q: 'zoe', first: 'Zoë' },
  { q: 'Zoë', first: 'Zoë' },
  { q: 'zoe rain', first: 'ZoëRain' },
  { q: 'kathe', first: 'Käthe' },
  { q: 'KÄTHE ROSE', first: 'KätheRose' },
  { q: 'lucia moon', first: 'LucíaMoon' },
  { q: 'Sofia', first: 'Sofía' },
  { q: 'ines', first: 'Inès' },
  { q: 'oceane dream', first: 'OcéaneDream' },
  { q: 'chloe nico', first: 'Chloé & Nico' },
  { q: 'Yara & Ben', first: 'Yara & Ben' },
  { q: 'yara ben', first: 'Yara & Ben' },
  { q: 'jordis elias', first: 'Jördis & Elias' },
  { q: 'agnieszkam', first: 'AgnieszkaMae' },
  { q: 'smilla wave', first: 'SmillaWave' },
  { q: 'mia', first: 'Mia' },
  { q: 'koln', first: 'Cologne', by: 'city' },
  { q: 'köln', first: 'Cologne', by: 'city' },
  { q: 'cologne', first: 'Cologne', by: 'city' },
  { q: 'munchen', first: 'Munich', by: 'city' },
];

describe('search order', () => {
  it.each(TABLE)('"$q" finds $first first', async ({ q, first, by }) => {
    const list = await shows(q);
    expect(list.total, q).toBeGreaterThan(0);
    expect(by === 'city' ? list.data[0].city : list.data[0].name).toBe(first);
  });

  it('"liv" lists every show named Liv... before a tagline saying "live"', async () => {
    const list = await shows('liv', '&limit=36');
    const names = list.data.map((s) => s.name);
    expect(names[0]).toBe('Liv');
    expect(new Set(names.slice(1, 4))).toEqual(new Set(['LivJade', 'LivJoy', 'LivSky']));
    // The rest only matched a word of their texts.
    expect(names.slice(4).every((n) => tier(n, 'liv') === 3)).toBe(true);
    expect(list.total).toBeGreaterThan(4);
  });

  it('"frieda blue", "friedablue" and "Frieda" find FriedaBlue; "Liv Joy" finds LivJoy', async () => {
    for (const q of ['frieda blue', 'friedablue', 'Frieda', 'Frieda Blue', 'frieda_blue']) {
      expect((await shows(q)).data.map((s) => s.name), q).toContain('FriedaBlue');
    }
    for (const q of ['Liv Joy', 'livjoy', 'LIV JOY']) expect((await shows(q)).data[0]?.name, q).toBe('LivJoy');
  });

  it('folds diacritics both ways: "koln" and "köln" find Köln; "renée" finds Renee and "renee" finds Renée', async () => {
    const koln = await shows('koln', '&limit=36&lang=de');
    const umlaut = await shows('köln', '&limit=36&lang=de');
    expect(koln.total).toBeGreaterThan(0);
    expect(umlaut.data.map((s) => s.id)).toEqual(koln.data.map((s) => s.id));
    expect(koln.data[0].city).toBe('Köln');
    // Names, both ways: two shows renamed for this file.
    await env.DB.batch([
      env.DB.prepare("UPDATE shows SET name = 'Renee' WHERE id = 250"),
      env.DB.prepare("UPDATE shows SET name = 'Renée Joy' WHERE id = 249"),
    ]);
    expect((await shows('renée')).data[0]?.id).toBe(250);
    expect((await shows('RENEE JOY')).data[0]?.id).toBe(249);
    expect((await shows('reneejoy')).data[0]?.id).toBe(249);
  });

  it('ranks exact, then prefix, then contained names, then the rest, on every page', async () => {
    for (const q of ['liv', 'mia', 'lena', 'rose', 'blue', 'ben', 'berlin', 'sun']) {
      const all: ShowSummary[] = [];
      for (let page = 1; ; page++) {
        const list = await shows(q, `&limit=36&page=${page}`);
        all.push(...list.data);
        if (page >= list.last_page) break;
      }
      const tiers = all.map((s) => tier(s.name, q));
      expect(tiers, q).toEqual([...tiers].sort((a, b) => a - b));
      // Every show whose name holds the term is found.
      const { results } = await env.DB.prepare('SELECT id, name FROM shows').all<{ id: number; name: string }>();
      const named = results.filter((r) => tier(r.name, q) < 3).map((r) => r.id);
      expect(all.filter((s) => tier(s.name, q) < 3).map((s) => s.id).sort(), q).toEqual(named.sort());
    }
  });

  it('the stored name keys are what the term is folded to, also after a rename', async () => {
    const { results } = await env.DB.prepare('SELECT id, name, name_key FROM shows').all<{ id: number; name: string; name_key: string }>();
    expect(results).toHaveLength(264);
    for (const r of results) expect(r.name_key, r.name).toBe(nameKey(r.name));
    const odd = "Ŀuł Øre's Æ-ßtar ÀÉÎÕÜ ñ İı ſ «x» O\u0308"; // every kind of fold, and a decomposed umlaut
    await env.DB.prepare('UPDATE shows SET name = ? WHERE id = 248').bind(odd).run();
    const row = await env.DB.prepare('SELECT name_key FROM shows WHERE id = 248').first<{ name_key: string }>();
    expect(row?.name_key).toBe(nameKey(odd));
    expect(row?.name_key).toBe('luloresaesstaraeiouniisxo');
  });

  it('quicksearch, the API and the /search page list shows in the same order', async () => {
    for (const q of ['liv', 'frieda blue', 'koln', 'rose', 'Berlin', 'mia']) {
      const enc = encodeURIComponent(q);
      const quick = await get<SearchAll>(`/api/search/all?search=${enc}&page=1&limit=6&extend=0`);
      const full = await shows(q, '&limit=36');
      const ids = quick.shows.data.map((s) => s.id);
      expect(ids.length, q).toBeGreaterThan(0);
      expect(ids, q).toEqual(full.data.slice(0, ids.length).map((s) => s.id));
      expect(quick.shows.total).toBe(full.total);
      for (const path of [`/search?search=${enc}`, `/search/shows?search=${enc}`]) {
        const res = await req(path);
        expect(res.status, path).toBe(200);
        const html = await res.text();
        const page = [...new Set([...html.matchAll(/href="\/search\/shows\/chat\/(\d+)\//g)].map((m) => Number(m[1])))];
        expect(page.slice(0, ids.length), path).toEqual(ids);
        expect(page, path).toEqual(full.data.slice(0, page.length).map((s) => s.id));
      }
    }
  });

  it('a show opened from a search steps to the next hit in the same order', async () => {
    const hits = (await shows('liv', '&limit=36')).data;
    expect([hits[0].name, hits[1].name.slice(0, 3)]).toEqual(['Liv', 'Liv']);
    const res = await req(`/search/shows/chat/${hits[0].id}/${hits[0].slugName}?search=liv`);
    expect(res.status).toBe(200);
    const tag = /<a\b[^>]*data-testid="show-next"[^>]*>/.exec(await res.text())?.[0] ?? '';
    expect(/href="([^"]+)"/.exec(tag)?.[1]).toBe(`/search/shows/chat/${hits[1].id}/${hits[1].slugName}?search=liv`);
  });

  it('videos and galleries of a show named so come first, also across the camel-case boundary', async () => {
    const videos = await get<Paged<VideoSummary>>('/api/search/videos?search=frieda%20blue');
    expect(videos.total).toBeGreaterThan(0);
    expect(videos.data[0].showName).toBe('FriedaBlue');
    const galleries = await get<Paged<GallerySummary>>('/api/search/galleries?search=livjoy');
    expect(galleries.total).toBeGreaterThan(0);
    expect(galleries.data.every((g) => g.showName === 'LivJoy')).toBe(true);
    const liv = await get<Paged<VideoSummary>>('/api/search/videos?search=liv&limit=48');
    const tiers = liv.data.map((v) => tier(v.showName, 'liv'));
    expect(tiers[0]).toBe(0);
    expect(tiers).toEqual([...tiers].sort((a, b) => a - b));
  });

  it('answers hostile terms with 200 and never a 5xx', async () => {
    const nasty = ['x'.repeat(10_000), '"', "'", '%', '_', '\\', '{name} : x', 'NEAR(a b)', 'a OR b AND', '*', '-', '^', 'ä'.repeat(300), 'ÿ'.repeat(500), "'; DROP TABLE shows; --", '\u0308', '😀', '%00', 'a\u0000b'];
    for (const s of nasty) {
      for (const path of ['/api/search/shows', '/api/search/all', '/search']) {
        const res = await req(`${path}?search=${encodeURIComponent(s)}`);
        expect(res.status, `${path} ${s.slice(0, 12)}`).toBe(200);
      }
    }
    expect((await env.DB.prepare('SELECT COUNT(*) AS n FROM shows').first<{ n: number }>())!.n).toBe(264);
  });
});
