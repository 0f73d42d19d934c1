import { describe, it, expect } from 'vitest';
import { generateDemoData } from '../../src/server/seed/generator';
import type { ShowRow } from '../../src/server/lib/tables';
import { DEMO_MEMBER, type DemoData } from '../../src/server/seed/rows';
import { MAX_BOUND_PARAMS, seedStatements, sqlLiteral, toSqlScript } from '../../src/server/seed/sql';
import { DEMO_CLIP_COUNT, DEMO_CLIP_SECONDS, DEMO_PICTURES, demoClipKey, demoPictureKey, demoPreviewKey } from '../../src/shared/store';
import { showArt, mediaArt } from '../../src/server/features/images/art';

const data = generateDemoData();
const REQUIRED_CATEGORIES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 20, 1013, 1024, 1051, 1052, 1054, 1062];
const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*$/;

function membersOf(categoryId: number): ShowRow[] {
  const ids = new Set(data.showCategories.filter((sc) => sc.category_id === categoryId).map((sc) => sc.show_id));
  return data.shows.filter((s) => ids.has(s.id));
}

function countBy<T>(rows: readonly T[], key: (row: T) => number): Map<number, number> {
  const out = new Map<number, number>();
  for (const row of rows) out.set(key(row), (out.get(key(row)) ?? 0) + 1);
  return out;
}

function expectUnique(values: readonly (string | number)[]): void {
  expect(new Set(values).size).toBe(values.length);
}

/** Minimal well-formedness check: every opened element is closed in order. */
function isBalancedXml(xml: string): boolean {
  const stack: string[] = [];
  for (const m of xml.matchAll(/<(\/?)([a-zA-Z][\w:-]*)[^>]*?(\/?)>/g)) {
    const [, closing, name, selfClosing] = m;
    if (selfClosing) continue;
    if (closing) {
      if (stack.pop() !== name) return false;
    } else stack.push(name);
  }
  return stack.length === 0;
}

function bytes(s: string): number {
  return new TextEncoder().encode(s).length;
}

