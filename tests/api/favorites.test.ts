import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { Favorite, FavoritesAnswer } from '../../src/shared/favorites';
import { parseEvent } from '../../src/shared/realtime';
import type { ShowDetail, ShowSummary } from '../../src/shared/shows';
import { mailsTo, type Member, registerMember } from './account-helpers';
import { Client, expectError, expectJson, OPS, req, uniqueIp, websocket } from './helpers';

// Issue 14, favourites: the calls of the spec, windows validated server-side, every id parameter
// scoped to the asking member, and the "went online" notice once per show and window.

const SLOW = 60_000;
const setOnline = (id: number, online: boolean) => req(`/api/ops/shows/${id}/status`, { method: 'POST', headers: OPS, body: JSON.stringify({ online }) });

let nextShow = 60;
/** A show of its own per test (the notices are per member and show, but lists are shared). */
const freshShow = () => nextShow++;

/** The current UTC minute of the day, and a 30-minute window (steps of 15) holding it or not. */
function windowAround(inside: boolean): { info_start: number; info_end: number } {
  const now = new Date();
  const minute = now.getUTCHours() * 60 + now.getUTCMinutes();
  const base = Math.floor(minute / 15) * 15;
  const start = inside ? base : (base + 60) % 1440;
  return { info_start: start, info_end: (start + 30) % 1440 };
}

async function favMails(m: Member): Promise<number> {
  return (await mailsTo(m.email)).filter((x) => x.kind === 'favorite').length;
}

