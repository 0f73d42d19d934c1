import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { Client, expectError, expectJson } from './helpers';
import { buyer, freeVideo, paidGalleries, paidVideos } from './store-helpers';
import type { GallerySummary, Paged, VideoSummary } from '../../src/shared/shows';
import type { GalleryAnswer, MltAnswer, RateAnswer, VideoAnswer, ViewAnswer } from '../../src/shared/store';

// Issue 13: the store's lists and details, more-like-this, rating, views, and hostile input.

const visitor = () => new Client();
type VideoPage = Paged<VideoSummary>;

describe('video and gallery lists', () => {
  it('pages 48 by default, clamps limit to 1..48 and never fails on junk paging', async () => {
    const first = await expectJson<VideoPage>(await visitor().get('/api/search/videos'), 200);
    expect(first.data).toHaveLength(48);
    expect(first.current_page).toBe(1);
    expect(first.last_page).toBe(Math.ceil(first.total / 48));
    expect((await expectJson<VideoPage>(await visitor().get('/api/search/videos?limit=500'), 200)).data).toHaveLength(48);
    expect((await expectJson<VideoPage>(await visitor().get('/api/search/videos?limit=0'), 200)).data).toHaveLength(1);
    expect((await expectJson<VideoPage>(await visitor().get('/api/search/videos?limit=5'), 200)).data).toHaveLength(5);
    for (const page of ['0', '-1', 'x', '1e99', '%00', '9'.repeat(400)]) {
      const body = await expectJson<VideoPage>(await visitor().get(`/api/search/videos?page=${page}`), 200);
      expect(body.current_page, page).toBe(1);
    }
    const huge = await expectJson<VideoPage>(await visitor().get('/api/search/videos?page=999999'), 200);
    expect(huge).toMatchObject({ data: [], current_page: 999999, total: first.total });
    const galleries = await expectJson<Paged<GallerySummary>>(await visitor().get('/api/search/galleries?page=2&limit=48'), 200);
    expect(galleries.data).toHaveLength(48);
    expect(galleries.current_page).toBe(2);
  });

  it('shows only published items', async () => {
    const [v] = await paidVideos(1, 200);
    const before = (await expectJson<VideoPage>(await visitor().get(`/api/search/videos?showid=${v.show_id}`), 200)).data.map((x) => x.id);
    expect(before).toContain(v.id);
    await env.DB.prepare("UPDATE videos SET status = 'pending' WHERE id = ?").bind(v.id).run();
    const after = (await expectJson<VideoPage>(await visitor().get(`/api/search/videos?showid=${v.show_id}`), 200)).data.map((x) => x.id);
    expect(after).not.toContain(v.id);
    await expectError(await visitor().get(`/api/videos/${v.ccid}`), 404, 'not_found');
    await env.DB.prepare("UPDATE videos SET status = 'published' WHERE id = ?").bind(v.id).run();
  });

  it('filters by tags (all must match), category and free, and sorts', async () => {
    const tag = (await env.DB.prepare('SELECT t.slug, COUNT(*) AS n FROM video_tags vt JOIN tags t ON t.id = vt.tag_id GROUP BY t.id ORDER BY n DESC LIMIT 1').first<{ slug: string; n: number }>())!;
    const tagged = await expectJson<VideoPage>(await visitor().get(`/api/search/videos?tags=${tag.slug}`), 200);
    expect(tagged.total).toBe(tag.n);
    expect((await expectJson<VideoPage>(await visitor().get(`/api/search/videos?tags=${tag.slug},no-such-tag`), 200)).total).toBe(0);
    const cat = (await env.DB.prepare('SELECT category_id, COUNT(DISTINCT v.id) AS n FROM show_categories sc JOIN videos v ON v.show_id = sc.show_id GROUP BY category_id ORDER BY category_id LIMIT 1').first<{ category_id: number; n: number }>())!;
    expect((await expectJson<VideoPage>(await visitor().get(`/api/search/videos?cat=${cat.category_id}`), 200)).total).toBe(cat.n);
    const free = await expectJson<VideoPage>(await visitor().get('/api/search/videos?free=1'), 200);
    expect(free.total).toBeGreaterThan(0);
    expect(free.data.every((v) => v.price === 0)).toBe(true);
    const asc = (await expectJson<VideoPage>(await visitor().get('/api/search/videos?sort=price_asc&limit=48'), 200)).data.map((v) => v.price);
    expect(asc).toEqual([...asc].sort((a, b) => a - b));
    const desc = (await expectJson<VideoPage>(await visitor().get('/api/search/videos?sort=price_desc'), 200)).data.map((v) => v.price);
    expect(desc[0]).toBeGreaterThanOrEqual(desc[47]);
    const rating = (await expectJson<VideoPage>(await visitor().get('/api/search/videos?sort=rating'), 200)).data.map((v) => v.rating);
    expect(rating).toEqual([...rating].sort((a, b) => b - a));
    // Junk falls back to the defaults.
    const junk = await expectJson<VideoPage>(await visitor().get('/api/search/videos?sort=drop&cat=x&tags=%00&showid=-1'), 200);
    expect(junk.total).toBe((await expectJson<VideoPage>(await visitor().get('/api/search/videos'), 200)).total);
  });

  it('marks owned items for a member (bought or free), and not for visitors', async () => {
    const [v] = await paidVideos(1, 201);
    const free = await freeVideo();
    const m = await buyer(1000);
    await expectJson(await m.client.post(`/api/videos/buy/${v.ccid}/1`, {}), 200);
    const mine = await expectJson<VideoPage>(await m.client.get(`/api/search/videos?showid=${v.show_id}`), 200);
    expect(mine.data.find((x) => x.id === v.id)?.owned).toBe(true);
    expect(mine.data.filter((x) => x.id !== v.id && x.price > 0).every((x) => x.owned === false)).toBe(true);
    const freeList = await expectJson<VideoPage>(await m.client.get(`/api/search/videos?showid=${free.show_id}`), 200);
    expect(freeList.data.find((x) => x.id === free.id)?.owned).toBe(true);
    const theirs = await expectJson<VideoPage>(await visitor().get(`/api/search/videos?showid=${v.show_id}`), 200);
    expect(theirs.data.every((x) => x.owned === undefined)).toBe(true);
  });
});

