import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { z } from 'zod';
import { GEO_RULES_MAX, isGeoCode, parsePlace, type GeoPreviewAnswer, type GeoRulesAnswer } from '../../../shared/geo';
import type { AppEnv } from '../../env';
import { validationHook } from '../../lib/validation';
import { geoRulesOf, ruleFor, setGeoRules } from '../geo/geo.service';
import { requirePerformer } from './studio.routes';

const showOf = (u: { performer_show: number | null } | null): number => u?.performer_show ?? 0;

/** The whole set of rules (a save replaces it): countries and the regions we offer, nothing else. */
const rulesBody = z.object({
  codes: z
    .array(z.string({ message: 'geo_code_unknown' }).max(6, 'geo_code_unknown'), { message: 'geo_codes_invalid' })
    .max(GEO_RULES_MAX, 'geo_codes_too_many')
    .refine((codes) => codes.every(isGeoCode), 'geo_code_unknown'),
});
const previewQuery = z.object({
  place: z
    .string({ message: 'geo_place_unknown' })
    .max(6, 'geo_place_unknown')
    .refine((p) => isGeoCode(p.trim().toUpperCase()), 'geo_place_unknown'),
});

/** /api/studio/geo: the places the performer hides the show from (issue 30 point 3), and a preview. */
export const geoRoutes = new Hono<AppEnv>()
  .use(requirePerformer)
  .get('/', async (c) => c.json<GeoRulesAnswer>({ codes: await geoRulesOf(c.env.DB, showOf(c.get('user'))) }))
  .put('/', zValidator('json', rulesBody, validationHook), async (c) =>
    c.json<GeoRulesAnswer>({ codes: await setGeoRules(c.env.DB, showOf(c.get('user')), c.req.valid('json').codes) }),
  )
  // What a viewer in a place sees: the same rule the lists apply (a region's viewer is also in its country).
  .get('/preview', zValidator('query', previewQuery, validationHook), async (c) => {
    const code = c.req.valid('query').place.trim().toUpperCase();
    const by = ruleFor(await geoRulesOf(c.env.DB, showOf(c.get('user'))), parsePlace(code));
    return c.json<GeoPreviewAnswer>({ place: code, blocked: by !== null, by });
  });
