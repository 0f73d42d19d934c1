import { BODY_CATEGORIES, COUPLES, HAIR_CATEGORIES, TOY_CATEGORY_ID } from './words-catalogue';
import type { Draft } from './drafts';

export function joinSearch(d: Draft, cat: number): boolean {
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

export function ensureCategory(cat: number, order: readonly Draft[], drafts: readonly Draft[]): void {
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
