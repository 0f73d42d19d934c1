// The demo shows' drafts: who each show is (name, age, city, languages, features, hobby) and the
// categories it belongs to, before its texts, media and rows are made (generator.ts). Draws from
// the generator's random sequence, so the order of the draws is part of the demo data.
import { Random, round4, slugify } from './random';
import { CHATTY, CITIES, COUPLES, type City, FIRST_NAMES, HOBBIES, type Hobby, LANGUAGE_ORDER, NEWCOMER, NICK_SUFFIXES, PARTNER_NAMES } from './words-catalogue';
import { joinSearch } from './category-fill';

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

/** One draft per id: 16 of them couples, every name (and slug) unique. */
export function draftShows(rng: Random, ids: number[]): Draft[] {
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

  return ids.map((id): Draft => {
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
}
