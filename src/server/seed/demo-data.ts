// Deterministic demo catalogue. Pure on purpose: the same module seeds D1 from the Node seed
// script (via toSqlScript) and from inside a Worker (via seedStatements), so it may only use
// language built-ins and pure shared modules. All performers are fictional adults; every text is deliberately non-explicit.

import { mulberry32 } from '../../shared/random';

export const DEMO_MEMBER = { name: 'demo', email: 'demo@example.com', password: 'demo-pass-2026', coins: 500 };

export interface CategoryRow {
  id: number;
  slug: string;
  slug_description: string;
  name_en: string;
  name_de: string;
  is_search: number;
  position: number;
}

export interface TagRow {
  id: number;
  slug: string;
  name_en: string;
  name_de: string;
}

export interface ShowRow {
  id: number;
  universal_id: string;
  contentprovider_id: number;
  name: string;
  slug_name: string;
  age: number;
  languages: string;
  /** The city's German name; city_en its English one (pages show the visitor's language). */
  city: string;
  city_en: string;
  country: string;
  lat: number;
  lon: number;
  price_per_minute: number;
  price_factor_exclusive: number;
  flag_free: number;
  flag_exclusive: number;
  features: string;
  rating: number;
  preview_count: number;
  palette: number;
  ribbon: string | null;
  slogan_en: string;
  slogan_de: string;
  description_en: string;
  description_de: string;
  online: number;
  online_since: number | null;
  sort_rank: number;
  created_at: number;
}

export interface ShowCategoryRow {
  category_id: number;
  show_id: number;
}

export interface ShowTagRow {
  tag_id: number;
  show_id: number;
}

export interface VideoRow {
  id: number;
  ccid: string;
  show_id: number;
  title_en: string;
  title_de: string;
  duration_s: number;
  parts: number;
  price: number;
  rating: number;
  palette: number;
  created_at: number;
}

export interface GalleryRow {
  id: number;
  show_id: number;
  title_en: string;
  title_de: string;
  picture_count: number;
  price: number;
  rating: number;
  palette: number;
  created_at: number;
}

export interface DemoData {
  categories: CategoryRow[];
  tags: TagRow[];
  shows: ShowRow[];
  showCategories: ShowCategoryRow[];
  showTags: ShowTagRow[];
  videos: VideoRow[];
  galleries: GalleryRow[];
}

export type SqlValue = string | number | null;

export const DEMO_SHOW_COUNT = 264;
export const DEMO_PALETTE_COUNT = 12;

// ---------------------------------------------------------------------------------------------
// Randomness: seeded, so every run and every runtime gets the same catalogue.

type Rng = () => number;

class Random {
  private readonly next: Rng;
  constructor(seed: number) {
    this.next = mulberry32(seed);
  }
  float(): number {
    return this.next();
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }
  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      const tmp = out[i];
      out[i] = out[j];
      out[j] = tmp;
    }
    return out;
  }
  sample<T>(items: readonly T[], count: number): T[] {
    return this.shuffle(items).slice(0, count);
  }
}

// ---------------------------------------------------------------------------------------------
// Helpers

const TRANSLIT: Record<string, string> = {
  ä: 'ae', ö: 'oe', ü: 'ue', ß: 'ss', Ä: 'Ae', Ö: 'Oe', Ü: 'Ue',
  ł: 'l', Ł: 'L', ø: 'o', Ø: 'O', æ: 'ae', Æ: 'Ae',
};

/** kebab-case ASCII; German umlauts are transliterated rather than stripped (Käthe -> kaethe). */
export function slugify(value: string): string {
  return value
    .replace(/[äöüßÄÖÜłŁøØæÆ]/g, (c) => TRANSLIT[c] ?? c)
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/&/g, ' and ')
    .replace(/\+/g, ' plus ')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

function round4(n: number): number {
  return Math.round(n * 10000) / 10000;
}

