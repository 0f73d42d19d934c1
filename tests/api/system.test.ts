import { describe, expect, it } from 'vitest';
import { BUILD_ID } from '../../src/shared/build';
import { isSemver } from '../../src/shared/semver';
import { csrf, dispatch, req } from './helpers';

describe('server basics', () => {
  it('answers /version with the semver build id as plain text', async () => {
    const res = await req('/version');
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(isSemver(text)).toBe(true);
    expect(text).toBe(BUILD_ID);
  });

  it('puts the build id, a request id and security headers on every response', async () => {
    for (const path of ['/', '/version', '/api/nope', '/nope', '/favicon.svg', '/img/show/1/1.svg']) {
      const res = await req(path);
      expect(res.headers.get('X-Build'), path).toBe(BUILD_ID);
      expect(res.headers.get('X-Request-Id'), path).toMatch(/^[A-Za-z0-9-]{8,64}$/);
      expect(res.headers.get('X-Content-Type-Options'), path).toBe('nosniff');
      expect(res.headers.get('Referrer-Policy'), path).toBeTruthy();
    }
  });

  it('keeps a well-formed incoming request id and replaces a bad one', async () => {
    expect((await req('/version', { headers: { 'X-Request-Id': 'abc-12345678' } })).headers.get('X-Request-Id')).toBe('abc-12345678');
    expect((await req('/version', { headers: { 'X-Request-Id': 'bad id<>' } })).headers.get('X-Request-Id')).not.toBe('bad id<>');
  });

  it('sends a CSP whose nonce matches the inline scripts, frame-ancestors, and HSTS only on https', async () => {
    const res = await req('/');
    const policy = res.headers.get('Content-Security-Policy') ?? '';
    const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
    expect(nonce).toBeTruthy();
    expect(policy).toContain("frame-ancestors 'self'");
    const html = await res.text();
    expect(html).toContain(`nonce="${nonce}"`);
    expect(res.headers.get('Strict-Transport-Security')).toBeNull();
    const https = await dispatch(new Request('https://localhost/version'));
    expect(https.headers.get('Strict-Transport-Security')).toMatch(/max-age=\d+/);
  });

  it('answers unknown /api paths with the JSON error shape', async () => {
    const res = await req('/api/does/not/exist');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'not_found' });
  });

  it('refuses writes without the CSRF header (419) and accepts them with it', async () => {
    const missing = await req('/api/session/splash18', { method: 'POST' });
    expect(missing.status).toBe(419);
    expect(await missing.json()).toEqual({ message: 'csrf_token_mismatch' });

    const { headers } = await csrf();
    const wrong = await req('/api/session/splash18', { method: 'POST', headers: { ...headers, 'X-XSRF-TOKEN': 'x'.repeat(43) } });
    expect(wrong.status).toBe(419);

    const ok = await req('/api/session/splash18', { method: 'POST', headers });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('Set-Cookie')).toMatch(/splash18=1/);
    const body = (await ok.json()) as { session: { splash18_confirmed: boolean } };
    expect(body.session.splash18_confirmed).toBe(true);
  });

  it('records the age splash: GET session/splash18 reflects the confirmation', async () => {
    expect(await (await req('/api/session/splash18')).json()).toEqual({ splash18_confirmed: false });
    expect(await (await req('/api/session/splash18', { headers: { Cookie: 'splash18=1' } })).json()).toEqual({ splash18_confirmed: true });
  });

  it('accepts at most 10 client error log entries and validates them (422 with field errors)', async () => {
    const { headers } = await csrf();
    const entry = { created: Date.now(), message: 'boom', level: 1, userAgent: 'test', prevRoute: null, currentRoute: '/', objects: [] };
    const ok = await req('/api/log', { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify({ entries: [entry] }) });
    expect(ok.status).toBe(204);

    const tooMany = await req('/api/log', {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ entries: Array.from({ length: 11 }, () => entry) }),
    });
    expect(tooMany.status).toBe(422);
    const body = (await tooMany.json()) as { message: string; errors: Record<string, string[]> };
    expect(body.message).toBe('validation_failed');
    expect(Object.keys(body.errors)).toContain('entries');

    const broken = await req('/api/log', { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: '{"entries": [' });
    expect(broken.status).toBe(422);
  });
});
