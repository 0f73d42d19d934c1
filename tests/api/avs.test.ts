import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { makeState, resultSignature } from '../../src/server/features/avs/provider';
import { req } from './helpers';

// Age verification with the sandbox provider: /avs -> /avs/sandbox -> /avs/callback.

class Jar {
  readonly cookies = new Map<string, string>();
  get header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  take(res: Response): Response {
    const h = res.headers as Headers & { getSetCookie?: () => string[] };
    const list = typeof h.getSetCookie === 'function' ? h.getSetCookie() : [res.headers.get('Set-Cookie') ?? ''];
    for (const line of list) {
      const m = /^([^=;\s]+)=([^;]*)/.exec(line);
      if (!m) continue;
      if (/max-age=0/i.test(line) || m[2] === '') this.cookies.delete(m[1]);
      else this.cookies.set(m[1], m[2]);
    }
    return res;
  }
  async get(path: string): Promise<Response> {
    return this.take(await req(path, { headers: { Cookie: this.header }, redirect: 'manual' }));
  }
  async post(path: string, body: unknown): Promise<Response> {
    if (!this.cookies.has('XSRF-TOKEN')) await this.get('/api/auth/csrf-cookie');
    const token = decodeURIComponent(this.cookies.get('XSRF-TOKEN') ?? '');
    return this.take(
      await req(path, {
        method: 'POST',
        headers: { Cookie: this.header, 'Content-Type': 'application/json', 'X-XSRF-TOKEN': token, 'CF-Connecting-IP': '10.9.9.9' },
        body: JSON.stringify(body),
      }),
    );
  }
}

async function sessionId(jar: Jar): Promise<string> {
  const res = await jar.get('/api/session/init');
  const body = (await res.json()) as { session: { session_id: string } };
  return body.session.session_id;
}

async function agechecked(sid: string): Promise<number> {
  return (await env.DB.prepare('SELECT agechecked FROM sessions WHERE id = ?').bind(sid).first<{ agechecked: number }>())?.agechecked ?? -1;
}

const decode = (s: string) => s.replace(/&amp;/g, '&');

/** Follows /avs to the sandbox page and returns its Pass and Fail links. */
async function startCheck(jar: Jar, query: string): Promise<{ state: string; pass: string; fail: string; html: string }> {
  const start = await jar.get(`/avs?${query}`);
  expect(start.status).toBe(302);
  const to = new URL(start.headers.get('Location') ?? '', 'http://localhost');
  expect(to.pathname).toBe('/avs/sandbox');
  const state = to.searchParams.get('state') ?? '';
  expect(state).toMatch(/^avs1:/);
  const page = await jar.get(to.pathname + to.search);
  expect(page.status).toBe(200);
  const html = await page.text();
  const pass = decode(/href="([^"]+)"[^>]*data-action="avs-pass"/.exec(html)?.[1] ?? '');
  const fail = decode(/href="([^"]+)"[^>]*data-action="avs-fail"/.exec(html)?.[1] ?? '');
  expect(pass).toMatch(/^\/avs\/callback\?/);
  expect(fail).toMatch(/^\/avs\/callback\?/);
  return { state, pass, fail, html };
}