function joinList(items: readonly string[], and: string): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${and} ${items[items.length - 1]}`;
}

// ---------------------------------------------------------------------------------------------
// Static catalogue

const CATEGORIES: readonly CategoryRow[] = [
  { id: 1, slug: 'newcomers', slug_description: 'live-shows-by-newcomers', name_en: 'Newcomers', name_de: 'Neueinsteiger', is_search: 0, position: 1 },
  { id: 2, slug: 'couples', slug_description: 'live-shows-by-couples', name_en: 'Couples', name_de: 'Paare', is_search: 0, position: 2 },
  { id: 3, slug: 'dancers', slug_description: 'live-dance-shows', name_en: 'Dancers', name_de: 'Tänzerinnen', is_search: 0, position: 3 },
  { id: 4, slug: 'cosplay', slug_description: 'live-cosplay-shows', name_en: 'Cosplay', name_de: 'Cosplay', is_search: 0, position: 4 },
  { id: 5, slug: 'fitness', slug_description: 'live-fitness-and-yoga', name_en: 'Fitness', name_de: 'Fitness', is_search: 0, position: 5 },
  { id: 6, slug: 'chatty', slug_description: 'friendly-live-chat', name_en: 'Chatty', name_de: 'Gesprächig', is_search: 0, position: 6 },
  { id: 7, slug: 'gamers', slug_description: 'live-gaming-streams', name_en: 'Gamers', name_de: 'Gamer', is_search: 0, position: 7 },
  { id: 8, slug: 'music', slug_description: 'live-music-and-karaoke', name_en: 'Music', name_de: 'Musik', is_search: 0, position: 8 },
  { id: 9, slug: 'travel', slug_description: 'live-from-on-the-road', name_en: 'Travel', name_de: 'Reisen', is_search: 0, position: 9 },
  { id: 20, slug: 'toy-control', slug_description: 'interactive-toy-control-shows', name_en: 'Toy control', name_de: 'Toy-Steuerung', is_search: 0, position: 10 },
  { id: 1001, slug: 'mature-30-plus', slug_description: 'performers-aged-30-plus', name_en: 'Mature 30+', name_de: 'Reif 30+', is_search: 1, position: 11 },
  { id: 1002, slug: 'petite', slug_description: 'petite-performers', name_en: 'Petite', name_de: 'Zierlich', is_search: 1, position: 12 },
  { id: 1003, slug: 'curvy', slug_description: 'curvy-performers', name_en: 'Curvy', name_de: 'Kurvig', is_search: 1, position: 13 },
  { id: 1013, slug: 'german-speaking', slug_description: 'shows-in-german', name_en: 'German speaking', name_de: 'Deutschsprachig', is_search: 1, position: 14 },
  { id: 1024, slug: 'hd-cam', slug_description: 'shows-in-hd-quality', name_en: 'HD cam', name_de: 'HD-Kamera', is_search: 1, position: 15 },
  { id: 1030, slug: 'glasses', slug_description: 'performers-with-glasses', name_en: 'Glasses', name_de: 'Brille', is_search: 1, position: 16 },
  { id: 1051, slug: 'blonde', slug_description: 'blonde-performers', name_en: 'Blonde', name_de: 'Blond', is_search: 1, position: 17 },
  { id: 1052, slug: 'brunette', slug_description: 'brunette-performers', name_en: 'Brunette', name_de: 'Brünett', is_search: 1, position: 18 },
  { id: 1053, slug: 'black-hair', slug_description: 'performers-with-black-hair', name_en: 'Black hair', name_de: 'Schwarzhaarig', is_search: 1, position: 19 },
  { id: 1054, slug: 'redhead', slug_description: 'redhead-performers', name_en: 'Redhead', name_de: 'Rothaarig', is_search: 1, position: 20 },
  { id: 1062, slug: 'tattoos', slug_description: 'performers-with-tattoos', name_en: 'Tattoos', name_de: 'Tattoos', is_search: 1, position: 21 },
];

const TOY_CATEGORY_ID = 20;
const NEWCOMER = 1;
const COUPLES = 2;
const CHATTY = 6;
const HAIR_CATEGORIES = [1051, 1052, 1053, 1054] as const;
const BODY_CATEGORIES = [1002, 1003] as const;

const TAGS: readonly TagRow[] = (
  [
    ['smile', 'Smile', 'Lächeln'],
    ['dancing', 'Dancing', 'Tanzen'],
    ['gaming', 'Gaming', 'Gaming'],
    ['music', 'Music', 'Musik'],
    ['cooking', 'Cooking', 'Kochen'],
    ['travel', 'Travel', 'Reisen'],
    ['fitness', 'Fitness', 'Fitness'],
    ['yoga', 'Yoga', 'Yoga'],
    ['cosplay', 'Cosplay', 'Cosplay'],
    ['books', 'Books', 'Bücher'],
    ['art', 'Art', 'Kunst'],
    ['photography', 'Photography', 'Fotografie'],
    ['languages', 'Languages', 'Sprachen'],
    ['fashion', 'Fashion', 'Mode'],
    ['tattoo', 'Tattoo', 'Tattoo'],
    ['glasses', 'Glasses', 'Brille'],
    ['long-hair', 'Long hair', 'Lange Haare'],
    ['short-hair', 'Short hair', 'Kurze Haare'],
    ['humour', 'Humour', 'Humor'],
    ['karaoke', 'Karaoke', 'Karaoke'],
    ['movies', 'Movies', 'Filme'],
    ['nature', 'Nature', 'Natur'],
    ['coffee', 'Coffee', 'Kaffee'],
    ['pets', 'Pets', 'Haustiere'],
  ] as const
).map(([slug, name_en, name_de], i) => ({ id: i + 1, slug, name_en, name_de }));

const TAG_ID = new Map(TAGS.map((t) => [t.slug, t.id]));

// Tags that carry no structural meaning and can pad a show up to its tag count.
const FILLER_TAGS = ['smile', 'humour', 'cooking', 'books', 'art', 'photography', 'fashion', 'movies', 'nature', 'coffee', 'pets', 'languages', 'karaoke'];

// German hobby nouns are chosen so they read correctly after "über"/"um" and standing alone.
interface Hobby { tag: string; en: string; de: string; category?: number }
const HOBBIES: readonly Hobby[] = [
  { tag: 'dancing', en: 'dancing', de: 'Tanzen', category: 3 },
  { tag: 'gaming', en: 'video games', de: 'Videospiele', category: 7 },
  { tag: 'music', en: 'music', de: 'Musik', category: 8 },
  { tag: 'karaoke', en: 'karaoke', de: 'Karaoke', category: 8 },
  { tag: 'cooking', en: 'cooking', de: 'Kochen' },
  { tag: 'travel', en: 'travelling', de: 'Reisen', category: 9 },
  { tag: 'fitness', en: 'fitness', de: 'Fitness', category: 5 },
  { tag: 'yoga', en: 'yoga', de: 'Yoga', category: 5 },
  { tag: 'cosplay', en: 'cosplay', de: 'Cosplay', category: 4 },
  { tag: 'books', en: 'good books', de: 'gute Bücher' },
  { tag: 'art', en: 'painting', de: 'Malen' },
  { tag: 'photography', en: 'photography', de: 'Fotografie' },
  { tag: 'languages', en: 'learning languages', de: 'Sprachen lernen', category: CHATTY },
  { tag: 'fashion', en: 'fashion', de: 'Mode' },
  { tag: 'movies', en: 'movie nights', de: 'Filmabende' },
  { tag: 'nature', en: 'hiking', de: 'Wandern' },
  { tag: 'coffee', en: 'coffee', de: 'Kaffee' },
  { tag: 'pets', en: 'animals', de: 'Tiere' },
];

// Normal categories that imply a tag, so a "Dancers" show is also tagged "dancing".
const CATEGORY_TAG: Record<number, string> = { 3: 'dancing', 4: 'cosplay', 5: 'fitness', 7: 'gaming', 8: 'music', 9: 'travel', 1062: 'tattoo', 1030: 'glasses' };

const FIRST_NAMES = [
  'Lena', 'Mia', 'Hanna', 'Sophie', 'Emilia', 'Lea', 'Marie', 'Nele', 'Jule', 'Ida',
  'Greta', 'Frieda', 'Paula', 'Clara', 'Johanna', 'Leonie', 'Amelie', 'Lina', 'Mila', 'Ella',
  'Anna', 'Luisa', 'Nora', 'Romy', 'Zoë', 'Chloé', 'Inès', 'Isabella', 'Giulia', 'Chiara',
  'Francesca', 'Valentina', 'Lucía', 'Carmen', 'Marta', 'Sofía', 'Elena', 'Alba', 'Camille', 'Manon',
  'Océane', 'Juliette', 'Margaux', 'Agnieszka', 'Kasia', 'Zofia', 'Natalia', 'Magda', 'Sanne', 'Femke',
  'Lotte', 'Noor', 'Maud', 'Fleur', 'Astrid', 'Freya', 'Ingrid', 'Liv', 'Saga', 'Elif',
  'Ayla', 'Selin', 'Yara', 'Amira', 'Leyla', 'Nadia', 'Mira', 'Alina', 'Daria', 'Vera',
  'Katja', 'Nina', 'Svenja', 'Jasmin', 'Lara', 'Maja', 'Tessa', 'Vivien', 'Ronja', 'Käthe',
  'Merle', 'Smilla', 'Jördis', 'Britt',
];
const PARTNER_NAMES = ['Ben', 'Tom', 'Leo', 'Jonas', 'Finn', 'Paul', 'Luca', 'Noah', 'Elias', 'Max', 'Felix', 'Jan', 'Nico', 'Marco', 'Tim', 'David', 'Luis', 'Mats', 'Ole', 'Hugo'];
// Only used when a first name is already taken; cam platforms commonly use such nick suffixes.
const NICK_SUFFIXES = ['Sky', 'Joy', 'Star', 'Rose', 'Sun', 'Moon', 'Blue', 'Lou', 'Bee', 'Pearl', 'Wave', 'Dream', 'Lux', 'Mae', 'Jade', 'Rain', 'Belle', 'Snow'];

interface City { de: string; en: string; country: string; lat: number; lon: number; langs: readonly string[] }
const CITIES: readonly City[] = [
  { de: 'Berlin', en: 'Berlin', country: 'DE', lat: 52.52, lon: 13.405, langs: ['de'] },
  { de: 'Hamburg', en: 'Hamburg', country: 'DE', lat: 53.5511, lon: 9.9937, langs: ['de'] },
  { de: 'München', en: 'Munich', country: 'DE', lat: 48.1372, lon: 11.5756, langs: ['de'] },
  { de: 'Köln', en: 'Cologne', country: 'DE', lat: 50.9375, lon: 6.9603, langs: ['de'] },
  { de: 'Frankfurt am Main', en: 'Frankfurt', country: 'DE', lat: 50.1109, lon: 8.6821, langs: ['de'] },
  { de: 'Stuttgart', en: 'Stuttgart', country: 'DE', lat: 48.7758, lon: 9.1829, langs: ['de'] },
  { de: 'Düsseldorf', en: 'Düsseldorf', country: 'DE', lat: 51.2277, lon: 6.7735, langs: ['de'] },
  { de: 'Leipzig', en: 'Leipzig', country: 'DE', lat: 51.3397, lon: 12.3731, langs: ['de'] },
  { de: 'Dresden', en: 'Dresden', country: 'DE', lat: 51.0504, lon: 13.7373, langs: ['de'] },
  { de: 'Hannover', en: 'Hanover', country: 'DE', lat: 52.3759, lon: 9.732, langs: ['de'] },
  { de: 'Nürnberg', en: 'Nuremberg', country: 'DE', lat: 49.4521, lon: 11.0767, langs: ['de'] },
  { de: 'Bremen', en: 'Bremen', country: 'DE', lat: 53.0793, lon: 8.8017, langs: ['de'] },
  { de: 'Dortmund', en: 'Dortmund', country: 'DE', lat: 51.5136, lon: 7.4653, langs: ['de'] },
  { de: 'Essen', en: 'Essen', country: 'DE', lat: 51.4556, lon: 7.0116, langs: ['de'] },
  { de: 'Münster', en: 'Münster', country: 'DE', lat: 51.9607, lon: 7.6261, langs: ['de'] },
  { de: 'Freiburg im Breisgau', en: 'Freiburg', country: 'DE', lat: 47.999, lon: 7.8421, langs: ['de'] },
  { de: 'Heidelberg', en: 'Heidelberg', country: 'DE', lat: 49.3988, lon: 8.6724, langs: ['de'] },
  { de: 'Kiel', en: 'Kiel', country: 'DE', lat: 54.3233, lon: 10.1228, langs: ['de'] },
  { de: 'Rostock', en: 'Rostock', country: 'DE', lat: 54.0924, lon: 12.0991, langs: ['de'] },
  { de: 'Mainz', en: 'Mainz', country: 'DE', lat: 49.9929, lon: 8.2473, langs: ['de'] },
  { de: 'Augsburg', en: 'Augsburg', country: 'DE', lat: 48.3705, lon: 10.8978, langs: ['de'] },
  { de: 'Bonn', en: 'Bonn', country: 'DE', lat: 50.7374, lon: 7.0982, langs: ['de'] },
  { de: 'Potsdam', en: 'Potsdam', country: 'DE', lat: 52.3906, lon: 13.0645, langs: ['de'] },
  { de: 'Erfurt', en: 'Erfurt', country: 'DE', lat: 50.9848, lon: 11.0299, langs: ['de'] },
  { de: 'Wien', en: 'Vienna', country: 'AT', lat: 48.2082, lon: 16.3738, langs: ['de'] },
  { de: 'Graz', en: 'Graz', country: 'AT', lat: 47.0707, lon: 15.4395, langs: ['de'] },
  { de: 'Salzburg', en: 'Salzburg', country: 'AT', lat: 47.8095, lon: 13.055, langs: ['de'] },
  { de: 'Innsbruck', en: 'Innsbruck', country: 'AT', lat: 47.2692, lon: 11.4041, langs: ['de'] },
  { de: 'Linz', en: 'Linz', country: 'AT', lat: 48.3069, lon: 14.2858, langs: ['de'] },
  { de: 'Zürich', en: 'Zurich', country: 'CH', lat: 47.3769, lon: 8.5417, langs: ['de'] },
  { de: 'Bern', en: 'Bern', country: 'CH', lat: 46.948, lon: 7.4474, langs: ['de', 'fr'] },
  { de: 'Basel', en: 'Basel', country: 'CH', lat: 47.5596, lon: 7.5886, langs: ['de'] },
  { de: 'Luzern', en: 'Lucerne', country: 'CH', lat: 47.0502, lon: 8.3093, langs: ['de'] },
  { de: 'Genf', en: 'Geneva', country: 'CH', lat: 46.2044, lon: 6.1432, langs: ['fr'] },
  { de: 'Amsterdam', en: 'Amsterdam', country: 'NL', lat: 52.3676, lon: 4.9041, langs: ['nl'] },
  { de: 'Warschau', en: 'Warsaw', country: 'PL', lat: 52.2297, lon: 21.0122, langs: ['pl'] },
  { de: 'Krakau', en: 'Krakow', country: 'PL', lat: 50.0647, lon: 19.945, langs: ['pl'] },
  { de: 'Prag', en: 'Prague', country: 'CZ', lat: 50.0755, lon: 14.4378, langs: [] },
  { de: 'Paris', en: 'Paris', country: 'FR', lat: 48.8566, lon: 2.3522, langs: ['fr'] },
  { de: 'Barcelona', en: 'Barcelona', country: 'ES', lat: 41.3851, lon: 2.1734, langs: ['es'] },
  { de: 'Mailand', en: 'Milan', country: 'IT', lat: 45.4642, lon: 9.19, langs: ['it'] },
  { de: 'Kopenhagen', en: 'Copenhagen', country: 'DK', lat: 55.6761, lon: 12.5683, langs: [] },
];

const LANGUAGE_ORDER = ['de', 'en', 'fr', 'es', 'it', 'pl', 'nl'] as const;
const LANGUAGE_NAMES: Record<string, { en: string; de: string }> = {
  de: { en: 'German', de: 'Deutsch' },
  en: { en: 'English', de: 'Englisch' },
  fr: { en: 'French', de: 'Französisch' },
  es: { en: 'Spanish', de: 'Spanisch' },
  it: { en: 'Italian', de: 'Italienisch' },
  pl: { en: 'Polish', de: 'Polnisch' },
  nl: { en: 'Dutch', de: 'Niederländisch' },
};

/** Every 20th video is free (price 0): the "Free videos" list (migration 0010 applies the same rule). */
export const freeDemoVideo = (id: number) => id % 20 === 0;

const FEATURE_ORDER = ['sound', 'toy', 'hd', 'cam2cam', 'phone', 'mobile'] as const;

// ---------------------------------------------------------------------------------------------
// Text templates. Each takes a context and returns [en, de]; couples speak as "we".

interface TextCtx {
  name: string;
  plural: boolean;
  cityEn: string;
  cityDe: string;
  hobby: Hobby;
  langsEn: string;
  langsDe: string;
}
type Template = (c: TextCtx) => [string, string];

const INTROS: readonly Template[] = [
  (c) => c.plural
    ? [`Hi, we're ${c.name} from ${c.cityEn}.`, `Hallo, wir sind ${c.name} aus ${c.cityDe}.`]
    : [`Hi, I'm ${c.name} from ${c.cityEn}.`, `Hallo, ich bin ${c.name} aus ${c.cityDe}.`],
  (c) => [`Greetings from ${c.cityEn}!`, `Liebe Grüße aus ${c.cityDe}!`],
  (c) => c.plural
    ? [`${c.cityEn} is our home, and we love to share a bit of it.`, `${c.cityDe} ist unser Zuhause, und davon erzählen wir gern.`]
    : [`${c.cityEn} is my home, and I love to share a bit of it.`, `${c.cityDe} ist mein Zuhause, und davon erzähle ich gern.`],
  (c) => c.plural
    ? [`Welcome to our channel, live from ${c.cityEn}.`, `Willkommen auf unserem Kanal, live aus ${c.cityDe}.`]
    : [`Welcome to my channel, live from ${c.cityEn}.`, `Willkommen auf meinem Kanal, live aus ${c.cityDe}.`],
];

