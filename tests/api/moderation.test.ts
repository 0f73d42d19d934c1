import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/app';
import type { LiveAnswer, ModerationQueueAnswer } from '../../src/shared/moderation';
import type { StudioUploadsAnswer } from '../../src/shared/uploads';
import { lastMail } from './account-helpers';
import { chatMember, joinRoom, ledgerRefs, liveShow, performerOf, sessionRow, showInfo, startOk } from './chat-helpers';
import { Client, expectError, expectJson } from './helpers';
import { approve, decide, uploadGallery, uploadVideo } from './moderation-helpers';
import { operator } from './operator-helpers';

// Issue 29 point 2 (show 179): uploads wait for an operator's review. Until approved an item is
// in no list, search or item route (taken from the app's route table) for visitors and members;
// its performer and operators find it. Approve publishes, reject keeps it with the reason its
// performer reads; both in the audit trail. Live shows: operators list them with their viewers
// and stop one with a reason (offline at once, paid sessions end with no further minute).

const SHOW = 179;
const PARAM = /:(\w+)(\{[^}]*\})?(\?)?/g;
const KNOWN = new Set(['id', 'showid', 'showId', 'galleryId', 'ccid', 'slug', 'part']);

/**
 * Every GET route that can show a video or gallery (the store, search, show pages and their APIs),
 * filled with the show and the items: `:id` is tried as the show, the video and the gallery.
 */
function itemRoutes(ids: { slug: string; video: number; ccid: string; gallery: number }): { route: string; url: string }[] {
  const out = new Map<string, string>();
  for (const r of createApp().routes) {
    if (r.method !== 'GET' || r.path.includes('*') || !/videos|galleries|search|chat|clip|pictures|freevideo/.test(r.path)) continue;
    if (/^\/(api\/studio|api\/operator|operator|media|img|users|api\/archive|api\/user|api\/chatroom|api\/chatsession|api\/videos\/image)(\/|$)/.test(r.path)) continue;
    const names = [...r.path.matchAll(PARAM)].map((m) => m[1]);
    if (names.some((n) => !KNOWN.has(n))) continue;
    for (const id of new Set(names.includes('id') ? [SHOW, ids.video, ids.gallery] : [0])) {
      const values: Record<string, string | number> = { id, showid: SHOW, showId: SHOW, galleryId: ids.gallery, ccid: ids.ccid, slug: ids.slug, part: 1 };
      const url = `${r.path.replace(PARAM, (_m, n: string) => String(values[n]))}?showid=${SHOW}`;
      out.set(url, r.path);
    }
  }
  return [...out].map(([url, route]) => ({ route, url }));
}

async function text(c: Client, url: string): Promise<{ status: number; body: string }> {
  const res = await c.get(url);
  return { status: res.status, body: await res.text() };
}

