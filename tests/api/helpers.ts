import { dispatch, setCookies } from './account-helpers';

export const BASE = 'http://localhost';

/** A request to the worker (direct dispatch; see account-helpers.ts for why not exports.default). */
export function req(path: string, init: RequestInit = {}): Promise<Response> {
  return dispatch(new Request(`${BASE}${path}`, init));
}

/**
 * A session cookie, its CSRF cookie and the matching header, as the client API layer sends them
 * (the token is bound to the session: it passes only together with that lc_sid).
 */
export async function csrf(): Promise<{ cookie: string; token: string; headers: Record<string, string> }> {
  const res = await req('/api/auth/csrf-cookie');
  const pairs = setCookies(res).map((l) => l.split(';')[0]);
  const token = pairs.find((p) => p.startsWith('XSRF-TOKEN='))?.slice('XSRF-TOKEN='.length) ?? '';
  const cookie = pairs.filter((p) => /^(lc_sid|XSRF-TOKEN)=/.test(p)).join('; ');
  return { cookie, token, headers: { Cookie: cookie, 'X-XSRF-TOKEN': token } };
}
