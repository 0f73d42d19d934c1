import type { CategoryRow, TagRow } from '../lib/tables';

// ---------------------------------------------------------------------------------------------
// Static catalogue

export const CATEGORIES: readonly CategoryRow[] = [
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

export const TOY_CATEGORY_ID = 20;
export const NEWCOMER = 1;
export const COUPLES = 2;
export const CHATTY = 6;
export const HAIR_CATEGORIES = [1051, 1052, 1053, 1054] as const;
export const BODY_CATEGORIES = [1002, 1003] as const;

export const TAGS: readonly TagRow[] = (
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

export const TAG_ID = new Map(TAGS.map((t) => [t.slug, t.id]));

// Tags that carry no structural meaning and can pad a show up to its tag count.
export const FILLER_TAGS = ['smile', 'humour', 'cooking', 'books', 'art', 'photography', 'fashion', 'movies', 'nature', 'coffee', 'pets', 'languages', 'karaoke'];

// German hobby nouns are chosen so they read correctly after "über"/"um" and standing alone.
export interface Hobby { tag: string; en: string; de: string; category?: number }
export const HOBBIES: readonly Hobby[] = [
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
export const CATEGORY_TAG: Record<number, string> = { 3: 'dancing', 4: 'cosplay', 5: 'fitness', 7: 'gaming', 8: 'music', 9: 'travel', 1062: 'tattoo', 1030: 'glasses' };

export const FIRST_NAMES = [
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
export const PARTNER_NAMES = ['Ben', 'Tom', 'Leo', 'Jonas', 'Finn', 'Paul', 'Luca', 'Noah', 'Elias', 'Max', 'Felix', 'Jan', 'Nico', 'Marco', 'Tim', 'David', 'Luis', 'Mats', 'Ole', 'Hugo'];
// Only used when a first name is already taken; cam platforms commonly use such nick suffixes.
export const NICK_SUFFIXES = ['Sky', 'Joy', 'Star', 'Rose', 'Sun', 'Moon', 'Blue', 'Lou', 'Bee', 'Pearl', 'Wave', 'Dream', 'Lux', 'Mae', 'Jade', 'Rain', 'Belle', 'Snow'];

export interface City { de: string; en: string; country: string; lat: number; lon: number; langs: readonly string[] }
export const CITIES: readonly City[] = [
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

export const LANGUAGE_ORDER = ['de', 'en', 'fr', 'es', 'it', 'pl', 'nl'] as const;
export const LANGUAGE_NAMES: Record<string, { en: string; de: string }> = {
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

export const FEATURE_ORDER = ['sound', 'toy', 'hd', 'cam2cam', 'phone', 'mobile'] as const;