describe('moderation before publishing', () => {
  it('an upload waits for review: in no list, search or item route until approved; its performer and operators see it; decisions audited', async () => {
    const marker = `Modmark${crypto.randomUUID().slice(0, 8)}`;
    const p = await performerOf(SHOW);
    const { slug } = await showInfo(SHOW);
    const video = await uploadVideo(p, `${marker} clip`);
    const gallery = await uploadGallery(p, `${marker} set`);

    // The performer's studio: both complete and waiting.
    const mine = await expectJson<StudioUploadsAnswer>(await p.get('/api/studio/uploads'), 200);
    expect(mine.videos.find((v) => v.id === video.id)).toMatchObject({ status: 'published', review: 'pending', review_reason: null });
    expect(mine.galleries.find((g) => g.id === gallery.id)).toMatchObject({ status: 'published', review: 'pending', review_reason: null });

    const routes = itemRoutes({ slug, video: video.id, ccid: video.ccid, gallery: gallery.id });
    const paths = new Set(routes.map((r) => r.route));
    for (const known of ['/api/search/videos', '/api/search/galleries', '/api/search/all', '/api/videos/:id', '/api/galleries/:showId/:galleryId', '/videos/clip/:id/:part?', '/chat/:showid/:slug/galleries/:id', '/chat/:showid/:slug/videos', '/chat/:id/:slug?', '/videos', '/galleries']) {
      expect(paths, known).toContain(known);
    }
    const visitor = new Client();
    const member = (await chatMember(0)).client;
    for (const c of [visitor, member]) c.jar.set('splash18', '1');
    for (const { route, url } of routes) {
      for (const c of [visitor, member]) {
        const res = await text(c, url);
        expect(res.status, `${route}: ${url}`).toBeLessThan(500);
        expect(res.body.includes(marker), `${route}: ${url}`).toBe(false);
      }
    }
    // Buying and the files: not found for members.
    await expectError(await member.post(`/api/videos/buy/${video.ccid}/1`, {}), 404, 'not_found');
    for (const url of [`/media/videos/${video.id}/1/preview`, `/media/videos/${video.id}/poster`, `/media/galleries/${gallery.id}/1/thumb`]) {
      expect((await visitor.get(url)).status, url).toBe(404);
    }

    // Its performer finds the item's page and API answer (not in lists).
    p.jar.set('splash18', '1');
    expect((await text(p, `/videos/clip/${video.id}`)).body).toContain(marker);
    expect((await text(p, `/chat/${SHOW}/${slug}/galleries/${gallery.id}`)).body).toContain(marker);
    await expectJson(await p.get(`/api/videos/${video.id}`), 200);
    expect((await expectJson<{ data: { id: number }[] }>(await p.get(`/api/search/videos?showid=${SHOW}`), 200)).data.map((v) => v.id)).not.toContain(video.id);

    // Operators: the queue (oldest first), previews they may open, the page.
    const op = await operator();
    const queue = await expectJson<ModerationQueueAnswer>(await op.client.get('/api/operator/moderation'), 200);
    const mineQueued = queue.data.filter((q) => q.show_id === SHOW && q.title_en.startsWith(marker));
    expect(mineQueued.map((q) => `${q.kind}:${q.id}`).sort()).toEqual([`gallery:${gallery.id}`, `video:${video.id}`]);
    expect(queue.data.map((q) => q.created_at)).toEqual([...queue.data.map((q) => q.created_at)].sort((a, b) => a - b));
    for (const q of mineQueued) {
      const res = await op.client.get(q.preview_url);
      expect(res.status, q.preview_url).toBe(200);
      expect(res.headers.get('Cache-Control')).toContain('private');
      await res.arrayBuffer();
    }
    op.client.jar.set('splash18', '1');
    expect((await text(op.client, '/operator/moderation')).body).toContain(marker);
    expect((await text(op.client, `/videos/clip/${video.id}`)).status).toBe(200);

    // Decisions: a reject needs a reason; each one once; audited.
    await expectError(await decide(op, 'gallery', gallery.id, 'reject'), 422, 'validation_failed', ['reason', 'reason_required']);
    await expectError(await decide(op, 'gallery', gallery.id, 'reject', 'no'), 422, 'validation_failed', ['reason', 'reason_too_short']);
    await expectError(await op.client.post(`/api/operator/moderation/video/${video.id}`, { decision: 'maybe' }), 422, 'validation_failed');
    await approve(op, 'video', video.id);
    await expectError(await decide(op, 'video', video.id, 'reject', 'Changed my mind here'), 409, 'not_pending');
    const reason = 'The pictures show a third person without consent records.';
    await expectJson(await decide(op, 'gallery', gallery.id, 'reject', reason), 200);
    await expectError(await decide(op, 'gallery', 999_999_999, 'approve'), 409, 'not_pending');
    const audits = await env.DB.prepare("SELECT actor_id, action, target, reason FROM audit_log WHERE target IN (?, ?) AND action LIKE 'moderation.%' ORDER BY id")
      .bind(`video:${video.id}`, `gallery:${gallery.id}`)
      .all();
    expect(audits.results).toEqual([
      { actor_id: op.id, action: 'moderation.approved', target: `video:${video.id}`, reason: null },
      { actor_id: op.id, action: 'moderation.rejected', target: `gallery:${gallery.id}`, reason },
    ]);

    // Approved: in the store for everyone; rejected: still hidden, its performer reads why.
    const listed = await expectJson<{ data: { id: number }[] }>(await visitor.get(`/api/search/videos?showid=${SHOW}`), 200);
    expect(listed.data.map((v) => v.id)).toContain(video.id);
    expect((await text(member, `/chat/${SHOW}/${slug}/videos`)).body).toContain(marker);
    await expectJson(await visitor.get(`/api/videos/${video.ccid}`), 200);
    await expectError(await visitor.get(`/api/galleries/${SHOW}/${gallery.id}`), 404, 'not_found');
    expect((await text(member, `/chat/${SHOW}/${slug}/galleries`)).body.includes(marker)).toBe(false);
    const after = await expectJson<StudioUploadsAnswer>(await p.get('/api/studio/uploads'), 200);
    expect(after.videos.find((v) => v.id === video.id)).toMatchObject({ review: 'approved' });
    expect(after.galleries.find((g) => g.id === gallery.id)).toMatchObject({ review: 'rejected', review_reason: reason });
    expect((await expectJson<ModerationQueueAnswer>(await op.client.get('/api/operator/moderation'), 200)).data.some((q) => q.title_en.startsWith(marker))).toBe(false);
    // The show's performer is mailed each decision, in their language, with the reason of a rejection.
    const performer = (await env.DB.prepare('SELECT u.email, u.locale FROM performers p JOIN users u ON u.id = p.user_id WHERE p.show_id = ?').bind(SHOW).first<{ email: string; locale: string }>())!;
    const titles = (await env.DB.prepare('SELECT title_en, title_de FROM videos WHERE id = ?').bind(video.id).first<{ title_en: string; title_de: string }>())!;
    const approvedMail = await lastMail(performer.email, 'moderation_approved');
    expect(approvedMail.text).toContain(performer.locale === 'de' ? titles.title_de : titles.title_en);
    expect(approvedMail.text).toContain('/studio');
    expect((await lastMail(performer.email, 'moderation_rejected')).text).toContain(reason);
  });
});

