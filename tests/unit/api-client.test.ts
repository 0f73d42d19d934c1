// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiFailure, createApi } from '../../src/client/lib/api';
import { visitorSession } from '../../src/shared/session';
import { testStore } from './client-state';

type Call = { url: string; init: RequestInit };
let calls: Call[];
let respond: (url: string, init: RequestInit) => Response;

beforeEach(() => {
  calls = [];
  document.cookie = 'XSRF-TOKEN=; Max-Age=0; Path=/';
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    calls.push({ url, init });
    if (url === '/api/auth/csrf-cookie') {
      document.cookie = 'XSRF-TOKEN=tok123456789abcdef; Path=/';
      return new Response(null, { status: 204 });
    }
    return respond(url, init);
  });
});
afterEach(() => vi.unstubAllGlobals());

const member = { id: 1, name: 'demo', email: 'd@x', coins: 5, is_verified: true, age_verified: true, newsletter: false, nicknames: { data: [], current_nickname: null }, performer_show: null };
const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

describe('client API layer', () => {
  it('fetches the CSRF cookie before a write when missing and echoes it in X-XSRF-TOKEN', async () => {
    respond = () => json({ ok: true });
    const api = createApi(testStore(), () => undefined);
    await api.post('session/splash18');
    expect(calls.map((c) => c.url)).toEqual(['/api/auth/csrf-cookie', '/api/session/splash18']);
    expect((calls[1].init.headers as Record<string, string>)['X-XSRF-TOKEN']).toBe('tok123456789abcdef');
    await api.post('log', { entries: [] });
    expect(calls.filter((c) => c.url === '/api/auth/csrf-cookie')).toHaveLength(1);
  });

  it('concurrent writes share one CSRF cookie request', async () => {
    respond = () => json({ ok: true });
    const api = createApi(testStore(), () => undefined);
    await Promise.all([api.post('a'), api.post('b'), api.post('c')]);
    expect(calls.filter((c) => c.url === '/api/auth/csrf-cookie')).toHaveLength(1);
    for (const c of calls.filter((c) => c.url !== '/api/auth/csrf-cookie')) {
      expect((c.init.headers as Record<string, string>)['X-XSRF-TOKEN']).toBe('tok123456789abcdef');
    }
  });

  // Issue 9 point 8: login and logout rotate the CSRF token (the answer sets the cookie).
  it('after a login rotated the token, the next write sends the new cookie value', async () => {
    respond = (url) => {
      if (url === '/api/auth/login') document.cookie = 'XSRF-TOKEN=rotated0123456789abcdef; Path=/';
      return json({ ok: true });
    };
    const api = createApi(testStore(), () => undefined);
    await api.post('auth/login', { username: 'demo', password: 'x' });
    await api.post('session/welcome_shown');
    const last = calls[calls.length - 1];
    expect(last.url).toBe('/api/session/welcome_shown');
    expect((last.init.headers as Record<string, string>)['X-XSRF-TOKEN']).toBe('rotated0123456789abcdef');
  });

  it('a write refused with 419 fetches the token and goes again once; a second 419 fails', async () => {
    document.cookie = 'XSRF-TOKEN=stale0123456789abcdef; Path=/';
    let refusals = 1;
    respond = () => (refusals-- > 0 ? json({ message: 'csrf_token_mismatch' }, 419) : json({ ok: true }));
    const api = createApi(testStore(), () => undefined);
    expect(await api.post('session/welcome_shown')).toEqual({ ok: true });
    expect(calls.map((c) => c.url)).toEqual(['/api/session/welcome_shown', '/api/auth/csrf-cookie', '/api/session/welcome_shown']);
    expect((calls[0].init.headers as Record<string, string>)['X-XSRF-TOKEN']).toBe('stale0123456789abcdef');
    expect((calls[2].init.headers as Record<string, string>)['X-XSRF-TOKEN']).toBe('tok123456789abcdef');

    refusals = 2;
    await expect(api.post('session/welcome_shown')).rejects.toMatchObject({ status: 419, message: 'csrf_token_mismatch' });
  });

  it('does not fetch the CSRF cookie for reads', async () => {
    respond = () => json({});
    await createApi(testStore(), () => undefined).get('shows', { page: 2 });
    expect(calls.map((c) => c.url)).toEqual(['/api/shows?page=2']);
  });

  it('stores a valid server build from the header and ignores invalid ones', async () => {
    const store = testStore();
    const api = createApi(store, () => undefined);
    respond = () => json({}, 200, { 'X-Build': '0.2.0' });
    await api.get('x');
    expect(store.serverBuild).toBe('0.2.0');
    respond = () => json({}, 200, { 'X-Build': 'nonsense' });
    await api.get('x');
    expect(store.serverBuild).toBe('0.2.0');
  });

  it('applies session objects and user.coins from responses', async () => {
    const store = testStore({ user: member });
    respond = () => json({ session: visitorSession({ voicecall: true }), user: { coins: 42 } });
    await createApi(store, () => undefined).get('x');
    expect(store.session.voicecall).toBe(true);
    expect(store.user?.coins).toBe(42);
  });

  it('a 401 while logged in fetches the CSRF cookie and goes to /logout', async () => {
    const navigate = vi.fn();
    respond = () => json({ message: 'unauthenticated' }, 401);
    await expect(createApi(testStore({ user: member }), navigate).get('auth/user')).rejects.toBeInstanceOf(ApiFailure);
    expect(calls.map((c) => c.url)).toEqual(['/api/auth/user', '/api/auth/csrf-cookie']);
    expect(navigate).toHaveBeenCalledWith('/logout');
  });

  it('a 401 for a visitor only rejects', async () => {
    const navigate = vi.fn();
    respond = () => json({ message: 'unknown_credentials' }, 401);
    await expect(createApi(testStore(), navigate).get('auth/user')).rejects.toMatchObject({ status: 401, message: 'unknown_credentials' });
    expect(navigate).not.toHaveBeenCalled();
  });

  it('a 403 goes to /verify for not_verified, else home', async () => {
    const navigate = vi.fn();
    const api = createApi(testStore({ user: member }), navigate);
    respond = () => json({ message: 'not_verified' }, 403);
    await expect(api.get('x')).rejects.toBeInstanceOf(ApiFailure);
    respond = () => json({ message: 'forbidden' }, 403);
    await expect(api.get('x')).rejects.toBeInstanceOf(ApiFailure);
    expect(navigate.mock.calls).toEqual([['/verify'], ['/']]);
  });

  it('rejects with the field errors of a 422', async () => {
    respond = () => json({ message: 'validation_failed', errors: { email: ['required'] } }, 422);
    await expect(createApi(testStore(), () => undefined).post('register', {})).rejects.toMatchObject({
      status: 422,
      errors: { email: ['required'] },
    });
  });
});