describe('details and more like this', () => {
  it('answers a video by id or ccid with parts, tags and poster; 404 for unknown or junk ids', async () => {
    const [v] = await paidVideos(1, 202);
    const byCcid = await expectJson<VideoAnswer>(await visitor().get(`/api/videos/${v.ccid}`), 200);
    expect(await expectJson<VideoAnswer>(await visitor().get(`/api/videos/${v.id}`), 200)).toEqual(byCcid);
    expect(byCcid.parts_list.map((p) => p.part)).toEqual(Array.from({ length: v.parts }, (_, i) => i + 1));
    expect(byCcid.duration).toBe(v.parts * 20);
    expect(byCcid.tags.length).toBeGreaterThanOrEqual(2);
    expect(byCcid).toMatchObject({ owned: false, my_rating: null, poster: `/media/videos/${v.id}/poster` });
    for (const id of ['999999', 'v999999', '-1', '1e99', '%00', 'x'.repeat(500), "v1'--"]) {
      await expectError(await visitor().get(`/api/videos/${encodeURIComponent(id)}`), 404, 'not_found');
    }
  });

  it('answers a gallery only under its own show', async () => {
    const [g] = await paidGalleries(1, 202);
    const body = await expectJson<GalleryAnswer>(await visitor().get(`/api/galleries/${g.show_id}/${g.id}`), 200);
    expect(body.pictures).toHaveLength(g.picture_count);
    await expectError(await visitor().get(`/api/galleries/${g.show_id + 1}/${g.id}`), 404, 'not_found');
    for (const path of ['x/1', '1/x', '-1/1', '1e99/1', '1/%00']) await expectError(await visitor().get(`/api/galleries/${path}`), 404, 'not_found');
  });

  it("lists more like a video: the show's own first when asked, never the video itself, 12 by default", async () => {
    const [v] = await paidVideos(1, 203);
    const mlt = await expectJson<MltAnswer<VideoSummary>>(await visitor().get(`/api/search/videos/${v.ccid}/mlt?showid=${v.show_id}`), 200);
    expect(mlt.data).toHaveLength(12);
    expect(mlt.data.map((x) => x.id)).not.toContain(v.id);
    const sameShow = (await env.DB.prepare("SELECT COUNT(*) AS n FROM videos WHERE show_id = ? AND id != ? AND status = 'published'").bind(v.show_id, v.id).first<{ n: number }>())!.n;
    expect(sameShow).toBeGreaterThan(0);
    expect(mlt.data.slice(0, sameShow).every((x) => x.show_id === v.show_id)).toBe(true);
    expect((await expectJson<MltAnswer<VideoSummary>>(await visitor().get(`/api/search/videos/${v.ccid}/mlt?limit=3`), 200)).data).toHaveLength(3);
    expect((await expectJson<MltAnswer<VideoSummary>>(await visitor().get(`/api/search/videos/${v.ccid}/mlt?limit=99`), 200)).data).toHaveLength(12);
    await expectError(await visitor().get('/api/search/videos/v999999/mlt'), 404, 'not_found');
    const [g] = await paidGalleries(1, 203);
    const gm = await expectJson<MltAnswer<GallerySummary>>(await visitor().get(`/api/search/galleries/${g.id}/mlt?showid=${g.show_id}&limit=5`), 200);
    expect(gm.data).toHaveLength(5);
    expect(gm.data.map((x) => x.id)).not.toContain(g.id);
    await expectError(await visitor().get('/api/search/galleries/999999/mlt'), 404, 'not_found');
    await expectError(await visitor().get('/api/search/galleries/x/mlt'), 404, 'not_found');
  });
});

