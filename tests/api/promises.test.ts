import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { GAME_SEGMENTS, gameDay, type GameState } from '../../src/shared/game';
import type { Session } from '../../src/shared/session';
import type { Paged, ShowDetail, ShowSummary, VideoSummary } from '../../src/shared/shows';
import { count, DEMO, registerMember } from './account-helpers';
import { Client, expectError, expectJson } from './helpers';

// Issue 9, points 16 and 17: pages that promised more than they did.

const balance = async (id: number) => (await env.DB.prepare('SELECT coins FROM users WHERE id = ?').bind(id).first<{ coins: number }>())!.coins;
const ledgerSum = async (id: number) =>
  (await env.DB.prepare('SELECT COALESCE(SUM(amount), 0) AS s FROM ledger WHERE user_id = ?').bind(id).first<{ s: number }>())!.s;

type SpinAnswer = GameState & { user: { coins: number } };

describe('daily game (/api/game)', () => {
  it('visitors get 401 and nothing is stored', async () => {
    const visitor = new Client();
    const [spins, ledger] = [await count('game_spins'), await count('ledger')];
    await expectError(await visitor.get('/api/game'), 401, 'unauthenticated');
    await expectError(await visitor.post('/api/game/spin'), 401, 'unauthenticated');
    expect(await count('game_spins')).toBe(spins);
    expect(await count('ledger')).toBe(ledger);
  });

  it('members with an unconfirmed address are asked to confirm it first', async () => {
    const m = await registerMember({ verified: false });
    await expectError(await m.client.post('/api/game/spin'), 403, 'not_verified');
    expect(await count('game_spins', 'user_id = ?', m.id)).toBe(0);
    expect(await balance(m.id)).toBe(0);
  });

  it('spins once a day: the prize is credited through the ledger, the answer and the balance agree, a second spin is refused (409)', async () => {
    const m = await registerMember({ verified: true });
    const before = await expectJson<GameState>(await m.client.get('/api/game'), 200);
    expect(before.spin).toBeNull();
    expect(before.day).toBe(gameDay(new Date()));

    const res = await m.client.post('/api/game/spin');
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    const won = await expectJson<SpinAnswer>(res, 200);
    expect(won.spin).not.toBeNull();
    const spin = won.spin!;
    expect(spin.coins).toBe(GAME_SEGMENTS[spin.segment].coins);
    expect(won.user.coins).toBe(spin.coins);
    expect(await balance(m.id)).toBe(spin.coins);
    expect(await ledgerSum(m.id)).toBe(spin.coins);
    const ledger = await env.DB.prepare('SELECT amount, ref FROM ledger WHERE user_id = ?').bind(m.id).all<{ amount: number; ref: string }>();
    expect(ledger.results).toEqual([{ amount: spin.coins, ref: `game:${m.id}:${spin.day}` }]);

    // The page's state shows the same spin; the member's own balance says the same.
    const after = await expectJson<GameState>(await m.client.get('/api/game'), 200);
    expect(after.spin).toEqual(spin);
    expect((await m.client.me())!.coins).toBe(spin.coins);

    await expectError(await m.client.post('/api/game/spin'), 409, 'game_already_played');
    expect(await balance(m.id)).toBe(spin.coins);
    expect(await count('ledger', 'user_id = ?', m.id)).toBe(1);
    expect(await count('game_spins', 'user_id = ?', m.id)).toBe(1);
  });

  it('100 parallel spins pay exactly one prize', async () => {
    const m = await registerMember({ verified: true });
    await m.client.csrf();
    const answers = await Promise.all(Array.from({ length: 100 }, () => m.client.post('/api/game/spin')));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(99);
    const won = (await answers[statuses.indexOf(200)].json()) as SpinAnswer;
    expect(await count('game_spins', 'user_id = ?', m.id)).toBe(1);
    expect(await count('ledger', "user_id = ? AND ref LIKE 'game:%'", m.id)).toBe(1);
    expect(await balance(m.id)).toBe(won.spin!.coins);
    expect(await ledgerSum(m.id)).toBe(won.spin!.coins);
  });

  it("yesterday's spin does not block today's", async () => {
    const m = await registerMember({ verified: true });
    const yesterday = gameDay(new Date(Date.now() - 86_400_000));
    await env.DB.prepare('INSERT INTO game_spins (user_id, day, segment, coins, created_at) VALUES (?, ?, 0, 5, 0)').bind(m.id, yesterday).run();
    const won = await expectJson<SpinAnswer>(await m.client.post('/api/game/spin'), 200);
    expect(won.spin!.day).toBe(gameDay(new Date()));
  });

  it('/game is a page with the wheel: a call to log in for visitors, the spin button for members', async () => {
    const visitor = await new Client().get('/game');
    expect(visitor.status).toBe(200);
    const html = await visitor.text();
    expect(html).toContain('data-island="GameWheel"');
    expect(html).toContain('data-testid="game-visitor"');
    expect(html).toContain('href="/login?redirect=%2Fgame"');
    expect(html).not.toContain('data-action="game-spin"');

    const m = await registerMember({ verified: true });
    const page = await (await m.client.get('/game')).text();
    expect(page).toContain('data-action="game-spin"');
    expect(page).toContain('data-played="0"');
    await m.client.post('/api/game/spin');
    expect(await (await m.client.get('/game')).text()).toContain('data-played="1"');
  });
});