describe('demo data', () => {
  it('is deterministic', () => {
    expect(generateDemoData()).toEqual(data);
    expect(toSqlScript(generateDemoData())).toBe(toSqlScript(data));
  });

  it('uses `now` only for timestamps', () => {
    const later = generateDemoData(1767225600 + 3600);
    expect(later.shows.map((s) => s.name)).toEqual(data.shows.map((s) => s.name));
    expect(later.shows[0].created_at).toBe(data.shows[0].created_at + 3600);
  });

  it('has 264 shows with ids 1..264 from the own content provider, but 241..250 from the partner provider 2', () => {
    expect(data.shows).toHaveLength(264);
    expect(data.shows.map((s) => s.id)).toEqual(Array.from({ length: 264 }, (_, i) => i + 1));
    const partner = data.shows.filter((s) => s.contentprovider_id !== 1);
    expect(partner.map((s) => [s.id, s.contentprovider_id])).toEqual(Array.from({ length: 10 }, (_, i) => [241 + i, 2]));
    // Some of them are live in the demo, so a newcomer finds a partner show to chat with.
    expect(partner.filter((s) => s.online === 1).length).toBeGreaterThanOrEqual(3);
  });

  it('has about a third of the shows online, with online_since only for those', () => {
    const online = data.shows.filter((s) => s.online === 1);
    expect(online.length / data.shows.length).toBeGreaterThanOrEqual(0.25);
    expect(online.length / data.shows.length).toBeLessThanOrEqual(0.42);
    for (const s of data.shows) {
      if (s.online) expect(s.online_since).toBeTypeOf('number');
      else expect(s.online_since).toBeNull();
    }
  });

  it('only has adult performers', () => {
    for (const s of data.shows) {
      expect(s.age).toBeGreaterThanOrEqual(18);
      expect(s.age).toBeLessThanOrEqual(45);
    }
  });

  it('keeps show fields within their documented ranges', () => {
    for (const s of data.shows) {
      expect(s.price_per_minute).toBeGreaterThanOrEqual(20);
      expect(s.price_per_minute).toBeLessThanOrEqual(99);
      expect([100, 150, 175, 200, 250]).toContain(s.price_factor_exclusive);
      expect([0, 1, 3]).toContain(s.flag_exclusive);
      expect(s.rating).toBeGreaterThanOrEqual(55);
      expect(s.rating).toBeLessThanOrEqual(100);
      expect(s.palette).toBeGreaterThanOrEqual(0);
      expect(s.palette).toBeLessThanOrEqual(11);
      expect([null, 'new', 'top', 'hot']).toContain(s.ribbon);
      const features: unknown = JSON.parse(s.features);
      expect(Array.isArray(features)).toBe(true);
      for (const f of features as string[]) expect(['sound', 'toy', 'hd', 'cam2cam', 'phone', 'mobile']).toContain(f);
      const langs = s.languages.split(',');
      expect(langs.length).toBeGreaterThanOrEqual(1);
      for (const l of langs) expect(['de', 'en', 'fr', 'es', 'it', 'pl', 'nl']).toContain(l);
    }
    expect(new Set(data.shows.map((s) => s.sort_rank))).toEqual(new Set(data.shows.map((s) => s.id)));
  });

  it('has the required categories, each with enough shows and online shows', () => {
    const ids = data.categories.map((c) => c.id);
    for (const id of REQUIRED_CATEGORIES) expect(ids).toContain(id);
    for (const c of data.categories) {
      const members = membersOf(c.id);
      expect(members.length, `category ${c.id}`).toBeGreaterThanOrEqual(12);
      expect(members.filter((s) => s.online).length, `category ${c.id} online`).toBeGreaterThanOrEqual(3);
    }
  });

  it('numbers search categories from 1001 and normal ones below', () => {
    for (const c of data.categories) {
      if (c.is_search) expect(c.id).toBeGreaterThanOrEqual(1001);
      else expect(c.id).toBeLessThan(1001);
      expect(c.slug).toMatch(KEBAB);
      expect(c.slug_description).toMatch(KEBAB);
      expect(c.name_en && c.name_de).toBeTruthy();
    }
    expect(data.categories.find((c) => c.id === 20)?.is_search).toBe(0);
  });

  it('puts every show in 1-3 normal and 1-3 search categories and 3-6 tags', () => {
    const normal = countBy(data.showCategories.filter((sc) => sc.category_id <= 9), (sc) => sc.show_id);
    const search = countBy(data.showCategories.filter((sc) => sc.category_id >= 1001), (sc) => sc.show_id);
    const tags = countBy(data.showTags, (st) => st.show_id);
    for (const s of data.shows) {
      expect(normal.get(s.id)).toBeGreaterThanOrEqual(1);
      expect(normal.get(s.id)).toBeLessThanOrEqual(3);
      expect(search.get(s.id)).toBeGreaterThanOrEqual(1);
      expect(search.get(s.id)).toBeLessThanOrEqual(3);
      expect(tags.get(s.id)).toBeGreaterThanOrEqual(3);
      expect(tags.get(s.id)).toBeLessThanOrEqual(6);
    }
  });

  it('gives every show texts in both languages that mention its city', () => {
    for (const s of data.shows) {
      expect(s.slogan_en.length).toBeGreaterThan(5);
      expect(s.slogan_de.length).toBeGreaterThan(5);
      expect(s.description_en.length).toBeGreaterThan(40);
      expect(s.description_de.length).toBeGreaterThan(40);
      expect(s.description_de).toContain(s.city);
      // A name per locale: the English texts name the English city (Cologne, not Köln).
      expect(s.description_en).toContain(s.city_en);
    }
    const cologne = data.shows.find((s) => s.city === 'Köln');
    expect(cologne?.city_en).toBe('Cologne');
    expectUnique(data.shows.map((s) => s.description_en));
  });

  it('has unique ids, slugs and ccids', () => {
    expectUnique(data.shows.map((s) => s.id));
    expectUnique(data.shows.map((s) => s.universal_id));
    expectUnique(data.shows.map((s) => s.slug_name));
    expectUnique(data.categories.map((c) => c.id));
    expectUnique(data.categories.map((c) => c.slug));
    expectUnique(data.tags.map((t) => t.slug));
    expectUnique(data.videos.map((v) => v.id));
    expectUnique(data.videos.map((v) => v.ccid));
    expectUnique(data.galleries.map((g) => g.id));
    expectUnique(data.showCategories.map((sc) => `${sc.category_id}:${sc.show_id}`));
    expectUnique(data.showTags.map((st) => `${st.tag_id}:${st.show_id}`));
    for (const s of data.shows) expect(s.slug_name).toMatch(KEBAB);
  });

  it('attaches 2-4 videos and 1-3 galleries to every show', () => {
    const videos = countBy(data.videos, (v) => v.show_id);
    const galleries = countBy(data.galleries, (g) => g.show_id);
    for (const s of data.shows) {
      expect(videos.get(s.id)).toBeGreaterThanOrEqual(2);
      expect(videos.get(s.id)).toBeLessThanOrEqual(4);
      expect(galleries.get(s.id)).toBeGreaterThanOrEqual(1);
      expect(galleries.get(s.id)).toBeLessThanOrEqual(3);
    }
    for (const v of data.videos) {
      // Issue 13: a video lasts as long as its parts (each a demo clip).
      expect(v.duration_s).toBe(v.parts * DEMO_CLIP_SECONDS);
      // Every 20th video is free (the "Free videos" list); the others cost 30-300 coins.
      if (v.id % 20 === 0) expect(v.price).toBe(0);
      else {
        expect(v.price).toBeGreaterThanOrEqual(30);
        expect(v.price).toBeLessThanOrEqual(300);
      }
    }
    expect(data.videos.filter((v) => v.price === 0).length).toBe(Math.floor(data.videos.length / 20));
    for (const g of data.galleries) {
      expect(g.picture_count).toBeGreaterThanOrEqual(6);
      expect(g.picture_count).toBeLessThanOrEqual(24);
      expect(g.price).toBeGreaterThanOrEqual(20);
      expect(g.price).toBeLessThanOrEqual(150);
    }
  });

  it('gives every video its parts (demo clips) and 2-6 of its show\'s tags, every gallery its pictures', () => {
    const parts = new Map<number, typeof data.videoParts>();
    for (const p of data.videoParts) parts.set(p.video_id, [...(parts.get(p.video_id) ?? []), p]);
    const showTags = new Map<number, Set<number>>();
    for (const t of data.showTags) showTags.set(t.show_id, (showTags.get(t.show_id) ?? new Set()).add(t.tag_id));
    const videoTags = countBy(data.videoTags, (t) => t.video_id);
    for (const v of data.videos) {
      const own = parts.get(v.id) ?? [];
      expect(own.map((p) => p.part)).toEqual(Array.from({ length: v.parts }, (_, i) => i + 1));
      for (const p of own) {
        const n = (v.id + p.part) % DEMO_CLIP_COUNT;
        expect([p.media_key, p.preview_key, p.mime, p.duration_s]).toEqual([demoClipKey(n), demoPreviewKey(n), 'video/webm', DEMO_CLIP_SECONDS]);
        expect(p.size).toBeGreaterThan(0);
      }
      expect(own.reduce((sum, p) => sum + p.duration_s, 0)).toBe(v.duration_s);
      expect(v.rating_votes).toBeGreaterThanOrEqual(3);
      expect(videoTags.get(v.id)).toBeGreaterThanOrEqual(2);
      expect(videoTags.get(v.id)).toBeLessThanOrEqual(6);
    }
    for (const t of data.videoTags) expect(showTags.get(data.videos[t.video_id - 1].show_id)?.has(t.tag_id)).toBe(true);
    const pictures = countBy(data.galleryPictures, (p) => p.gallery_id);
    for (const g of data.galleries) expect(pictures.get(g.id)).toBe(g.picture_count);
    const g1 = data.galleries[0];
    const p1 = data.galleryPictures.filter((p) => p.gallery_id === g1.id);
    expect(p1[0]).toEqual({ gallery_id: g1.id, idx: 1, full_key: demoPictureKey(g1.palette % 12, 1, 'full'), thumb_key: demoPictureKey(g1.palette % 12, 1, 'thumb'), mime: 'image/svg+xml', width: 1200, height: 800 });
    expect(data.galleryPictures.every((p) => p.full_key.includes(`/${((p.idx - 1) % DEMO_PICTURES) + 1}-full.`))).toBe(true);
  });

  it('only references existing rows', () => {
    const shows = new Set(data.shows.map((s) => s.id));
    const categories = new Set(data.categories.map((c) => c.id));
    const tags = new Set(data.tags.map((t) => t.id));
    for (const sc of data.showCategories) expect(shows.has(sc.show_id) && categories.has(sc.category_id)).toBe(true);
    for (const st of data.showTags) expect(shows.has(st.show_id) && tags.has(st.tag_id)).toBe(true);
    for (const row of [...data.videos, ...data.galleries]) expect(shows.has(row.show_id)).toBe(true);
  });

  it('exports the demo member credentials', () => {
    expect(DEMO_MEMBER).toEqual({ name: 'demo', email: 'demo@example.com', password: 'demo-pass-2026', coins: 500 });
  });
});