describe('favourites: the calls', () => {
  it('creates, reads, lists, updates and deletes a favourite (id = the show id)', async () => {
    const m = await registerMember();
    const show = freshShow();
    const created = await expectJson<Favorite>(await m.client.post(`/api/favorites/${show}`), 201);
    const row = await env.DB.prepare('SELECT universal_id, contentprovider_id, name, slug_name, online FROM shows WHERE id = ?').bind(show).first<{ universal_id: string; contentprovider_id: number; name: string; slug_name: string; online: number }>();
    expect(created).toEqual({
      id: show,
      universalId: row!.universal_id,
      show_id: show,
      contentprovider_id: row!.contentprovider_id,
      name: row!.name,
      slugName: row!.slug_name,
      online: row!.online === 1,
      info_type: null,
      info_start: null,
      info_end: null,
    });
    // A second create is no error: the same favourite, 200.
    expect(await expectJson<Favorite>(await m.client.post(`/api/favorites/${show}`), 200)).toEqual(created);
    expect(await expectJson<Favorite>(await m.client.get(`/api/favorites/${show}`), 200)).toEqual(created);
    const list = await expectJson<FavoritesAnswer>(await m.client.get('/api/user/favorites'), 200);
    expect(list.data.map((f) => f.id)).toEqual([show]);
    expect(list.online).toBe(created.online ? 1 : 0);

    const daily = await expectJson<Favorite>(await m.client.put(`/api/favorites/${show}`, { id: show, info_start: 0, info_end: 0 }), 200);
    expect([daily.info_type, daily.info_start, daily.info_end]).toEqual(['daily', 0, 0]);
    const span = await expectJson<Favorite>(await m.client.put(`/api/favorites/${show}`, { id: show, info_start: 1320, info_end: 120 }), 200);
    expect([span.info_type, span.info_start, span.info_end]).toEqual(['timespan', 1320, 120]);
    const off = await expectJson<Favorite>(await m.client.put(`/api/favorites/${show}`, { id: show, info_start: null, info_end: null }), 200);
    expect([off.info_type, off.info_start, off.info_end]).toEqual([null, null, null]);

    expect(await expectJson(await m.client.del(`/api/favorites/${show}`), 200)).toEqual({ ok: true });
    await expectError(await m.client.get(`/api/favorites/${show}`), 404, 'not_found');
    await expectError(await m.client.del(`/api/favorites/${show}`), 404, 'not_found');
    expect((await expectJson<FavoritesAnswer>(await m.client.get('/api/user/favorites'), 200)).data).toEqual([]);
  });

  it('marks isFavorite in the show lists, the show and search for that member only', async () => {
    const m = await registerMember();
    const other = await registerMember();
    await expectJson(await m.client.post('/api/favorites/1'), 201);
    await expectJson(await m.client.post('/api/favorites/3'), 201);
    const list = await expectJson<{ data: ShowSummary[] }>(await m.client.get('/api/shows?limit=36'), 200);
    const marked = list.data.filter((s) => s.isFavorite).map((s) => s.id).sort((a, b) => a - b);
    const listed = list.data.map((s) => s.id).filter((id) => id === 1 || id === 3).sort((a, b) => a - b);
    expect(marked).toEqual(listed);
    expect((await expectJson<ShowDetail>(await m.client.get('/api/shows/1'), 200)).isFavorite).toBe(true);
    expect((await expectJson<ShowDetail>(await m.client.get('/api/shows/2'), 200)).isFavorite).toBe(false);
    const search = await expectJson<{ data: ShowSummary[] }>(await m.client.get('/api/search/shows?limit=36'), 200);
    expect(search.data.filter((s) => s.isFavorite).length).toBe(search.data.filter((s) => s.id === 1 || s.id === 3).length);
    // Another member and a visitor see none of them (the cached list is everyone's).
    expect((await expectJson<{ data: ShowSummary[] }>(await other.client.get('/api/shows?limit=36'), 200)).data.some((s) => s.isFavorite)).toBe(false);
    expect((await expectJson<ShowDetail>(await other.client.get('/api/shows/1'), 200)).isFavorite).toBe(false);
    expect((await expectJson<{ data: ShowSummary[] }>(await new Client().get('/api/shows?limit=36'), 200)).data.some((s) => s.isFavorite)).toBe(false);
  });

  it('renders the hearts of the member\'s favourites pressed on the home page, and the profile tab lists them', async () => {
    const m = await registerMember({ verified: true });
    const first = (await expectJson<{ data: ShowSummary[] }>(await m.client.get('/api/shows'), 200)).data[0];
    await expectJson(await m.client.post(`/api/favorites/${first.id}`), 201);
    const home = await (await m.client.get('/')).text();
    expect(home).toMatch(new RegExp(`<button[^>]*aria-pressed="true"[^>]*data-testid="favorite-button" data-show-id="${first.id}"`));
    const pressed = [...home.matchAll(/<button[^>]*aria-pressed="true"[^>]*data-testid="favorite-button" data-show-id="(\d+)"/g)].map((x) => Number(x[1]));
    expect(new Set(pressed)).toEqual(new Set([first.id]));
    const profile = await (await m.client.get('/users/profile/favorites')).text();
    expect(profile).toMatch(new RegExp(`class="fav-item" data-show-id="${first.id}"`));
    // A visitor's tiles carry no heart at all.
    expect(await (await new Client().get('/')).text()).not.toContain('data-testid="favorite-button"');
  });

  it('needs a login (401) and the CSRF token (419)', async () => {
    const v = new Client();
    await expectError(await v.get('/api/user/favorites'), 401, 'unauthenticated');
    await expectError(await v.post('/api/favorites/1'), 401, 'unauthenticated');
    const m = await registerMember();
    await expectError(await m.client.post('/api/favorites/1', undefined, { csrf: false }), 419, 'csrf_token_mismatch');
    expect((await expectJson<FavoritesAnswer>(await m.client.get('/api/user/favorites'), 200)).data).toEqual([]);
  });
});