const HOBBY_LINES: readonly Template[] = [
  (c) => c.plural
    ? [`Nothing beats ${c.hobby.en} for us.`, `Für uns geht nichts über ${c.hobby.de}.`]
    : [`Nothing beats ${c.hobby.en} for me.`, `Für mich geht nichts über ${c.hobby.de}.`],
  (c) => c.plural
    ? [`Our favourite topic? Definitely ${c.hobby.en}.`, `Unser Lieblingsthema? Ganz klar ${c.hobby.de}.`]
    : [`My favourite topic? Definitely ${c.hobby.en}.`, `Mein Lieblingsthema? Ganz klar ${c.hobby.de}.`],
  (c) => c.plural
    ? [`When it comes to ${c.hobby.en}, there's no stopping us.`, `Wenn es um ${c.hobby.de} geht, sind wir nicht zu bremsen.`]
    : [`When it comes to ${c.hobby.en}, there's no stopping me.`, `Wenn es um ${c.hobby.de} geht, bin ich nicht zu bremsen.`],
  (c) => c.plural
    ? [`In our free time we're all about ${c.hobby.en}.`, `In unserer Freizeit dreht sich alles um ${c.hobby.de}.`]
    : [`In my free time I'm all about ${c.hobby.en}.`, `In meiner Freizeit dreht sich alles um ${c.hobby.de}.`],
];