describe('rating and views', () => {
  it("replaces the member's earlier rating and moves the aggregate; only owners rate", async () => {
    const [v] = await paidVideos(1, 204);
    const row = (await env.DB.prepare('SELECT rating, rating_votes FROM videos WHERE id = ?').bind(v.id).first<{ rating: number; rating_votes: number }>())!;
    const m = await buyer(1000);
    await expectError(await m.client.post(`/api/videos/rate/${v.ccid}/1`, { rating: 5 }), 403, 'store.not_owned');
    await expectError(await visitor().post(`/api/videos/rate/${v.ccid}/1`, { rating: 5 }), 401, 'unauthenticated');
    await expectJson(await m.client.post(`/api/videos/buy/${v.ccid}/1`, {}), 200);
    const first = await expectJson<RateAnswer>(await m.client.post(`/api/videos/rate/${v.ccid}/1`, { rating: 1 }), 200);
    const votes = row.rating_votes + 1;
    expect(first).toEqual({ rating: Math.round((row.rating * row.rating_votes + 20) / votes), rating_votes: votes, my_rating: 1 });
    const second = await expectJson<RateAnswer>(await m.client.post(`/api/videos/rate/${v.ccid}/1`, { rating: 5 }), 200);
    expect(second.rating_votes).toBe(votes);
    expect(second.my_rating).toBe(5);
    expect(second.rating).toBe(Math.round((first.rating * votes - 20 + 100) / votes));
    expect((await expectJson<VideoAnswer>(await m.client.get(`/api/videos/${v.ccid}`), 200)).my_rating).toBe(5);
    expect((await env.DB.prepare("SELECT COUNT(*) AS n FROM media_ratings WHERE user_id = ? AND kind = 'video'").bind(m.id).first<{ n: number }>())!.n).toBe(1);
    for (const rating of [0, 6, 'x', null, 2.5]) await expectError(await m.client.post(`/api/videos/rate/${v.ccid}/1`, { rating }), 422, 'validation_failed');
    expect((await m.client.post(`/api/videos/rate/${v.ccid}/1`, '{bad json')).status).toBe(422);
  });

  it('rates a gallery the member bought', async () => {
    const [g] = await paidGalleries(1, 204);
    const m = await buyer(1000);
    await expectError(await m.client.post(`/api/galleries/rate/${g.show_id}/${g.id}`, { rating: 4 }), 403, 'store.not_owned');
    await expectJson(await m.client.post(`/api/galleries/buy/${g.show_id}/${g.id}`, {}), 200);
    expect((await expectJson<RateAnswer>(await m.client.post(`/api/galleries/rate/${g.show_id}/${g.id}`, { rating: 4 }), 200)).my_rating).toBe(4);
  });

  it('counts a view once per member (or visitor session) and day', async () => {
    const [v] = await paidVideos(1, 205);
    const m = await buyer(0);
    const one = await expectJson<ViewAnswer>(await m.client.post(`/api/videos/view/${v.ccid}/1`), 200);
    expect(one.counted).toBe(true);
    const again = await expectJson<ViewAnswer>(await m.client.post(`/api/videos/view/${v.ccid}/1`), 200);
    expect(again).toEqual({ views: one.views, counted: false });
    const guest = visitor();
    const g1 = await expectJson<ViewAnswer>(await guest.post(`/api/videos/view/${v.ccid}/1`), 200);
    expect(g1).toEqual({ views: one.views + 1, counted: true });
    expect((await expectJson<ViewAnswer>(await guest.post(`/api/videos/view/${v.ccid}/1`), 200)).counted).toBe(false);
    // A burst of the same member counts once.
    const burst = await buyer(0);
    const answers = await Promise.all(Array.from({ length: 20 }, () => burst.client.post(`/api/videos/view/${v.ccid}/1`).then((r) => expectJson<ViewAnswer>(r, 200))));
    expect(answers.filter((a) => a.counted)).toHaveLength(1);
    expect((await expectJson<VideoAnswer>(await m.client.get(`/api/videos/${v.ccid}`), 200)).views).toBe(one.views + 2);
    await expectError(await m.client.post(`/api/videos/view/${v.ccid}/${v.parts + 1}`), 404, 'not_found');
  });
});