describe('live shows stopped by an operator', () => {
  it('lists online shows with viewers; a stop with a reason ends every session at once with no further minute, the show goes offline, audited, the studio shows why', async () => {
    const op = await operator();
    const { show, performer, studio } = await liveShow(SHOW);
    const m = await chatMember(1000);
    const s = await startOk(m.client, show.universalId, 'private');
    const member = await joinRoom(show.id, s.login, s.password);
    await member.next('welcome');
    studio.send({ t: 'accept', sessionId: s.sessionId });
    await member.next('session', (e) => e.session.minutes === 1);

    const live = await expectJson<LiveAnswer>(await op.client.get('/api/operator/live'), 200);
    expect(live.data.find((x) => x.id === SHOW)).toMatchObject({ id: SHOW, viewers: 1 });
    await expectError(await op.client.post(`/api/operator/shows/${SHOW}/stop`, {}), 422, 'validation_failed', ['reason', 'reason_required']);
    await expectError(await op.client.post('/api/operator/shows/999999/stop', { reason: 'Not allowed content' }), 404, 'not_found');

    const reason = 'A third person appeared on camera without records.';
    expect(await expectJson(await op.client.post(`/api/operator/shows/${SHOW}/stop`, { reason }), 200)).toEqual({ id: SHOW, online: false });
    expect(await member.next('ended')).toEqual({ t: 'ended', sessionId: s.sessionId, reason: 'offline' });
    expect((await studio.next('ended', (e) => e.sessionId === s.sessionId)).reason).toBe('offline');
    const row = (await sessionRow(s.sessionId))!;
    expect(row).toMatchObject({ state: 'ended', end_reason: 'offline' });
    const refs = await ledgerRefs(`chat:${s.sessionId}:`);
    expect(refs.length).toBe(row.minutes);
    // No further minute: the ledger stays as it was well past the next minute's start (1 s in tests).
    await new Promise((r) => setTimeout(r, 2_500));
    expect(await ledgerRefs(`chat:${s.sessionId}:`)).toEqual(refs);
    expect(await env.DB.prepare('SELECT online FROM shows WHERE id = ?').bind(SHOW).first('online')).toBe(0);
    expect((await expectJson<LiveAnswer>(await op.client.get('/api/operator/live'), 200)).data.some((x) => x.id === SHOW)).toBe(false);
    await expectError(await op.client.post(`/api/operator/shows/${SHOW}/stop`, { reason }), 409, 'show_not_online');
    const audit = await env.DB.prepare("SELECT actor_id, reason FROM audit_log WHERE action = 'show.stopped' AND target = ? ORDER BY id DESC").bind(`show:${SHOW}`).first();
    expect(audit).toEqual({ actor_id: op.id, reason });
    // The performer's studio tells why, until the show goes online again.
    expect((await expectJson<{ stop: { reason: string } | null }>(await performer.get('/api/studio'), 200)).stop).toMatchObject({ reason });
    await expectJson(await performer.post('/api/studio/status', { online: true }), 200);
    expect((await expectJson<{ stop: unknown }>(await performer.get('/api/studio'), 200)).stop).toBeNull();
    await expectJson(await performer.post('/api/studio/status', { online: false }), 200);
    studio.ws.close(1000);
  });
});
