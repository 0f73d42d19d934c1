import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { HISTORY_MAX, type HistoryAnswer } from '../../src/shared/favorites';
import { registerMember } from './account-helpers';
import { Client, expectError, expectJson } from './helpers';

// Issue 14, history: POST user/history/{showId} when a member opens a show page, newest first,
// capped per member atomically, clearable, and only ever the member's own.

const SLOW = 60_000;

describe('history', () => {
  it('lists visited shows newest first; a repeat visit moves the show to the top; clear empties it', async () => {
    const m = await registerMember();
    for (const id of [5, 6, 7, 5]) expect(await expectJson(await m.client.post(`/api/user/history/${id}`), 200)).toEqual({ ok: true });
    const list = await expectJson<HistoryAnswer>(await m.client.get('/api/user/history'), 200);
    expect(list.data.map((h) => h.id)).toEqual([5, 7, 6]);
    const show = (await env.DB.prepare('SELECT universal_id, name, slug_name, online FROM shows WHERE id = 5').first<{ universal_id: string; name: string; slug_name: string; online: number }>())!;
    expect(list.data[0]).toMatchObject({ id: 5, universalId: show.universal_id, name: show.name, slugName: show.slug_name, online: show.online === 1 });
    expect(await expectJson(await m.client.del('/api/user/history'), 200)).toEqual({ ok: true, deleted: 3 });
    expect((await expectJson<HistoryAnswer>(await m.client.get('/api/user/history'), 200)).data).toEqual([]);
  });

  it('keeps at most HISTORY_MAX entries under 100 parallel visits of different shows, the newest ones', { timeout: SLOW }, async () => {
    const m = await registerMember();
    await m.client.csrf();
    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => m.client.post(`/api/user/history/${i + 1}`)));
    expect(answers.map((r) => r.status)).toEqual(Array(100).fill(200));
    const n = await env.DB.prepare('SELECT COUNT(*) AS n FROM user_history WHERE user_id = ?').bind(m.id).first<{ n: number }>();
    expect(n!.n).toBe(HISTORY_MAX);
    const list = await expectJson<HistoryAnswer>(await m.client.get('/api/user/history'), 200);
    expect(list.data).toHaveLength(HISTORY_MAX);
    // The kept ones are the last HISTORY_MAX that were written (highest seq), listed newest first.
    const seqs = await env.DB.prepare('SELECT show_id FROM user_history WHERE user_id = ? ORDER BY seq DESC').bind(m.id).all<{ show_id: number }>();
    expect(list.data.map((h) => h.id)).toEqual(seqs.results.map((r) => r.show_id));
  });

  it('is per member: another member neither sees nor clears it (IDOR), and a visitor gets 401', async () => {
    const a = await registerMember();
    const b = await registerMember();
    await expectJson(await a.client.post('/api/user/history/9'), 200);
    expect((await expectJson<HistoryAnswer>(await b.client.get('/api/user/history'), 200)).data).toEqual([]);
    expect(await expectJson(await b.client.del('/api/user/history'), 200)).toEqual({ ok: true, deleted: 0 });
    expect((await expectJson<HistoryAnswer>(await a.client.get('/api/user/history'), 200)).data.map((h) => h.id)).toEqual([9]);
    const v = new Client();
    await expectError(await v.get('/api/user/history'), 401, 'unauthenticated');
    await expectError(await v.post('/api/user/history/9'), 401, 'unauthenticated');
    await expectError(await a.client.post('/api/user/history/9', undefined, { csrf: false }), 419, 'csrf_token_mismatch');
  });

  it('answers unknown and hostile show ids with 404 and any body with 422, never a 5xx, writing nothing', async () => {
    const m = await registerMember();
    for (const id of ['999999', 'abc', '-1', '0', '1e3', '99999999999999', '%00', "1'%20OR%201=1", '1.5']) {
      await expectError(await m.client.post(`/api/user/history/${id}`), 404, 'not_found');
    }
    // The call has no body: one is refused and records nothing.
    await expectError(await m.client.post('/api/user/history/1', { user_id: 1 }), 422, 'invalid_body');
    expect((await expectJson<HistoryAnswer>(await m.client.get('/api/user/history'), 200)).data).toEqual([]);
    // What the page sends (`{}`) and no body at all are the call itself.
    await expectJson(await m.client.post('/api/user/history/2', {}), 200);
    await expectJson(await m.client.post('/api/user/history/2'), 200);
    await expectError(await m.client.fetch('/api/user/history', { method: 'DELETE', body: { all: true } }), 422, 'invalid_body');
    expect((await expectJson<HistoryAnswer>(await m.client.get('/api/user/history'), 200)).data.map((h) => h.id)).toEqual([2]);
  });
});