describe('hostile parameters', () => {
  const junk = ['-1', '0', '1e99', 'x', '%00', '%27%20OR%201%3D1', 'a'.repeat(2000), '..%2F..'];

  it('never answers 5xx on any store call', async () => {
    const m = await buyer(100);
    const paths: string[] = [];
    for (const j of junk) {
      paths.push(`/api/videos/${j}`, `/api/galleries/${j}/${j}`, `/api/galleries/free/${j}`, `/api/search/videos/${j}/mlt`, `/api/search/galleries/${j}/mlt`);
      paths.push(`/api/search/videos?page=${j}&limit=${j}&tags=${j}&sort=${j}&cat=${j}&showid=${j}&search=${j}`, `/api/search/galleries?page=${j}&limit=${j}&tags=${j}&cat=${j}`);
      paths.push(`/api/archive/videos?page=${j}`, `/media/videos/${j}/${j}`, `/media/videos/${j}/1/preview`, `/media/videos/${j}/poster`, `/media/galleries/${j}/${j}/full`);
    }
    for (const path of paths) {
      const res = await m.client.get(path);
      expect(res.status, path).toBeLessThan(500);
    }
    for (const j of junk) {
      for (const path of [`/api/videos/buy/${j}/${j}`, `/api/videos/rate/${j}/1`, `/api/videos/view/${j}/1`, `/api/galleries/buy/${j}/${j}`, `/api/galleries/rate/1/${j}`]) {
        for (const body of [{ use_voucher: 1, rating: 3 }, '{oops', '[]', 'null', JSON.stringify({ use_voucher: j, rating: j })]) {
          const res = await m.client.post(path, body);
          expect(res.status, `${path} ${String(body).slice(0, 40)}`).toBeLessThan(500);
        }
      }
    }
    const hostileRange = await m.client.get('/media/videos/1/1', { Range: 'bytes=99999999999999999999-' });
    expect(hostileRange.status).toBeLessThan(500);
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM purchases WHERE user_id = ?').bind(m.id).first<{ n: number }>()).toEqual({ n: 0 });
  });
});
