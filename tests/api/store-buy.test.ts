import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { type Member } from './account-helpers';
import { Client, expectError, expectJson } from './helpers';
import { coinsOf } from './chat-helpers';
import { buyer, freeVideo, paidGalleries, paidVideos, purchaseCount, purchaseDebits } from './store-helpers';
import type { ArchiveLatestAnswer, ArchiveVideosAnswer, BuyAnswer, VideoAnswer } from '../../src/shared/store';

// Issue 13, buying: coins in one batch with the purchase row, prizes used exactly once, the
// errors (no coins, not verified, not found) and the archive.

const SLOW = 60_000;
const buyVideo = (m: Member, ccid: string, part = 1, body: unknown = { use_voucher: 0 }) => m.client.post(`/api/videos/buy/${ccid}/${part}`, body);

async function usedAt(userId: number, code: string): Promise<number | null> {
  return (await env.DB.prepare('SELECT used_at FROM user_coupons WHERE user_id = ? AND code = ?').bind(userId, code).first<{ used_at: number | null }>())!.used_at;
}

describe('buying a video with coins', () => {
  it('moves the price from the member to the performer and the house, in one batch with the purchase row; a repeat says already', async () => {
    const [v] = await paidVideos(1);
    const m = await buyer(1000);
    const before = await expectJson<VideoAnswer>(await m.client.get(`/api/videos/${v.ccid}`), 200);
    expect(before.owned).toBe(false);
    const body = await expectJson<BuyAnswer>(await buyVideo(m, v.ccid), 200);
    expect(body).toEqual({ ok: true, already: false, voucher: null, user: { coins: 1000 - v.price } });
    expect(await coinsOf(m.id)).toBe(1000 - v.price);
    const debits = await purchaseDebits(m.id);
    expect(debits.reduce((s, d) => s + d.amount, 0)).toBe(-v.price);
    expect(debits.map((d) => d.ref)).toEqual([`purchase:video:${v.id}:${m.id}`, `purchase:video:${v.id}:${m.id}:house`]);
    expect(debits.map((d) => d.counter)).toEqual([`performer:${v.show_id}`, 'house']);
    const row = await env.DB.prepare('SELECT kind, item_id, show_id, coins, coupon_code FROM purchases WHERE user_id = ?').bind(m.id).first();
    expect(row).toEqual({ kind: 'video', item_id: v.id, show_id: v.show_id, coins: v.price, coupon_code: null });
    expect((await expectJson<VideoAnswer>(await m.client.get(`/api/videos/${v.ccid}`), 200)).owned).toBe(true);

    const again = await expectJson<BuyAnswer>(await buyVideo(m, v.ccid), 200);
    expect(again).toEqual({ ok: true, already: true, voucher: null, user: { coins: 1000 - v.price } });
    expect(await coinsOf(m.id)).toBe(1000 - v.price);
    expect(await purchaseCount(m.id)).toBe(1);
  });

  it('covers every part: buying part 1 owns part 2 too, and part 2 of it answers already', async () => {
    const { results } = await env.DB.prepare('SELECT ccid, price FROM videos WHERE price > 0 AND parts >= 2 ORDER BY id LIMIT 1').all<{ ccid: string; price: number }>();
    const v = results[0];
    const m = await buyer(1000);
    await expectJson(await buyVideo(m, v.ccid, 1), 200);
    expect((await expectJson<BuyAnswer>(await buyVideo(m, v.ccid, 2), 200)).already).toBe(true);
    expect(await coinsOf(m.id)).toBe(1000 - v.price);
    expect((await m.client.get(`/api/videos/play/${v.ccid}/2`)).status).toBe(200);
  });

  it('charges once under 20 parallel requests (one debit, one purchase row, exact balance)', { timeout: SLOW }, async () => {
    const [v] = await paidVideos(1, 1);
    const m = await buyer(1000);
    await m.client.csrf();
    const answers = await Promise.all(Array.from({ length: 20 }, () => buyVideo(m, v.ccid).then((r) => expectJson<BuyAnswer>(r, 200))));
    expect(answers.filter((a) => !a.already)).toHaveLength(1);
    expect(answers.filter((a) => a.already)).toHaveLength(19);
    expect(await coinsOf(m.id)).toBe(1000 - v.price);
    expect(await purchaseCount(m.id, 'video', v.id)).toBe(1);
    expect((await purchaseDebits(m.id)).reduce((s, d) => s + d.amount, 0)).toBe(-v.price);
    expect(await purchaseDebits(m.id)).toHaveLength(2);
  });

  it('changes nothing with too few coins (422 store.no_coins)', async () => {
    const [v] = await paidVideos(1, 2);
    const m = await buyer(v.price - 1);
    await expectError(await buyVideo(m, v.ccid), 422, 'store.no_coins');
    expect(await coinsOf(m.id)).toBe(v.price - 1);
    expect(await purchaseCount(m.id)).toBe(0);
    expect(await purchaseDebits(m.id)).toHaveLength(0);
  });

  it('refuses visitors (401), unverified members (403 not_verified) and unknown videos or parts (404)', async () => {
    const [v] = await paidVideos(1, 3);
    await expectError(await new Client().post(`/api/videos/buy/${v.ccid}/1`, { use_voucher: 0 }), 401, 'unauthenticated');
    const unverified = await buyer(1000, false);
    await expectError(await buyVideo(unverified, v.ccid), 403, 'not_verified');
    expect(await coinsOf(unverified.id)).toBe(1000);
    const m = await buyer(1000);
    await expectError(await buyVideo(m, 'v999999'), 404, 'not_found');
    await expectError(await buyVideo(m, v.ccid, v.parts + 1), 404, 'not_found');
    await expectError(await buyVideo(m, v.ccid, 0), 404, 'not_found');
    expect(await coinsOf(m.id)).toBe(1000);
  });

  it('refuses a bad use_voucher with field errors and writes nothing', async () => {
    const [v] = await paidVideos(1, 4);
    const m = await buyer(1000);
    for (const body of [{ use_voucher: 2 }, { use_voucher: 'yes' }, { use_voucher: null }]) {
      await expectError(await buyVideo(m, v.ccid, 1, body), 422, 'validation_failed', ['use_voucher', 'invalid_union']);
    }
    expect((await buyVideo(m, v.ccid, 1, '{"use_voucher":')).status).toBe(422);
    expect(await coinsOf(m.id)).toBe(1000);
    expect(await purchaseCount(m.id)).toBe(0);
  });

  it('owns a free video (price 0) without writing anything', async () => {
    const v = await freeVideo();
    const m = await buyer(0);
    expect(await expectJson<BuyAnswer>(await buyVideo(m, v.ccid), 200)).toEqual({ ok: true, already: true, voucher: null, user: { coins: 0 } });
    expect(await purchaseCount(m.id)).toBe(0);
    expect((await expectJson<VideoAnswer>(await m.client.get(`/api/videos/${v.ccid}`), 200)).owned).toBe(true);
  });
});