const CLOSINGS: readonly Template[] = [
  (c) => c.plural
    ? [`We chat in ${c.langsEn}, so just say hello.`, `Wir chatten auf ${c.langsDe} – sag einfach Hallo.`]
    : [`I chat in ${c.langsEn}, so just say hello.`, `Ich chatte auf ${c.langsDe} – sag einfach Hallo.`],
  (c) => c.plural
    ? [`Feel free to write to us in ${c.langsEn}.`, `Schreib uns gern auf ${c.langsDe}.`]
    : [`Feel free to write to me in ${c.langsEn}.`, `Schreib mir gern auf ${c.langsDe}.`],
  (c) => c.plural
    ? [`Drop by and chat with us in ${c.langsEn}!`, `Komm vorbei und plaudere mit uns auf ${c.langsDe}!`]
    : [`Drop by and chat with me in ${c.langsEn}!`, `Komm vorbei und plaudere mit mir auf ${c.langsDe}!`],
  (c) => c.plural
    ? [`Looking forward to meeting you – we speak ${c.langsEn}.`, `Wir freuen uns darauf, dich kennenzulernen – wir sprechen ${c.langsDe}.`]
    : [`Looking forward to meeting you – I speak ${c.langsEn}.`, `Ich freue mich darauf, dich kennenzulernen – ich spreche ${c.langsDe}.`],
];