describe('favourites: validation', () => {
  it('refuses minutes off the 15-step, a missing time, equal times and a wrong body id with 422, changing nothing', async () => {
    const m = await registerMember();
    const show = freshShow();
    await expectJson(await m.client.post(`/api/favorites/${show}`), 201);
    const put = (body: unknown) => m.client.put(`/api/favorites/${show}`, body);
    await expectError(await put({ id: show, info_start: 10, info_end: 60 }), 422, 'validation_failed', ['info_start', 'favorites.time_step']);
    await expectError(await put({ id: show, info_start: 60, info_end: 1440 }), 422, 'validation_failed', ['info_end', 'favorites.time_step']);
    await expectError(await put({ id: show, info_start: -15, info_end: 60 }), 422, 'validation_failed', ['info_start', 'favorites.time_step']);
    await expectError(await put({ id: show, info_start: '60', info_end: 120 }), 422, 'validation_failed', ['info_start', 'favorites.time_step']);
    await expectError(await put({ id: show, info_start: 60, info_end: null }), 422, 'validation_failed', ['info_end', 'favorites.time_required']);
    await expectError(await put({ id: show, info_end: 60 }), 422, 'validation_failed', ['info_start', 'favorites.time_required']);
    await expectError(await put({ id: show, info_start: 60, info_end: 60 }), 422, 'validation_failed', ['info_end', 'favorites.time_same']);
    await expectError(await put({ id: show + 1, info_start: 0, info_end: 0 }), 422, 'validation_failed', ['id', 'favorites.id_mismatch']);
    await expectError(await put({ info_start: 0, info_end: 0 }), 422, 'validation_failed', ['id', 'favorites.id_mismatch']);
    await expectError(await m.client.put(`/api/favorites/${show}`, 'not json'), 422, 'invalid_body');
    await expectError(await m.client.put(`/api/favorites/${show}`, '[1]'), 422, 'invalid_body');
    // A create with a bad window and one of a show that does not exist: 422, the first error to show.
    await expectError(await m.client.post(`/api/favorites/${show + 1}`, { info_start: 7, info_end: 30 }), 422, 'validation_failed', ['info_start', 'favorites.time_step']);
    await expectError(await m.client.post('/api/favorites/999999'), 422, 'validation_failed', ['id', 'favorites.unknown_show']);
    const fav = await expectJson<Favorite>(await m.client.get(`/api/favorites/${show}`), 200);
    expect([fav.info_type, fav.info_start, fav.info_end]).toEqual([null, null, null]);
    expect((await expectJson<FavoritesAnswer>(await m.client.get('/api/user/favorites'), 200)).data).toHaveLength(1);
  });

  it('answers hostile ids and bodies with 4xx, never a 5xx', async () => {
    const m = await registerMember();
    const ids = ['abc', '-1', '0', '1e3', '99999999999999', '%00', "1'%20OR%201=1", '..%2F..', '1.5', 'null'];
    for (const id of ids) {
      for (const res of [await m.client.get(`/api/favorites/${id}`), await m.client.post(`/api/favorites/${id}`), await m.client.put(`/api/favorites/${id}`, { id, info_start: 0, info_end: 0 }), await m.client.del(`/api/favorites/${id}`)]) {
        expect(res.status, `${id} -> ${res.status}`).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
      }
    }
    for (const body of [{ id: 1, info_start: 1e308, info_end: 0 }, { id: 1, info_start: { $gt: 0 }, info_end: [] }, { id: 1, info_start: true, info_end: 'x'.repeat(1000) }]) {
      const res = await m.client.put('/api/favorites/1', body);
      expect(res.status).toBe(422);
    }
    // Fields the spec does not know are refused, nothing stored.
    await expectError(await m.client.post('/api/favorites/1', { info_start: null, info_end: null, user_id: 1 }), 422, 'validation_failed', ['user_id', 'unknown_field']);
    expect((await expectJson<FavoritesAnswer>(await m.client.get('/api/user/favorites'), 200)).data).toEqual([]);
  });
});

describe('favourites: one member never reads or changes another member\'s (IDOR)', () => {
  it('GET, PUT and DELETE favorites/{id} act only on the asking member; the list is only their own', async () => {
    const owner = await registerMember();
    const intruder = await registerMember();
    const show = freshShow();
    await expectJson(await owner.client.post(`/api/favorites/${show}`, { info_start: 0, info_end: 0 }), 201);
    await expectError(await intruder.client.get(`/api/favorites/${show}`), 404, 'not_found');
    await expectError(await intruder.client.put(`/api/favorites/${show}`, { id: show, info_start: null, info_end: null }), 404, 'not_found');
    await expectError(await intruder.client.del(`/api/favorites/${show}`), 404, 'not_found');
    expect((await expectJson<FavoritesAnswer>(await intruder.client.get('/api/user/favorites'), 200)).data).toEqual([]);
    // The intruder favouring the same show makes their own row; the owner's stays as it was.
    await expectJson(await intruder.client.post(`/api/favorites/${show}`), 201);
    await expectJson(await intruder.client.del(`/api/favorites/${show}`), 200);
    const fav = await expectJson<Favorite>(await owner.client.get(`/api/favorites/${show}`), 200);
    expect([fav.info_type, fav.info_start, fav.info_end]).toEqual(['daily', 0, 0]);
  });
});

