// Deterministic demo catalogue. Pure on purpose: the same module seeds D1 from the Node seed
// script (via toSqlScript) and from inside a Worker (via seedStatements), so it may only use
// language built-ins and pure shared modules. All performers are fictional adults; every text is deliberately non-explicit.
import type { GalleryRow, ShowCategoryRow, ShowRow, ShowTagRow, VideoRow } from '../lib/tables';
import { DEMO_PALETTE_COUNT, DEMO_SHOW_COUNT, type DemoData } from './rows';
import { Random, joinList, pad } from './random';
import { CATEGORIES, CATEGORY_TAG, FEATURE_ORDER, FILLER_TAGS, LANGUAGE_NAMES, NEWCOMER, TAGS, TAG_ID, TOY_CATEGORY_ID, freeDemoVideo } from './words-catalogue';
import { CLOSINGS, GALLERY_TITLES, HOBBY_LINES, INTROS, type TextCtx, VIDEO_TITLES, slogan } from './words-texts';
import { ensureCategory } from './category-fill';
import { draftShows } from './drafts';
import { demoRatingVotes, withStoreRows } from './store-rows';

// ---------------------------------------------------------------------------------------------
// Generation

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
  const drafts = draftShows(rng, ids);

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
