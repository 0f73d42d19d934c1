import { dispatch } from './account-helpers';

export const BASE = 'http://localhost';

/** A request to the worker (direct dispatch; see account-helpers.ts for why not exports.default). */
export function req(path: string, init: RequestInit = {}): Promise<Response> {
  return dispatch(new Request(`${BASE}${path}`, init));
}

/** A CSRF cookie and the matching header, as the client API layer sends them. */
export async function csrf(): Promise<{ cookie: string; headers: Record<string, string> }> {
  const res = await req('/api/auth/csrf-cookie');
  const token = /XSRF-TOKEN=([^;]+)/.exec(res.headers.get('Set-Cookie') ?? '')?.[1] ?? '';
  return { cookie: `XSRF-TOKEN=${token}`, headers: { Cookie: `XSRF-TOKEN=${token}`, 'X-XSRF-TOKEN': token } };
}