describe('age verification (sandbox provider)', () => {
  it('start -> sandbox -> pass sets the session and the member as checked and returns to the target', async () => {
    const jar = new Jar();
    await sessionId(jar);
    const login = await jar.post('/api/auth/login', { username: 'demo', password: 'demo-pass-2026' });
    expect(login.status).toBe(200);
    // The login rotated the session id.
    const sid = await sessionId(jar);
    await env.DB.prepare("UPDATE users SET age_verified = 0 WHERE name = 'demo'").run();

    const { pass, html } = await startCheck(jar, 'kjm=1&target=%2Fusers%2Fprofile%3Ftab%3D1');
    expect(html).toContain('data-action="avs-fail"');
    expect(await agechecked(sid)).toBe(0);

    const done = await jar.get(pass);
    expect(done.status).toBe(302);
    expect(done.headers.get('Location')).toBe('/users/profile?tab=1');
    expect(await agechecked(sid)).toBe(1);
    const user = await env.DB.prepare("SELECT age_verified FROM users WHERE name = 'demo'").first<{ age_verified: number }>();
    expect(user?.age_verified).toBe(1);
    const init = (await (await jar.get('/api/session/init')).json()) as { session: { agechecked: boolean }; user: { age_verified: boolean } };
    expect(init.session.agechecked).toBe(true);
    expect(init.user.age_verified).toBe(true);
  });

  it('a visitor passing sets only the session', async () => {
    const jar = new Jar();
    const sid = await sessionId(jar);
    const before = await env.DB.prepare('SELECT COUNT(*) AS n FROM users WHERE age_verified = 1').first<{ n: number }>();
    const { pass } = await startCheck(jar, 'kjm=0&target=%2F');
    const done = await jar.get(pass);
    expect(done.headers.get('Location')).toBe('/');
    expect(await agechecked(sid)).toBe(1);
    const after = await env.DB.prepare('SELECT COUNT(*) AS n FROM users WHERE age_verified = 1').first<{ n: number }>();
    expect(after?.n).toBe(before?.n);
  });

  it('creates the session when the visitor has none yet', async () => {
    const jar = new Jar();
    const start = await jar.get('/avs?kjm=0&target=%2Ffaq');
    expect(start.status).toBe(302);
    expect(jar.cookies.get('lc_sid')).toBeTruthy();
    const to = new URL(start.headers.get('Location') ?? '', 'http://localhost');
    const page = await jar.get(to.pathname + to.search);
    const pass = decode(/href="([^"]+)"[^>]*data-action="avs-pass"/.exec(await page.text())?.[1] ?? '');
    const done = await jar.get(pass);
    expect(done.headers.get('Location')).toBe('/faq');
  });

  it('fail changes nothing and leads to the failure page with a retry', async () => {
    const jar = new Jar();
    const sid = await sessionId(jar);
    const { fail } = await startCheck(jar, 'kjm=1&target=%2Fvideos');
    const res = await jar.get(fail);
    expect(res.status).toBe(302);
    const to = new URL(res.headers.get('Location') ?? '', 'http://localhost');
    expect(to.pathname).toBe('/avs');
    expect(to.searchParams.get('failed')).toBe('1');
    expect(to.searchParams.get('target')).toBe('/videos');
    expect(await agechecked(sid)).toBe(0);

    const page = await jar.get(to.pathname + to.search);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('data-action="avs-retry"');
    expect(decode(/href="([^"]+)"[^>]*data-action="avs-retry"/.exec(html)?.[1] ?? '')).toBe('/avs?kjm=1&target=%2Fvideos');
  });

  it('refuses a forged signature, a forged result and a tampered state (400, nothing changed)', async () => {
    const jar = new Jar();
    const sid = await sessionId(jar);
    const { state, fail } = await startCheck(jar, 'kjm=0&target=%2F');
    const failSig = new URL(fail, 'http://localhost').searchParams.get('sig') ?? '';
    const attempts = [
      `/avs/callback?${new URLSearchParams({ state, result: 'pass', sig: 'A'.repeat(43) })}`,
      // The fail link's signature does not make a pass.
      `/avs/callback?${new URLSearchParams({ state, result: 'pass', sig: failSig })}`,
      `/avs/callback?${new URLSearchParams({ state, result: 'maybe', sig: failSig })}`,
      `/avs/callback?${new URLSearchParams({ state, result: 'pass' })}`,
      `/avs/callback`,
    ];
    // A state signed with another secret, with a correct result signature over it.
    const otherState = `${state.slice(0, state.lastIndexOf('.'))}.${'B'.repeat(43)}`;
    attempts.push(`/avs/callback?${new URLSearchParams({ state: otherState, result: 'pass', sig: await resultSignature(env, otherState, 'pass') })}`);
    for (const path of attempts) {
      const res = await jar.get(path);
      expect(res.status, path).toBe(400);
      expect(res.headers.get('Location'), path).toBeNull();
    }
    expect(await agechecked(sid)).toBe(0);
    expect((await jar.get(`/avs/sandbox?state=${encodeURIComponent(otherState)}`)).status).toBe(400);
  });

  it('refuses an expired state', async () => {
    const jar = new Jar();
    const sid = await sessionId(jar);
    const state = await makeState(env, { sid, target: '/', exp: Math.floor(Date.now() / 1000) - 1, kjm: false });
    expect((await jar.get(`/avs/sandbox?state=${encodeURIComponent(state)}`)).status).toBe(400);
    const res = await jar.get(`/avs/callback?${new URLSearchParams({ state, result: 'pass', sig: await resultSignature(env, state, 'pass') })}`);
    expect(res.status).toBe(400);
    expect(await agechecked(sid)).toBe(0);
  });

  it('refuses a callback from another session', async () => {
    const owner = new Jar();
    const ownerSid = await sessionId(owner);
    const { pass } = await startCheck(owner, 'kjm=0&target=%2F');
    const other = new Jar();
    const otherSid = await sessionId(other);
    expect((await other.get(pass)).status).toBe(400);
    expect(await agechecked(ownerSid)).toBe(0);
    expect(await agechecked(otherSid)).toBe(0);
  });

  it('ignores absolute and protocol-relative targets (returns to /)', async () => {
    for (const target of ['https://evil.example/x', '//evil.example', '/\\evil.example', 'javascript:alert(1)']) {
      const jar = new Jar();
      await sessionId(jar);
      const { pass } = await startCheck(jar, new URLSearchParams({ kjm: '0', target }).toString());
      const done = await jar.get(pass);
      expect(done.status, target).toBe(302);
      expect(done.headers.get('Location'), target).toBe('/');
    }
  });
});

describe('dev mailbox outside development', () => {
  it('is a 404 page and a 404 JSON answer', async () => {
    const page = await req('/dev/mailbox');
    expect(page.status).toBe(404);
    expect(await page.text()).not.toContain('mailbox-table');
    expect((await req('/dev/mailbox/1')).status).toBe(404);
    const json = await req('/dev/mailbox.json');
    expect(json.status).toBe(404);
    expect(await json.json()).toEqual({ message: 'not_found' });
  });
});