describe('seed SQL', () => {
  const synthetic: DemoData = {
    ...data,
    shows: [{ ...data.shows[0], name: "O'Neil", description_en: "It's 'quoted'", ribbon: null, online_since: null }],
    showCategories: [],
    showTags: [],
    videos: [],
    galleries: [],
    videoParts: [],
    videoTags: [],
    galleryPictures: [],
  };

  it('escapes single quotes and writes NULL for null', () => {
    const sql = toSqlScript(synthetic);
    expect(sql).toContain("'O''Neil'");
    expect(sql).toContain("'It''s ''quoted'''");
    expect(sql).not.toContain("'O'Neil'");
    expect(sqlLiteral(null)).toBe('NULL');
    expect(sqlLiteral(12.5)).toBe('12.5');
  });

  it('keeps statements small and free of transactions', () => {
    const sql = toSqlScript(data);
    expect(sql).not.toMatch(/\b(BEGIN|COMMIT)\b/i);
    const statements = sql.split(/;\n/).filter((s) => s.includes('INSERT'));
    expect(statements.length).toBeGreaterThan(0);
    for (const st of statements) expect(bytes(st)).toBeLessThan(90 * 1024);
  });

  it('binds one parameter per placeholder, at most 100 per statement, every row once', () => {
    const statements = seedStatements(data);
    const rows =
      data.categories.length + data.tags.length + data.shows.length + data.showCategories.length +
      data.showTags.length + data.videos.length + data.galleries.length + data.videoParts.length +
      data.videoTags.length + data.galleryPictures.length;
    let tuples = 0;
    for (const { sql, params } of statements) {
      expect(sql.split('?').length - 1).toBe(params.length);
      expect(params.length).toBeLessThanOrEqual(MAX_BOUND_PARAMS);
      tuples += sql.split('), (').length;
    }
    expect(tuples).toBe(rows);
    const show = statements.find((s) => s.sql.startsWith('INSERT INTO shows '));
    expect(show?.sql).toContain('(id, universal_id, contentprovider_id, name, slug_name, age,');
    expect(seedStatements(synthetic).find((s) => s.sql.startsWith('INSERT INTO shows '))?.params).toContain("O'Neil");
  });
});