const SLOGAN_HEADS: readonly [string, string][] = [
  ['Good vibes', 'Gute Laune'],
  ['Sunny mood', 'Sonnige Stimmung'],
  ['Cosy evenings', 'Gemütliche Abende'],
  ['Fresh coffee', 'Frischer Kaffee'],
  ['Late-night talks', 'Gespräche bis spät'],
  ['Warm words', 'Warme Worte'],
  ['Chill music', 'Entspannte Musik'],
  ['Big smiles', 'Ein breites Lächeln'],
  ['Sweet chats', 'Nette Plaudereien'],
];
const SLOGAN_TAILS: readonly [string, string][] = [
  ['great conversation', 'tolle Gespräche'],
  ['lots of laughter', 'viel Gelächter'],
  ['a warm welcome', 'ein herzliches Willkommen'],
  ['new stories every day', 'jeden Tag neue Geschichten'],
  ['plenty of fun', 'jede Menge Spaß'],
  ['honest answers', 'ehrliche Antworten'],
  ['a relaxed atmosphere', 'eine entspannte Atmosphäre'],
];
const SLOGAN_STANDALONE: readonly Template[] = [
  () => ['Say hi and stay a while', 'Sag Hallo und bleib ein bisschen'],
  () => ['Come for the chat, stay for the smile', 'Komm zum Plaudern, bleib fürs Lächeln'],
  () => ['Always up for a good conversation', 'Immer offen für ein gutes Gespräch'],
  (c) => [`Your friendly face from ${c.cityEn}`, `Dein freundliches Gesicht aus ${c.cityDe}`],
  (c) => [`Let's talk about ${c.hobby.en}!`, `Lass uns über ${c.hobby.de} reden!`],
];

