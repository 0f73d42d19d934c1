// Geo-blocking (issue 30 point 3): a performer hides the show from countries (ISO 3166-1 alpha-2)
// and, for the US, Canada, the UK and Germany, from regions (ISO 3166-2, e.g. US-CA, DE-BY).

/** Every officially assigned ISO 3166-1 alpha-2 code. */
export const COUNTRY_CODES: readonly string[] = (
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ ' +
  'CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR ' +
  'GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP ' +
  'KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT ' +
  'MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW ' +
  'SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG ' +
  'UM US UY UZ VA VC VE VG VI VN VU WF YE YT ZA ZM ZW'
).split(' ');

/** The countries whose regions can be blocked, and their regions' ISO 3166-2 codes (GB: its four nations). */
export const REGION_CODES: Readonly<Record<string, readonly string[]>> = {
  US: (
    'AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA ' +
    'RI SC SD TN TX UT VT VA WA WV WI WY'
  )
    .split(' ')
    .map((r) => `US-${r}`),
  CA: 'AB BC MB NB NL NS NT NU ON PE QC SK YT'.split(' ').map((r) => `CA-${r}`),
  GB: 'ENG NIR SCT WLS'.split(' ').map((r) => `GB-${r}`),
  DE: 'BB BE BW BY HB HE HH MV NI NW RP SH SL SN ST TH'.split(' ').map((r) => `DE-${r}`),
};

const COUNTRIES = new Set(COUNTRY_CODES);
const REGIONS = new Set(Object.values(REGION_CODES).flat());

/** A rule's code: a country or a region we offer. */
export const isGeoCode = (code: string): boolean => COUNTRIES.has(code) || REGIONS.has(code);
export const isRegionCode = (code: string): boolean => REGIONS.has(code);

/** The most rules one show may hold (every country and every region fits). */
export const GEO_RULES_MAX = COUNTRY_CODES.length + REGIONS.size;

/** Where a request comes from: its country and, where known, its region (ISO 3166-2); null fields: unknown. */
export interface GeoPlace {
  country: string | null;
  region: string | null;
}

/** The codes a rule must name to hide a show from this place (its country, then its region). */
export function placeCodes(place: GeoPlace): string[] {
  return [place.country, place.region].filter((c): c is string => !!c);
}

/**
 * A place from a code such as `DE`, `US-CA` or Cloudflare's country and region code (`US` + `CA`).
 * Unknown codes give an unknown place (nothing is hidden from it).
 */
export function parsePlace(country: string | null | undefined, region?: string | null): GeoPlace {
  const cc = (country ?? '').trim().toUpperCase();
  const [c, r] = cc.includes('-') ? [cc.slice(0, cc.indexOf('-')), cc] : [cc, region ? `${cc}-${region.trim().toUpperCase()}` : null];
  if (!COUNTRIES.has(c)) return { country: null, region: null };
  return { country: c, region: r && REGIONS.has(r) && r.startsWith(`${c}-`) ? r : null };
}

/** The studio's answer: the show's rules. */
export interface GeoRulesAnswer {
  codes: string[];
}

/** The studio's preview: what a viewer in `place` sees of the show. */
export interface GeoPreviewAnswer {
  place: string;
  blocked: boolean;
  /** The rule that hides it (the country's or the region's code). */
  by: string | null;
}