describe('placeholder art', () => {
  const samples = [
    ...[1, 2, 3, 50, 264].flatMap((showId) =>
      [0, 1, 2, 3, 4].map((index) => showArt({ showId, index, palette: (showId + index) % 12 })),
    ),
    showArt({ showId: 7, index: 0, palette: 3, width: 1200, height: 900, label: 'Lena & Ben <live> "quoted"' }),
    ...Array.from({ length: 12 }, (_, p) => mediaArt({ kind: 'video', id: p + 1, palette: p })),
    ...Array.from({ length: 12 }, (_, p) => mediaArt({ kind: 'gallery', id: p + 1, palette: p })),
  ];

  it('produces small, self-contained, well-formed SVG documents', () => {
    for (const svg of samples) {
      expect(svg.startsWith('<svg')).toBe(true);
      expect(svg).toContain('xmlns="http://www.w3.org/2000/svg"');
      expect(svg.endsWith('</svg>')).toBe(true);
      expect(svg).not.toMatch(/<script/i);
      expect(svg).not.toMatch(/href|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
      expect(isBalancedXml(svg)).toBe(true);
      expect(bytes(svg)).toBeLessThan(3 * 1024);
    }
  });

  it('has no text unless a label is given, and escapes the label', () => {
    expect(showArt({ showId: 1, index: 0, palette: 0 })).not.toContain('<text');
    const labelled = showArt({ showId: 1, index: 0, palette: 0, label: 'Lena & Ben <live>' });
    expect(labelled).toContain('Lena &amp; Ben &lt;live&gt;');
    expect(labelled).not.toContain('<live>');
  });

  it('is deterministic and differs between shows', () => {
    expect(showArt({ showId: 1, index: 0, palette: 4 })).toBe(showArt({ showId: 1, index: 0, palette: 4 }));
    expect(showArt({ showId: 1, index: 0, palette: 4 })).not.toBe(showArt({ showId: 2, index: 0, palette: 4 }));
    expect(showArt({ showId: 1, index: 0, palette: 4 })).not.toBe(showArt({ showId: 1, index: 1, palette: 4 }));
    expect(mediaArt({ kind: 'video', id: 1, palette: 0 })).not.toBe(mediaArt({ kind: 'gallery', id: 1, palette: 0 }));
  });

  it('defaults to 4:3 for shows and 16:9 for media', () => {
    expect(showArt({ showId: 1, index: 0, palette: 0 })).toContain('viewBox="0 0 400 300"');
    expect(mediaArt({ kind: 'video', id: 1, palette: 0 })).toContain('viewBox="0 0 480 270"');
  });
});