function slogan(rng: Random, c: TextCtx): [string, string] {
  const r = rng.float();
  if (r < 0.5) {
    const [hEn, hDe] = rng.pick(SLOGAN_HEADS);
    const [tEn, tDe] = rng.chance(0.2) ? [c.hobby.en, c.hobby.de] : rng.pick(SLOGAN_TAILS);
    return [`${hEn} and ${tEn}`, `${hDe} und ${tDe}`];
  }
  if (r < 0.7) {
    const [hEn, hDe] = rng.pick(SLOGAN_HEADS);
    return [`${hEn}, live from ${c.cityEn}`, `${hDe}, live aus ${c.cityDe}`];
  }
  return rng.pick(SLOGAN_STANDALONE)(c);
}

const VIDEO_TITLES: readonly Template[] = [
  () => ['Morning coffee chat', 'Morgendlicher Kaffeeplausch'],
  () => ['Q&A session', 'Fragerunde'],
  () => ['Weekend recap', 'Wochenendrückblick'],
  (c) => [`A day in ${c.cityEn}`, `Ein Tag in ${c.cityDe}`],
  (c) => [`Let's talk about ${c.hobby.en}`, `Reden wir über ${c.hobby.de}`],
  () => ['Cosy evening stream', 'Gemütlicher Abendstream'],
  () => ['Playlist of the week', 'Playlist der Woche'],
  () => ['Cooking together', 'Gemeinsam kochen'],
  () => ['Travel stories', 'Reisegeschichten'],
  () => ['Game night highlights', 'Highlights vom Spieleabend'],
  () => ['Dance practice', 'Tanztraining'],
  () => ['Yoga for beginners', 'Yoga für Anfänger'],
  () => ['Behind the scenes', 'Hinter den Kulissen'],
  () => ['Favourite books', 'Lieblingsbücher'],
  () => ['Outfit of the day', 'Outfit des Tages'],
  () => ['Karaoke night', 'Karaoke-Abend'],
  () => ['Movie night tips', 'Tipps für den Filmabend'],
  () => ['Sunday walk', 'Sonntagsspaziergang'],
  () => ['Rainy day chat', 'Plaudern an einem Regentag'],
  () => ['Birthday stream', 'Geburtstagsstream'],
  () => ['Language exchange', 'Sprachaustausch'],
  () => ['New year, new plans', 'Neues Jahr, neue Pläne'],
  () => ['Studio tour', 'Studio-Tour'],
  () => ['Cosplay preview', 'Cosplay-Vorschau'],
  () => ['Fitness routine', 'Fitness-Routine'],
  () => ['Coffee and questions', 'Kaffee und Fragen'],
];

