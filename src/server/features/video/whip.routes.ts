import { Hono, type Context } from 'hono';
import type { IceServer } from '../../../shared/video';
import type { AppEnv } from '../../env';
import { readCappedBody } from '../../lib/body';
import { ApiError } from '../../lib/errors';
import { perAddress, reserveOrThrow } from '../../lib/limits';
import { roomOf } from '../chat/chat.service';
import { clientIp } from '../session/session.service';
import { showOfStreamKey } from './stream-keys.service';
import { whipOfferProblem } from './whip-offer';

// OBS over WHIP (issue 28, RFC 9725): `POST /whip/{show}` with the show's stream key as a Bearer
// token and an SDP offer answers 201 with the SFU's answer and the resource's Location; `DELETE`
// on that resource ends it. Mounted outside /api: the body is SDP, not JSON, and an encoder sends
// no cookie or CSRF header (the key is its credential). Errors are the app's JSON
// `{ message: code }` with the status the RFC names; none of them changes anything.

/** POST and DELETE per client address and hour (RFC 9725 §7: rate-limit them); bad requests count too. */
export const WHIP_CALLS_PER_ADDRESS = 60;
/** Largest offer taken (a simulcast offer from a browser is about 8 KB). */
export const WHIP_OFFER_MAX = 16_000;

const HOUR = 3600;
const ENDPOINT_ALLOW = 'POST, OPTIONS';
const RESOURCE_ALLOW = 'DELETE, OPTIONS';

/** The show a request's Bearer key opens: 401 without a valid key, 403 for another show's key. */
async function authorize(c: Context<AppEnv>, show: number): Promise<void> {
  const m = /^Bearer ([\x21-\x7e]+)$/.exec(c.req.header('Authorization') ?? '');
  if (!m) throw new ApiError(401, 'whip.unauthorized', undefined, { 'WWW-Authenticate': 'Bearer realm="whip"' });
  const owner = await showOfStreamKey(c.env.DB, m[1]!);
  if (owner === null) throw new ApiError(401, 'whip.unauthorized', undefined, { 'WWW-Authenticate': 'Bearer realm="whip", error="invalid_token"' });
  if (owner !== show) throw new ApiError(403, 'whip.forbidden');
}

function showParam(c: Context<AppEnv>): number {
  const show = Number(c.req.param('show'));
  if (!Number.isSafeInteger(show) || show <= 0) throw new ApiError(404, 'not_found');
  return show;
}

const limit = (c: Context<AppEnv>) => reserveOrThrow(c, [{ key: `whip:ip:${clientIp(c)}`, limit: perAddress(c.env, WHIP_CALLS_PER_ADDRESS), windowSeconds: HOUR }]);

/** `Link` ice-server entries (RFC 9725 §4.4) for the TURN servers the room hands its publisher. */
function iceLinks(servers: IceServer[]): string | null {
  const links = servers.flatMap((s) =>
    s.urls.map((url) => {
      const creds = s.username && s.credential ? `; username="${s.username}"; credential="${s.credential}"; credential-type="password"` : '';
      return `<${url}>; rel="ice-server"${creds}`;
    }),
  );
  return links.length ? links.join(', ') : null;
}

export const whipRoutes = new Hono<AppEnv>()
  .use(async (c, next) => {
    await next();
    // A browser publisher on another origin may call with its key (no cookies are involved).
    c.res.headers.set('Access-Control-Allow-Origin', '*');
    c.res.headers.set('Access-Control-Expose-Headers', 'Location, ETag, Link, Accept-Post, WWW-Authenticate');
    c.res.headers.set('Cache-Control', 'no-store');
  })
  .options('/:show', (c) =>
    c.body(null, 204, { 'Accept-Post': 'application/sdp', Allow: ENDPOINT_ALLOW, 'Access-Control-Allow-Methods': ENDPOINT_ALLOW, 'Access-Control-Allow-Headers': 'Authorization, Content-Type, If-Match' }),
  )
  .options('/:show/:id', (c) => c.body(null, 204, { Allow: RESOURCE_ALLOW, 'Access-Control-Allow-Methods': RESOURCE_ALLOW, 'Access-Control-Allow-Headers': 'Authorization, Content-Type, If-Match' }))
  .post('/:show', async (c) => {
    const show = showParam(c);
    await limit(c);
    await authorize(c, show);
    if ((c.req.header('Content-Type') ?? '').split(';')[0]!.trim().toLowerCase() !== 'application/sdp') throw new ApiError(415, 'whip.content_type');
    // SDP is UTF-8 text (RFC 8866), read capped (a streamed body too).
    const sdp = new TextDecoder().decode(await readCappedBody(c.req.raw, WHIP_OFFER_MAX));
    const problem = whipOfferProblem(sdp);
    if (problem) throw new ApiError(problem.status, problem.code);
    const res = await roomOf(c.env, show).whipPublish(sdp);
    if (!res.ok) throw new ApiError(res.status, res.code);
    const headers: Record<string, string> = { 'Content-Type': 'application/sdp', Location: `/whip/${show}/${res.id}`, ETag: `"${res.id}"` };
    const link = iceLinks(res.iceServers);
    if (link) headers.Link = link;
    return c.body(res.answer, 201, headers);
  })
  .delete('/:show/:id', async (c) => {
    const show = showParam(c);
    await limit(c);
    await authorize(c, show);
    if (!(await roomOf(c.env, show).whipEnd(c.req.param('id')))) throw new ApiError(404, 'not_found');
    return c.body(null, 200);
  })
  // No trickle ICE and no ICE restart (RFC 9725 §4.3 makes PATCH optional): plain HTTP says which methods there are.
  .on(['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE'], '/:show', () => {
    throw new ApiError(405, 'method_not_allowed', undefined, { Allow: ENDPOINT_ALLOW });
  })
  .on(['GET', 'HEAD', 'PUT', 'PATCH', 'POST'], '/:show/:id', () => {
    throw new ApiError(405, 'method_not_allowed', undefined, { Allow: RESOURCE_ALLOW });
  });