describe('buying with a prize', () => {
  it('uses a FREEVIDEO prize exactly once under 20 parallel requests for 20 videos; coins unchanged', { timeout: SLOW }, async () => {
    const videos = await paidVideos(20, 10);
    const m = await buyer(50);
    await expectJson(await m.client.post('/api/coupons/redeem', { code: 'FREEVIDEO' }), 200);
    const res = await Promise.all(videos.map((v) => buyVideo(m, v.ccid, 1, { use_voucher: 1 })));
    const bodies = await Promise.all(res.map(async (r) => ({ status: r.status, body: (await r.json()) as BuyAnswer & { message?: string } })));
    const won = bodies.filter((b) => b.status === 200);
    expect(won).toHaveLength(1);
    expect(won[0].body).toMatchObject({ ok: true, already: false, voucher: 'FREEVIDEO', user: { coins: 50 } });
    expect(bodies.filter((b) => b.status === 422 && b.body.message === 'store.no_voucher')).toHaveLength(19);
    expect(await purchaseCount(m.id)).toBe(1);
    expect(await env.DB.prepare('SELECT coins, coupon_code FROM purchases WHERE user_id = ?').bind(m.id).first()).toEqual({ coins: 0, coupon_code: 'FREEVIDEO' });
    expect(await usedAt(m.id, 'FREEVIDEO')).not.toBeNull();
    expect(await coinsOf(m.id)).toBe(50);
    expect(await purchaseDebits(m.id)).toHaveLength(0);
  });

  it('uses the prize once when 20 parallel requests buy the same video with it', { timeout: SLOW }, async () => {
    const [v] = await paidVideos(1, 40);
    const m = await buyer(0);
    await expectJson(await m.client.post('/api/coupons/redeem', { code: 'FREEVIDEO' }), 200);
    const answers = await Promise.all(Array.from({ length: 20 }, () => buyVideo(m, v.ccid, 1, { use_voucher: 1 }).then((r) => expectJson<BuyAnswer>(r, 200))));
    expect(answers.filter((a) => a.voucher === 'FREEVIDEO' && !a.already)).toHaveLength(1);
    expect(answers.filter((a) => a.already)).toHaveLength(19);
    expect(await purchaseCount(m.id)).toBe(1);
    // The prize is gone: the next video needs coins or another prize.
    const [next] = await paidVideos(1, 41);
    await expectError(await buyVideo(m, next.ccid, 1, { use_voucher: 1 }), 422, 'store.no_voucher');
  });

  it('answers store.no_voucher without a prize, and a gallery prize does not buy a video', async () => {
    const [v] = await paidVideos(1, 42);
    const m = await buyer(0);
    await expectError(await buyVideo(m, v.ccid, 1, { use_voucher: 1 }), 422, 'store.no_voucher');
    await expectJson(await m.client.post('/api/coupons/redeem', { code: 'FREEGALLERY' }), 200);
    await expectError(await buyVideo(m, v.ccid, 1, { use_voucher: 1 }), 422, 'store.no_voucher');
    expect(await usedAt(m.id, 'FREEGALLERY')).toBeNull();
    const [g] = await paidGalleries(1);
    const body = await expectJson<BuyAnswer>(await m.client.post(`/api/galleries/buy/${g.show_id}/${g.id}`, { use_voucher: 1 }), 200);
    expect(body).toEqual({ ok: true, already: false, voucher: 'FREEGALLERY', user: { coins: 0 } });
    expect(await usedAt(m.id, 'FREEGALLERY')).not.toBeNull();
  });

  it("buys with the welcome offer's free video (a granted WELCOMEVIDEO prize)", async () => {
    const [v] = await paidVideos(1, 43);
    const m = await buyer(0);
    await env.DB.prepare("INSERT INTO user_coupons (user_id, code, redeemed_at, used_at) VALUES (?, 'WELCOMEVIDEO', 0, NULL)").bind(m.id).run();
    expect((await expectJson<BuyAnswer>(await buyVideo(m, v.ccid, 1, { use_voucher: 1 }), 200)).voucher).toBe('WELCOMEVIDEO');
    expect(await usedAt(m.id, 'WELCOMEVIDEO')).not.toBeNull();
  });

  it('keeps the prize when the video is already owned', async () => {
    const [v] = await paidVideos(1, 44);
    const m = await buyer(1000);
    await expectJson(await buyVideo(m, v.ccid), 200);
    await expectJson(await m.client.post('/api/coupons/redeem', { code: 'FREEVIDEO' }), 200);
    expect((await expectJson<BuyAnswer>(await buyVideo(m, v.ccid, 1, { use_voucher: 1 }), 200)).already).toBe(true);
    expect(await usedAt(m.id, 'FREEVIDEO')).toBeNull();
  });
});

