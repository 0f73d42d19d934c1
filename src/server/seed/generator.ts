// Deterministic demo catalogue. Pure on purpose: the same module seeds D1 from the Node seed
// script (via toSqlScript) and from inside a Worker (via seedStatements), so it may only use
// language built-ins and pure shared modules. All performers are fictional adults; every text is deliberately non-explicit.
import type { GalleryRow, ShowCategoryRow, ShowRow, ShowTagRow, VideoRow } from '../lib/tables';
import { DEMO_PALETTE_COUNT, DEMO_SHOW_COUNT, type DemoData } from './rows';
import { Random, joinList, pad, round4, slugify } from './random';
import { CATEGORIES, CATEGORY_TAG, CHATTY, CITIES, COUPLES, type City, FEATURE_ORDER, FILLER_TAGS, FIRST_NAMES, HOBBIES, type Hobby, LANGUAGE_NAMES, LANGUAGE_ORDER, NEWCOMER, NICK_SUFFIXES, PARTNER_NAMES, TAGS, TAG_ID, TOY_CATEGORY_ID, freeDemoVideo } from './words-catalogue';
import { CLOSINGS, GALLERY_TITLES, HOBBY_LINES, INTROS, type TextCtx, VIDEO_TITLES, slogan } from './words-texts';
import { ensureCategory, joinSearch } from './category-fill';
import { demoRatingVotes, withStoreRows } from './store-rows';

// ---------------------------------------------------------------------------------------------
// Generation

export interface Draft {
  id: number;
  name: string;
  slug: string;
  plural: boolean;
  age: number;
  city: City;
  lat: number;
  lon: number;
  languages: string[];
  features: Set<string>;
  hobby: Hobby;
  online: boolean;
  normal: number[];
  search: number[];
}

const SEED = 0x5eed2026;

/**
 * Demo shows of a partner content provider (contentprovider_id 2): their show pages run the chat
 * in the partner frame (/api/chat/external/vxm). Taken from the end of the id range, which the
 * tests that pick shows by id leave alone (those use ids up to 215 and provider-1 shows).
 */
export const PARTNER_PROVIDER_ID = 2;
export const PARTNER_SHOW_IDS: ReadonlySet<number> = new Set([241, 242, 243, 244, 245, 246, 247, 248, 249, 250]);