describe('favourites: going online tells the member once per window', () => {
  it('a show going online inside the timespan sends user:favorite_online to the member\'s open tab and one mail; outside it nothing', { timeout: SLOW }, async () => {
    const inside = await registerMember();
    const outside = await registerMember();
    const off = await registerMember();
    const show = freshShow();
    await setOnline(show, false);
    await expectJson(await inside.client.post(`/api/favorites/${show}`, windowAround(true)), 201);
    await expectJson(await outside.client.post(`/api/favorites/${show}`, windowAround(false)), 201);
    await expectJson(await off.client.post(`/api/favorites/${show}`), 201);

    const res = await websocket('/api/realtime', { Cookie: inside.client.cookieHeader, 'CF-Connecting-IP': uniqueIp() });
    expect(res.status).toBe(101);
    const ws = res.webSocket!;
    ws.accept();
    const told = new Promise<unknown>((resolve) =>
      ws.addEventListener('message', (m) => {
        const e = parseEvent(m.data);
        if (e && (e.type as string) === 'user:favorite_online') resolve(e);
      }),
    );
    await new Promise((r) => setTimeout(r, 200));
    expect((await setOnline(show, true)).status).toBe(200);
    const name = (await env.DB.prepare('SELECT name, slug_name FROM shows WHERE id = ?').bind(show).first<{ name: string; slug_name: string }>())!;
    expect(await told).toEqual({ type: 'user:favorite_online', showId: show, name: name.name, slugName: name.slug_name });
    ws.close();

    const mails = (await mailsTo(inside.email)).filter((x) => x.kind === 'favorite');
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toContain(name.name);
    expect(mails[0].text).toContain(`/chat/${show}/${name.slug_name}`);
    expect(await favMails(outside)).toBe(0);
    expect(await favMails(off)).toBe(0);
    // Off and on again inside the same window: no second mail.
    await setOnline(show, false);
    await setOnline(show, true);
    expect(await favMails(inside)).toBe(1);
  });

  it('mails exactly once under 100 parallel "go online" events (the notice row is the reservation)', { timeout: SLOW }, async () => {
    const a = await registerMember();
    const b = await registerMember();
    const show = freshShow();
    await setOnline(show, false);
    await expectJson(await a.client.post(`/api/favorites/${show}`, { info_start: 0, info_end: 0 }), 201);
    await expectJson(await b.client.post(`/api/favorites/${show}`, windowAround(true)), 201);
    const answers = await Promise.all(Array.from({ length: 100 }, () => setOnline(show, true)));
    expect(answers.map((r) => r.status)).toEqual(Array(100).fill(200));
    expect(await favMails(a)).toBe(1);
    expect(await favMails(b)).toBe(1);
    const notices = await env.DB.prepare('SELECT COUNT(*) AS n FROM favorite_notices WHERE show_id = ?').bind(show).first<{ n: number }>();
    expect(notices!.n).toBe(2);
  });

  it('keeps the limit of favourites per member under a burst of 100 creates', { timeout: SLOW }, async () => {
    const m = await registerMember();
    await m.client.csrf();
    const { FAVORITES_MAX } = await import('../../src/shared/favorites');
    const now = Math.floor(Date.now() / 1000);
    // Fill up to 20 below the limit directly, then race 100 creates of different shows.
    await env.DB.prepare('INSERT INTO favorites (user_id, show_id, created_at) SELECT ?, id, ? FROM shows ORDER BY id LIMIT ?').bind(m.id, now, FAVORITES_MAX - 20).run();
    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => m.client.post(`/api/favorites/${FAVORITES_MAX - 20 + 1 + i}`)));
    expect(answers.filter((r) => r.status === 201)).toHaveLength(20);
    expect(answers.filter((r) => r.status === 422)).toHaveLength(80);
    const n = await env.DB.prepare('SELECT COUNT(*) AS n FROM favorites WHERE user_id = ?').bind(m.id).first<{ n: number }>();
    expect(n!.n).toBe(FAVORITES_MAX);
  });
});