describe('buying a gallery', () => {
  it('charges coins once, 404 for a gallery of another show, and errors like videos', async () => {
    const [g, other] = await paidGalleries(2, 5);
    const m = await buyer(1000);
    const body = await expectJson<BuyAnswer>(await m.client.post(`/api/galleries/buy/${g.show_id}/${g.id}`, {}), 200);
    expect(body.user.coins).toBe(1000 - g.price);
    expect((await expectJson<BuyAnswer>(await m.client.post(`/api/galleries/buy/${g.show_id}/${g.id}`, {}), 200)).already).toBe(true);
    expect(await coinsOf(m.id)).toBe(1000 - g.price);
    const wrongShow = other.show_id === g.show_id ? g.show_id + 1 : other.show_id;
    await expectError(await m.client.post(`/api/galleries/buy/${wrongShow}/${g.id}`, {}), 404, 'not_found');
    const poor = await buyer(1);
    await expectError(await poor.client.post(`/api/galleries/buy/${g.show_id}/${g.id}`, {}), 422, 'store.no_coins');
    await expectError(await (await buyer(1000, false)).client.post(`/api/galleries/buy/${g.show_id}/${g.id}`, {}), 403, 'not_verified');
  });
});

describe('archive', () => {
  it('lists what the member bought, newest first, with counts and totals; others see nothing of it', async () => {
    const videos = await paidVideos(3, 60);
    const [g] = await paidGalleries(1, 60);
    const m = await buyer(2000);
    for (const v of videos) await expectJson(await buyVideo(m, v.ccid), 200);
    await expectJson(await m.client.post(`/api/galleries/buy/${g.show_id}/${g.id}`, {}), 200);
    const totals = { video_count: 3, gallery_count: 1, video_total: videos.reduce((s, v) => s + v.price, 0), gallery_total: g.price };
    const latest = await expectJson<ArchiveLatestAnswer>(await m.client.get('/api/archive/latest'), 200);
    expect(latest).toMatchObject(totals);
    expect(new Set(latest.videos.map((v) => v.id))).toEqual(new Set(videos.map((v) => v.id)));
    expect(latest.videos.every((v) => v.owned === true && v.bought_at > 0)).toBe(true);
    expect(latest.galleries.map((x) => x.id)).toEqual([g.id]);
    const page = await expectJson<ArchiveVideosAnswer>(await m.client.get('/api/archive/videos?page=1'), 200);
    expect(page).toMatchObject({ ...totals, current_page: 1, last_page: 1, total: 3 });
    for (const junk of ['0', '-1', 'x', '1e99', '99999999', '%00']) {
      const p = await expectJson<ArchiveVideosAnswer>(await m.client.get(`/api/archive/videos?page=${junk}`), 200);
      expect(p.total).toBe(3);
    }
    expect((await expectJson<ArchiveVideosAnswer>(await m.client.get('/api/archive/videos?page=2'), 200)).data).toEqual([]);
    expect((await expectJson<ArchiveVideosAnswer>(await m.client.get('/api/archive/galleries'), 200)).data.map((x) => x.id)).toEqual([g.id]);
    const other = await buyer(0);
    expect(await expectJson<ArchiveLatestAnswer>(await other.client.get('/api/archive/latest'), 200)).toEqual({ video_count: 0, gallery_count: 0, video_total: 0, gallery_total: 0, videos: [], galleries: [] });
    for (const path of ['/api/archive/latest', '/api/archive/videos', '/api/archive/galleries']) await expectError(await new Client().get(path), 401, 'unauthenticated');
  });
});