export function generateDemoData(now = 1767225600): DemoData {
  const rng = new Random(SEED);
  const ids = Array.from({ length: DEMO_SHOW_COUNT }, (_, i) => i + 1);
  const coupleIds = new Set(rng.sample(ids, 16));
  const usedSlugs = new Set<string>();

  const uniqueName = (base: () => string): [string, string] => {
    for (let attempt = 0; ; attempt++) {
      let name = base();
      if (attempt > 0) name += rng.pick(NICK_SUFFIXES);
      if (attempt > 20) name += String(attempt);
      const slug = slugify(name);
      if (!usedSlugs.has(slug)) {
        usedSlugs.add(slug);
        return [name, slug];
      }
    }
  };

  const drafts: Draft[] = ids.map((id) => {
    const plural = coupleIds.has(id);
    const first = rng.pick(FIRST_NAMES);
    const partner = plural ? rng.pick(PARTNER_NAMES) : '';
    // Couples stay "Lena & Ben"; a nick suffix goes on the first name only.
    const [name, slug] = plural
      ? uniqueName(() => `${first} & ${partner}`)
      : uniqueName(() => first);

    const age = rng.chance(0.7) ? rng.int(18, 29) : rng.int(30, 45);
    const city = rng.pick(CITIES);
    const lat = round4(city.lat + (rng.float() - 0.5) * 0.08);
    const lon = round4(city.lon + (rng.float() - 0.5) * 0.08);

    const langs = new Set<string>(city.langs);
    const dach = city.country === 'DE' || city.country === 'AT' || city.country === 'CH';
    if (dach && city.langs.includes('de')) {
      if (rng.chance(0.75)) langs.add('en');
      if (rng.chance(0.12)) langs.add(rng.pick(['fr', 'es', 'it', 'pl', 'nl']));
    } else {
      langs.add('en');
      if (rng.chance(0.55)) langs.add('de');
    }
    const languages = LANGUAGE_ORDER.filter((l) => langs.has(l));

    const features = new Set<string>();
    if (rng.chance(0.85)) features.add('sound');
    if (rng.chance(0.26)) features.add('toy');
    if (rng.chance(0.45)) features.add('hd');
    if (rng.chance(0.5)) features.add('cam2cam');
    if (rng.chance(0.25)) features.add('phone');
    if (rng.chance(0.3)) features.add('mobile');

    const hobby = rng.pick(HOBBIES);
    const online = rng.chance(1 / 3);

    const normal: number[] = [];
    const addNormal = (cat: number) => {
      if (normal.length < 3 && !normal.includes(cat)) normal.push(cat);
    };
    if (plural) addNormal(COUPLES);
    if (rng.chance(0.13)) addNormal(NEWCOMER);
    if (hobby.category !== undefined) addNormal(hobby.category);
    if (rng.chance(languages.length >= 3 ? 0.5 : 0.15)) addNormal(CHATTY);
    if (rng.chance(0.3)) addNormal(rng.pick([3, 4, 5, 6, 7, 8, 9]));
    if (normal.length === 0) addNormal(rng.pick([3, 4, 5, 6, 6, 6, 7, 8, 9]));

    const draft: Draft = { id, name, slug, plural, age, city, lat, lon, languages, features, hobby, online, normal, search: [] };

    const searchTarget = rng.int(1, 3);
    if (rng.chance(0.5)) joinSearch(draft, rng.pick([1051, 1051, 1052, 1052, 1053, 1054]));
    // Duplicates weight the draw; ineligible picks (e.g. 30+ for a 22-year-old) are skipped.
    const pool = rng.shuffle([1001, 1001, 1001, 1002, 1003, 1013, 1013, 1024, 1024, 1024, 1030, 1062, 1051, 1052, 1053, 1054]);
    for (const cat of pool) {
      if (draft.search.length >= searchTarget) break;
      joinSearch(draft, cat);
    }
    if (draft.search.length === 0 && !joinSearch(draft, 1002)) joinSearch(draft, 1030);
    return draft;
  });

  // Guarantee every category is usable in the UI: enough shows to fill a row and some online.
  const order = rng.shuffle(drafts);
  for (const cat of CATEGORIES) {
    ensureCategory(cat.id, order, drafts);
  }

  const ranks = rng.shuffle(ids);
  const shows: ShowRow[] = [];
  const showCategories: ShowCategoryRow[] = [];
  const showTags: ShowTagRow[] = [];
  const videos: VideoRow[] = [];
  const galleries: GalleryRow[] = [];
  const usedDescriptions = new Set<string>();

  for (const d of drafts) {
    const newcomer = d.normal.includes(NEWCOMER);
    const createdAt = newcomer
      ? now - rng.int(1, 27) * 86400 - rng.int(0, 86399)
      : now - rng.int(35, 1100) * 86400 - rng.int(0, 86399);
    const rating = Math.min(100, 55 + Math.floor(46 * (1 - rng.float() * rng.float())));

    let ribbon: string | null = null;
    if (newcomer && rng.chance(0.3)) ribbon = 'new';
    else if (rating >= 90 && rng.chance(0.1)) ribbon = 'top';
    else if (d.online && rng.chance(0.1)) ribbon = 'hot';

    const ctx: TextCtx = {
      name: d.name,
      plural: d.plural,
      cityEn: d.city.en,
      cityDe: d.city.de,
      hobby: d.hobby,
      langsEn: joinList(d.languages.map((l) => LANGUAGE_NAMES[l].en), 'and'),
      langsDe: joinList(d.languages.map((l) => LANGUAGE_NAMES[l].de), 'und'),
    };
    const [sloganEn, sloganDe] = slogan(rng, ctx);
    const parts = [rng.pick(INTROS)(ctx), rng.pick(HOBBY_LINES)(ctx), rng.pick(CLOSINGS)(ctx)];
    // Names are unique, so falling back to the introduction that names the show keeps texts unique.
    if (usedDescriptions.has(parts.map((p) => p[0]).join(' '))) parts[0] = INTROS[0](ctx);
    usedDescriptions.add(parts.map((p) => p[0]).join(' '));

    const r = rng.float();
    const flagExclusive = r < 0.15 ? 0 : r < 0.2 ? 3 : 1;
    const palette = rng.int(0, DEMO_PALETTE_COUNT - 1);

    shows.push({
      id: d.id,
      universal_id: `u-${pad(d.id, 6)}`,
      contentprovider_id: PARTNER_SHOW_IDS.has(d.id) ? PARTNER_PROVIDER_ID : 1,
      name: d.name,
      slug_name: d.slug,
      age: d.age,
      languages: d.languages.join(','),
      city: d.city.de,
      city_en: d.city.en,
      country: d.city.country,
      lat: d.lat,
      lon: d.lon,
      price_per_minute: rng.int(20, 99),
      price_factor_exclusive: rng.chance(0.06) ? 100 : rng.pick([150, 175, 200, 250]),
      flag_free: rng.chance(0.5) ? 1 : 0,
      flag_exclusive: flagExclusive,
      features: JSON.stringify(FEATURE_ORDER.filter((f) => d.features.has(f))),
      rating,
      rating_count: demoRatingVotes('show', d.id),
      preview_count: rng.int(3, 5),
      palette,
      ribbon,
      slogan_en: sloganEn,
      slogan_de: sloganDe,
      description_en: parts.map((p) => p[0]).join(' '),
      description_de: parts.map((p) => p[1]).join(' '),
      online: d.online ? 1 : 0,
      online_since: d.online ? now - rng.int(2, 480) * 60 : null,
      sort_rank: ranks[d.id - 1],
      created_at: createdAt,
    });

    const cats = [...d.normal, ...(d.features.has('toy') ? [TOY_CATEGORY_ID] : []), ...d.search];
    for (const category_id of cats) showCategories.push({ category_id, show_id: d.id });

    // Structural tags first (hobby and category-implied), then hair length, then filler.
    const tags: string[] = [d.hobby.tag];
    for (const cat of cats) {
      let tag = CATEGORY_TAG[cat];
      if (tag === 'fitness' && d.hobby.tag === 'yoga') tag = 'yoga';
      if (tag === 'music' && d.hobby.tag === 'karaoke') tag = 'karaoke';
      if (tag && !tags.includes(tag)) tags.push(tag);
    }
    const tagTarget = Math.max(tags.length, rng.int(3, 6));
    const hair = rng.float();
    if (tags.length < 6 && hair < 0.55) tags.push(hair < 0.4 ? 'long-hair' : 'short-hair');
    for (const filler of rng.shuffle(FILLER_TAGS)) {
      if (tags.length >= tagTarget) break;
      if (!tags.includes(filler)) tags.push(filler);
    }
    for (const slug of tags) showTags.push({ tag_id: TAG_ID.get(slug) as number, show_id: d.id });

    for (const tpl of rng.sample(VIDEO_TITLES, rng.int(2, 4))) {
      const id = videos.length + 1;
      const [title_en, title_de] = tpl(ctx);
      const duration = rng.int(60, 1800);
      const price = Math.min(300, 30 + Math.round((duration / 1800) * 170) + rng.int(0, 100));
      videos.push({
        id,
        ccid: `v${pad(id, 6)}`,
        show_id: d.id,
        title_en,
        title_de,
        duration_s: duration,
        parts: duration < 600 ? 1 : rng.int(1, 3),
        price: freeDemoVideo(id) ? 0 : price,
        rating: rng.int(50, 100),
        palette: rng.int(0, DEMO_PALETTE_COUNT - 1),
        rating_votes: demoRatingVotes('video', id),
        created_at: createdAt + Math.floor(rng.float() * (now - createdAt)),
      });
    }

    for (const tpl of rng.sample(GALLERY_TITLES, rng.int(1, 3))) {
      const [title_en, title_de] = tpl(ctx);
      const pictures = rng.int(6, 24);
      const galleryId = galleries.length + 1;
      galleries.push({
        id: galleryId,
        show_id: d.id,
        title_en,
        title_de,
        picture_count: pictures,
        price: Math.min(150, 20 + pictures * 4 + rng.int(0, 40)),
        rating: rng.int(50, 100),
        palette: rng.int(0, DEMO_PALETTE_COUNT - 1),
        rating_votes: demoRatingVotes('gallery', galleryId),
        created_at: createdAt + Math.floor(rng.float() * (now - createdAt)),
      });
    }
  }

  showCategories.sort((a, b) => a.category_id - b.category_id || a.show_id - b.show_id);
  showTags.sort((a, b) => a.tag_id - b.tag_id || a.show_id - b.show_id);

  return withStoreRows({
    categories: CATEGORIES.map((c) => ({ ...c })),
    tags: TAGS.map((t) => ({ ...t })),
    shows,
    showCategories,
    showTags,
    videos,
    galleries,
  });
}

/** Adds a search category when it does not contradict what the show already is. */