describe('free shows and free videos', () => {
  it('/freevideo lists the free videos (price 0) with the media tile', async () => {
    const free = await count('videos', 'price = 0');
    expect(free).toBeGreaterThan(0);
    const api = await expectJson<Paged<VideoSummary>>(await new Client().get('/api/search/videos?free=1&limit=48'), 200);
    expect(api.total).toBe(free);
    expect(api.data.length).toBe(Math.min(48, free));
    expect(api.data.every((v) => v.price === 0)).toBe(true);

    const html = await (await new Client().get('/freevideo')).text();
    const tiles = html.match(/<article class="media-tile video-tile"[^>]*>/g) ?? [];
    expect(tiles.length).toBe(Math.min(48, free));
    expect(tiles.every((t) => t.includes('data-free="1"'))).toBe(true);
    expect(html).toContain('data-island="MediaList"');
  });

  it('/freeshow lists the shows whose free chat is open (live, free mode) and promises nothing more', async () => {
    const open = await env.DB.prepare('SELECT id FROM shows WHERE online = 1 AND flag_free = 1').all<{ id: number }>();
    expect(open.results.length).toBeGreaterThan(0);
    const api = await expectJson<Paged<ShowSummary>>(await new Client().get('/api/search/shows?filter=free_online&limit=36'), 200);
    expect(api.total).toBe(open.results.length);
    expect(api.data.every((s) => s.online && s.flags.free)).toBe(true);

    const html = await (await new Client().get('/freeshow')).text();
    const ids = [...html.matchAll(/<article class="show-tile[^"]*" data-show-id="(\d+)"/g)].map((m) => Number(m[1]));
    expect(ids.length).toBe(Math.min(36, open.results.length));
    const allowed = new Set(open.results.map((r) => r.id));
    expect(ids.every((id) => allowed.has(id))).toBe(true);
    expect(html).toContain('data-testid="free-shows"');
    // The old text page promised a guest chat that does not exist yet.
    expect(html).not.toContain('as a guest');
  });
});

describe('city names per locale', () => {
  it('an English answer names the English city, a German one the German city', async () => {
    const row = await env.DB.prepare("SELECT id, slug_name FROM shows WHERE city = 'Köln' LIMIT 1").first<{ id: number; slug_name: string }>();
    expect(row).not.toBeNull();
    const en = await expectJson<ShowDetail>(await new Client().get(`/api/shows/${row!.id}?lang=en`), 200);
    const de = await expectJson<ShowDetail>(await new Client().get(`/api/shows/${row!.id}?lang=de`), 200);
    expect(en.city).toBe('Cologne');
    expect(de.city).toBe('Köln');

    const enPage = await (await new Client().get(`/chat/${row!.id}/${row!.slug_name}?lang=en`)).text();
    const dePage = await (await new Client().get(`/chat/${row!.id}/${row!.slug_name}?lang=de`)).text();
    expect(enPage).toContain('Cologne');
    expect(enPage).not.toContain('Köln');
    expect(dePage).toContain('Köln');
  });

  it('list tiles follow the locale too', async () => {
    const milan = await env.DB.prepare("SELECT COUNT(*) AS n FROM shows WHERE city = 'Mailand'").first<{ n: number }>();
    expect(milan!.n).toBeGreaterThan(0);
    const en = await expectJson<Paged<ShowSummary>>(await new Client().get('/api/search/shows?search=mailand&lang=en'), 200);
    const de = await expectJson<Paged<ShowSummary>>(await new Client().get('/api/search/shows?search=mailand&lang=de'), 200);
    expect(en.total).toBe(milan!.n);
    expect(en.data.every((s) => s.city === 'Milan')).toBe(true);
    expect(de.data.every((s) => s.city === 'Mailand')).toBe(true);
  });
});

describe('vouchers: worth and expiry', () => {
  interface CouponItem { code: string; money: number | null; coins: number | null; no_expiry: boolean; text: string }

  it('a coin voucher has no euro worth; far-future vouchers say "no expiry"', async () => {
    const m = await registerMember({ verified: true });
    await expectJson(await m.client.post('/api/coupons/redeem', { code: 'LOYAL25' }), 200);
    await expectJson(await m.client.post('/api/coupons/redeem', { code: 'BONUS10' }), 200);
    const list = await expectJson<{ data: CouponItem[] }>(await m.client.get('/api/coupons'), 200);
    const loyal = list.data.find((c) => c.code === 'LOYAL25')!;
    expect(loyal.text).toBe('25 Coins');
    expect(loyal.coins).toBe(25);
    expect(loyal.money).toBeNull();
    expect(loyal.no_expiry).toBe(true);
    const bonus = list.data.find((c) => c.code === 'BONUS10')!;
    expect(bonus.money).toBe(10);
    expect(bonus.coins).toBe(100);
    expect(bonus.no_expiry).toBe(true);
  });

  it('a voucher with a real end date is not "no expiry"', async () => {
    const m = await registerMember({ verified: true });
    const until = Math.floor(Date.now() / 1000) + 10 * 86_400;
    const code = `SOON${Date.now() % 100000}`;
    await env.DB.prepare("INSERT INTO coupons (code, type, value, currency, valid_until, signup_only, created_at) VALUES (?, 'VIDEO', 1, 'EUR', ?, 0, 0)").bind(code, until).run();
    await expectJson(await m.client.post('/api/coupons/redeem', { code }), 200);
    const list = await expectJson<{ data: CouponItem[] }>(await m.client.get('/api/coupons'), 200);
    expect(list.data.find((c) => c.code === code)!.no_expiry).toBe(false);
  });
});

describe('welcome dialog: once per member', () => {
  it('the demo member is not greeted as a new member at login', async () => {
    const c = new Client();
    const login = await expectJson<{ session: Session }>(await c.login(DEMO.name, DEMO.password), 200);
    expect(login.session.welcome_dialog).toBeNull();
    const init = await expectJson<{ session: Session }>(await c.get('/api/session/init'), 200);
    expect(init.session.welcome_dialog).toBeNull();
  });

  it('once shown, a new member does not see it again in a new session (the next login)', async () => {
    const m = await registerMember({ verified: true });
    const init = await expectJson<{ session: Session }>(await m.client.get('/api/session/init'), 200);
    expect(init.session.welcome_dialog).toEqual({ video: true, voucher: true });
    await expectJson(await m.client.post('/api/session/welcome_shown'), 200);

    const other = new Client();
    const login = await expectJson<{ session: Session }>(await other.login(m.name, m.password), 200);
    expect(login.session.welcome_dialog).toBeNull();
    // Any later change of the new session answers it without the dialog as well.
    const vid = await expectJson<{ session: Session }>(await other.post('/api/session/vid', { vid: 'a'.repeat(32), confidence: 0.9 }), 200);
    expect(vid.session.welcome_dialog).toBeNull();
    expect((await expectJson<{ session: Session }>(await other.get('/api/session/init'), 200)).session.welcome_dialog).toBeNull();
  });
});
