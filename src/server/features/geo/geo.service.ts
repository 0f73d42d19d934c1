import { placeCodes, parsePlace, type GeoPlace } from '../../../shared/geo';
import type { Bindings } from '../../env';
import { hiddenShowIds, replaceShowGeoCodes, showGeoCodes } from './geo.repo';

/** The development override (docs/geo-blocking.md): a header or a cookie naming the place, e.g. `DE` or `US-CA`. */
export const DEV_GEO_HEADER = 'X-Dev-Geo';
export const DEV_GEO_COOKIE = 'dev_geo';

/** The override is honoured only with DEV_GEO=1 outside production (never in wrangler.toml's vars). */
export function devGeoAllowed(env: Bindings): boolean {
  return env.DEV_GEO === '1' && env.ENVIRONMENT !== 'production';
}

function cookieValue(header: string | null, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return null;
}

/**
 * Where a request comes from: Cloudflare's `request.cf.country` and `regionCode` in production;
 * with the development override allowed, the X-Dev-Geo header or the dev_geo cookie instead.
 * Unknown (no cf, Tor's T1, XX): a place nothing is hidden from.
 */
export function requestPlace(env: Bindings, req: Request): GeoPlace {
  if (devGeoAllowed(env)) {
    const dev = req.headers.get(DEV_GEO_HEADER) ?? cookieValue(req.headers.get('Cookie'), DEV_GEO_COOKIE);
    if (dev) return parsePlace(dev);
  }
  const cf = (req as Request & { cf?: { country?: string; regionCode?: string } }).cf;
  return parsePlace(cf?.country ?? null, cf?.regionCode ?? null);
}

// Rules change seldom and every list asks: each isolate keeps the hidden set per place for a
// few seconds; a change in this isolate clears it at once (others catch up within HIDDEN_TTL_MS).
const HIDDEN_TTL_MS = 3_000;
const hiddenCache = new Map<string, { at: number; value: Promise<number[]> }>();

/** The ids of the shows hidden from a place, sorted (empty for an unknown place). */
export function hiddenShowsFor(db: D1Database, place: GeoPlace, now = Date.now()): Promise<number[]> {
  const codes = placeCodes(place);
  if (codes.length === 0) return Promise.resolve([]);
  const key = codes.join('|');
  const hit = hiddenCache.get(key);
  if (hit && now - hit.at < HIDDEN_TTL_MS) return hit.value;
  const value = hiddenShowIds(db, codes);
  if (hiddenCache.size > 512) hiddenCache.clear();
  hiddenCache.set(key, { at: now, value });
  value.catch(() => hiddenCache.delete(key));
  return value;
}

export const geoRulesOf = (db: D1Database, showId: number) => showGeoCodes(db, showId);

export async function setGeoRules(db: D1Database, showId: number, codes: string[]): Promise<string[]> {
  await replaceShowGeoCodes(db, showId, [...new Set(codes)].sort());
  hiddenCache.clear();
  return showGeoCodes(db, showId);
}

/** Whether rules hide a show from a place, and which rule does (the country's before the region's). */
export function ruleFor(codes: string[], place: GeoPlace): string | null {
  const rules = new Set(codes);
  return placeCodes(place).find((c) => rules.has(c)) ?? null;
}