const GALLERY_TITLES: readonly Template[] = [
  (c) => [`Snapshots from ${c.cityEn}`, `Schnappschüsse aus ${c.cityDe}`],
  () => ['Autumn colours', 'Herbstfarben'],
  () => ['Summer days', 'Sommertage'],
  () => ['Winter walk', 'Winterspaziergang'],
  () => ['Studio moments', 'Studiomomente'],
  () => ['Favourite outfits', 'Lieblingsoutfits'],
  () => ['Café hopping', 'Café-Hopping'],
  () => ['Travel diary', 'Reisetagebuch'],
  () => ['Golden hour', 'Goldene Stunde'],
  () => ['Behind the camera', 'Hinter der Kamera'],
  () => ['Flower market', 'Blumenmarkt'],
  () => ['By the lake', 'Am See'],
  () => ['Rooftop evening', 'Abend auf der Dachterrasse'],
  () => ['Holiday memories', 'Urlaubserinnerungen'],
  () => ['Colourful everyday life', 'Bunter Alltag'],
];

// ---------------------------------------------------------------------------------------------
// Generation

interface Draft {
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
      contentprovider_id: 1,
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
        created_at: createdAt + Math.floor(rng.float() * (now - createdAt)),
      });
    }

    for (const tpl of rng.sample(GALLERY_TITLES, rng.int(1, 3))) {
      const [title_en, title_de] = tpl(ctx);
      const pictures = rng.int(6, 24);
      galleries.push({
        id: galleries.length + 1,
        show_id: d.id,
        title_en,
        title_de,
        picture_count: pictures,
        price: Math.min(150, 20 + pictures * 4 + rng.int(0, 40)),
        rating: rng.int(50, 100),
        palette: rng.int(0, DEMO_PALETTE_COUNT - 1),
        created_at: createdAt + Math.floor(rng.float() * (now - createdAt)),
      });
    }
  }

  showCategories.sort((a, b) => a.category_id - b.category_id || a.show_id - b.show_id);
  showTags.sort((a, b) => a.tag_id - b.tag_id || a.show_id - b.show_id);

  return {
    categories: CATEGORIES.map((c) => ({ ...c })),
    tags: TAGS.map((t) => ({ ...t })),
    shows,
    showCategories,
    showTags,
    videos,
    galleries,
  };
}

/** Adds a search category when it does not contradict what the show already is. */
function joinSearch(d: Draft, cat: number): boolean {
  if (d.search.length >= 3 || d.search.includes(cat)) return false;
  if (!canHaveSearch(d, cat)) return false;
  d.search.push(cat);
  return true;
}

function canHaveSearch(d: Draft, cat: number): boolean {
  if ((HAIR_CATEGORIES as readonly number[]).includes(cat)) {
    return !d.search.some((c) => (HAIR_CATEGORIES as readonly number[]).includes(c));
  }
  if ((BODY_CATEGORIES as readonly number[]).includes(cat)) {
    return !d.search.some((c) => (BODY_CATEGORIES as readonly number[]).includes(c));
  }
  if (cat === 1001) return d.age >= 30;
  if (cat === 1013) return d.languages.includes('de');
  if (cat === 1024) return d.features.has('hd');
  return true;
}

const MIN_SHOWS_PER_CATEGORY = 12;
const MIN_ONLINE_PER_CATEGORY = 3;

function isMember(d: Draft, cat: number): boolean {
  if (cat === TOY_CATEGORY_ID) return d.features.has('toy');
  return cat >= 1001 ? d.search.includes(cat) : d.normal.includes(cat);
}

function tryJoin(d: Draft, cat: number): boolean {
  if (isMember(d, cat)) return false;
  if (cat === TOY_CATEGORY_ID) {
    d.features.add('toy');
    return true;
  }
  if (cat >= 1001) return joinSearch(d, cat);
  // Couples are defined by their name, so nobody can be moved into that category.
  if (cat === COUPLES || d.normal.length >= 3) return false;
  d.normal.push(cat);
  return true;
}

function ensureCategory(cat: number, order: readonly Draft[], drafts: readonly Draft[]): void {
  const members = () => drafts.filter((d) => isMember(d, cat));
  while (members().filter((d) => d.online).length < MIN_ONLINE_PER_CATEGORY) {
    const joined = order.some((d) => d.online && tryJoin(d, cat));
    if (!joined) {
      const offline = members().find((d) => !d.online);
      if (!offline) throw new Error(`demo data: cannot fill category ${cat}`);
      offline.online = true;
    }
  }
  while (members().length < MIN_SHOWS_PER_CATEGORY) {
    if (!order.some((d) => !d.online && tryJoin(d, cat)) && !order.some((d) => tryJoin(d, cat))) {
      throw new Error(`demo data: cannot fill category ${cat}`);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// SQL output

type Columns<T> = readonly (keyof T & string)[];
// Fails to compile when a row interface gains a column that the INSERT would silently drop.
type Complete<T, C extends Columns<T>> = [Exclude<keyof T, C[number]>] extends [never] ? C : never;

function columns<T>() {
  return <const C extends Columns<T>>(cols: Complete<T, C>): C => cols;
}

const TABLES = [
  { key: 'categories', table: 'categories', columns: columns<CategoryRow>()(['id', 'slug', 'slug_description', 'name_en', 'name_de', 'is_search', 'position']) },
  { key: 'tags', table: 'tags', columns: columns<TagRow>()(['id', 'slug', 'name_en', 'name_de']) },
  {
    key: 'shows',
    table: 'shows',
    columns: columns<ShowRow>()([
      'id', 'universal_id', 'contentprovider_id', 'name', 'slug_name', 'age', 'languages', 'city', 'city_en', 'country', 'lat', 'lon',
      'price_per_minute', 'price_factor_exclusive', 'flag_free', 'flag_exclusive', 'features', 'rating', 'preview_count',
      'palette', 'ribbon', 'slogan_en', 'slogan_de', 'description_en', 'description_de', 'online', 'online_since',
      'sort_rank', 'created_at',
    ]),
  },
  { key: 'showCategories', table: 'show_categories', columns: columns<ShowCategoryRow>()(['category_id', 'show_id']) },
  { key: 'showTags', table: 'show_tags', columns: columns<ShowTagRow>()(['tag_id', 'show_id']) },
  {
    key: 'videos',
    table: 'videos',
    columns: columns<VideoRow>()(['id', 'ccid', 'show_id', 'title_en', 'title_de', 'duration_s', 'parts', 'price', 'rating', 'palette', 'created_at']),
  },
  {
    key: 'galleries',
    table: 'galleries',
    columns: columns<GalleryRow>()(['id', 'show_id', 'title_en', 'title_de', 'picture_count', 'price', 'rating', 'palette', 'created_at']),
  },
] as const satisfies readonly { key: keyof DemoData; table: string; columns: readonly string[] }[];

function rowValues(row: object, cols: readonly string[]): SqlValue[] {
  const record = row as Record<string, unknown>;
  return cols.map((c) => {
    const v = record[c];
    if (v === null || v === undefined) return null;
    if (typeof v === 'string' || typeof v === 'number') return v;
    throw new Error(`demo data: unsupported value in column ${c}`);
  });
}

/** One parameterised INSERT per row, in foreign-key order, for `db.batch()`. */
export function seedStatements(data: DemoData): { sql: string; params: SqlValue[] }[] {
  const out: { sql: string; params: SqlValue[] }[] = [];
  for (const spec of TABLES) {
    const sql = `INSERT INTO ${spec.table} (${spec.columns.join(', ')}) VALUES (${spec.columns.map(() => '?').join(', ')})`;
    for (const row of data[spec.key]) out.push({ sql, params: rowValues(row, spec.columns) });
  }
  return out;
}

export function sqlLiteral(value: SqlValue): string {
  if (value === null) return 'NULL';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error('demo data: non-finite number');
    return String(value);
  }
  return `'${value.replace(/'/g, "''")}'`;
}

function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c < 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

// D1 caps a statement at 100 KB; stay well below so escaping surprises cannot tip it over.
const MAX_STATEMENT_BYTES = 80_000;
const MAX_ROWS_PER_STATEMENT = 400;

/** The same rows as a plain SQL script for `wrangler d1 execute --file` (no transaction: wrangler rejects BEGIN/COMMIT). */
export function toSqlScript(data: DemoData): string {
  const statements: string[] = [];
  for (const spec of TABLES) {
    const head = `INSERT INTO ${spec.table} (${spec.columns.join(', ')}) VALUES\n`;
    let rows: string[] = [];
    let bytes = utf8Length(head);
    const flush = () => {
      if (rows.length) statements.push(`${head}${rows.join(',\n')};`);
      rows = [];
      bytes = utf8Length(head);
    };
    for (const row of data[spec.key]) {
      const tuple = `(${rowValues(row, spec.columns).map(sqlLiteral).join(', ')})`;
      const size = utf8Length(tuple) + 2;
      if (rows.length && (bytes + size > MAX_STATEMENT_BYTES || rows.length >= MAX_ROWS_PER_STATEMENT)) flush();
      rows.push(tuple);
      bytes += size;
    }
    flush();
  }
  return `-- Generated by src/server/seed/demo-data.ts; do not edit by hand.\n${statements.join('\n')}\n`;
}
