import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { TIP_MENU_MAX, type TipGoal, type TipsView } from '../../src/shared/tips';
import { Client, expectError, expectJson } from './helpers';
import { chatMember, coinsOf, ledgerRefs, liveShow, sessionRow, startOk, viewer } from './chat-helpers';
import { booksHold } from './ledger-books';

// The tip menu and goals (issue 30 points 1 and 2): the studio's edits, a menu tip announced with
// its action, goals counted exactly under parallel tips, and the refusals.

const menuOf = (performer: Client, items: unknown) => performer.put('/api/chat/tips/studio/menu', { items });
const goal = async (showId: number) => (await env.DB.prepare('SELECT progress, reached_at FROM tip_goals WHERE show_id = ? AND closed_at IS NULL').bind(showId).first<{ progress: number; reached_at: number | null }>())!;
/** What `members` paid in tips (the performer's and the house's legs together). */
const tipSum = async (ids: number[]) =>
  (await env.DB.prepare(`SELECT -COALESCE(SUM(amount), 0) AS n FROM ledger WHERE reason = 'tip' AND user_id IN (${ids.map(() => '?').join(',')})`).bind(...ids).first<{ n: number }>())!.n;

describe('tip menu', () => {
  it('the performer saves a menu; viewers get it; a menu tip books its price and announces its action to the room and the studio', async () => {
    const { show, performer, studio } = await liveShow(101);
    const m = await chatMember(100);
    const s = await startOk(m.client, show.universalId, 'free');
    const other = await viewer(show.id, await startOk(new Client(), show.universalId, 'free'));
    const saved = await expectJson<TipsView>(await menuOf(performer, [{ coins: 15, en: ' Dance ', de: 'Tanzen' }, { coins: 40, en: 'Song', de: 'Lied' }]), 200);
    expect(saved.menu.map((i) => [i.coins, i.en, i.de])).toEqual([[15, 'Dance', 'Tanzen'], [40, 'Song', 'Lied']]);
    expect((await other.next('menu')).menu).toEqual(saved.menu);
    expect((await studio.next('menu')).menu).toEqual(saved.menu);
    expect(await expectJson<TipsView>(await new Client().get(`/api/chat/tips/show/${show.id}`), 200)).toEqual({ menu: saved.menu, goal: null });

    const dance = saved.menu[0];
    expect(await expectJson(await m.client.post(`/api/chat/tips/menu/${s.sessionId}`, { item: dance.id, key: 'k1' }), 200)).toEqual({ coins: 85, tip: 15 });
    for (const room of [other, studio]) expect(await room.next('tip')).toMatchObject({ from: s.sessionId, nick: m.nick, coins: 15, action: { en: 'Dance', de: 'Tanzen' } });
    // The same key again is booked once; the reference is a tip's.
    await expectJson(await m.client.post(`/api/chat/tips/menu/${s.sessionId}`, { item: dance.id, key: 'k1' }), 200);
    expect(await coinsOf(m.id)).toBe(85);
    expect(await ledgerRefs(`tip:${s.sessionId}:`)).toEqual([`tip:${s.sessionId}:k1`]);
    expect((await sessionRow(s.sessionId))!.tips).toBe(15);
    // An action no longer on the menu, or another show's, is refused.
    await expectJson(await menuOf(performer, [{ coins: 5, en: 'Wave', de: 'Winken' }]), 200);
    await expectError(await m.client.post(`/api/chat/tips/menu/${s.sessionId}`, { item: dance.id }), 422, 'chat.tip_item_gone', ['item', 'chat.tip_item_gone']);
    // The song costs more than the member has left after the menu changed back.
    const again = await expectJson<TipsView>(await menuOf(performer, [{ coins: 90, en: 'Song', de: 'Lied' }]), 200);
    await expectError(await m.client.post(`/api/chat/tips/menu/${s.sessionId}`, { item: again.menu[0].id }), 422, 'chat.no_coins', ['item', 'chat.no_coins']);
    expect(await coinsOf(m.id)).toBe(85);
    await booksHold();
    other.ws.close(1000);
    studio.ws.close(1000);
  });

  it('bad menus and goals are 422 with field errors and change nothing; only the performer edits; guests, voice calls and ended sessions cannot tip', async () => {
    const { show, performer, studio } = await liveShow(102);
    await expectJson(await menuOf(performer, [{ coins: 5, en: 'Wave', de: 'Winken' }]), 200);
    const bad: [unknown, string, string][] = [
      [[{ coins: 0, en: 'a', de: 'b' }], 'items.0.coins', 'price_invalid'],
      [[{ coins: 2.5, en: 'a', de: 'b' }], 'items.0.coins', 'price_invalid'],
      [[{ coins: 5, en: '  ', de: 'b' }], 'items.0.en', 'text_required'],
      [[{ coins: 5, en: 'a', de: '' }], 'items.0.de', 'text_required'],
      [[{ coins: 5, en: 'a'.repeat(81), de: 'b' }], 'items.0.en', 'too_long'],
      [Array.from({ length: TIP_MENU_MAX + 1 }, () => ({ coins: 5, en: 'a', de: 'b' })), 'items', 'too_many_items'],
      ['nope', 'items', 'items_invalid'],
    ];
    for (const [items, field, code] of bad) await expectError(await menuOf(performer, items), 422, 'validation_failed', [field, code]);
    for (const [body, field, code] of [
      [{ amount: 0, text: 'x' }, 'amount', 'goal_amount_invalid'],
      [{ amount: '50', text: 'x' }, 'amount', 'goal_amount_invalid'],
      [{ amount: 1.5, text: 'x' }, 'amount', 'goal_amount_invalid'],
      [{ amount: 50, text: ' ' }, 'text', 'text_required'],
      [{ amount: 50, text: 'x', minutes: 0 }, 'minutes', 'goal_minutes_invalid'],
    ] as const) {
      await expectError(await performer.post('/api/chat/tips/studio/goal', body), 422, 'validation_failed', [field, code]);
    }
    const now = await expectJson<TipsView>(await performer.get('/api/chat/tips/studio'), 200);
    expect(now.menu.map((i) => i.en)).toEqual(['Wave']);
    expect(now.goal).toBeNull();
    const m = await chatMember(100);
    await expectError(await m.client.put('/api/chat/tips/studio/menu', { items: [] }), 403, 'not_performer');
    await expectError(await new Client().post('/api/chat/tips/studio/goal', { amount: 5, text: 'x' }), 401, 'unauthenticated');
    await expectError(await new Client().get(`/api/chat/tips/show/999999`), 404, 'not_found');

    const s = await startOk(m.client, show.universalId, 'free');
    const guest = new Client();
    const g = await startOk(guest, show.universalId, 'free');
    await expectError(await guest.post(`/api/chat/tips/menu/${g.sessionId}`, { item: now.menu[0].id }), 401, 'unauthenticated');
    for (const item of [0, -1, 'x', 1.5]) await expectError(await m.client.post(`/api/chat/tips/menu/${s.sessionId}`, { item }), 422, 'validation_failed', ['item', 'tip_item_invalid']);
    await env.DB.prepare('UPDATE sessions SET voicecall = 1 WHERE id = (SELECT session_id FROM auth_tokens WHERE user_id = ? ORDER BY created_at DESC LIMIT 1)').bind(m.id).run();
    await expectError(await m.client.post(`/api/chat/tips/menu/${s.sessionId}`, { item: now.menu[0].id }), 422, 'chat.tip_not_available', ['item', 'chat.tip_not_available']);
    await env.DB.prepare('UPDATE sessions SET voicecall = 0 WHERE id = (SELECT session_id FROM auth_tokens WHERE user_id = ? ORDER BY created_at DESC LIMIT 1)').bind(m.id).run();
    await expectJson(await m.client.post(`/api/chatsession/end/${s.sessionId}`), 200);
    await expectError(await m.client.post(`/api/chat/tips/menu/${s.sessionId}`, { item: now.menu[0].id }), 422, 'chat.session_not_active', ['sessionId', 'chat.session_not_active']);
    expect(await coinsOf(m.id)).toBe(100);
    studio.ws.close(1000);
  });
});

describe('goals', () => {
  it('50 parallel tips (menu and plain) towards one goal are counted exactly; tips without coins are refused and not counted', async () => {
    const { show, performer, studio } = await liveShow(103);
    const { menu } = await expectJson<TipsView>(await menuOf(performer, [{ coins: 5, en: 'Wave', de: 'Winken' }]), 200);
    const started = await expectJson<TipsView>(await performer.post('/api/chat/tips/studio/goal', { amount: 10_000, text: 'New outfit', minutes: 60 }), 201);
    expect(started.goal).toMatchObject({ amount: 10_000, text: 'New outfit', progress: 0, state: 'open' });
    expect(started.goal!.left_ms).toBeGreaterThan(59 * 60_000);
    // Ten members with 22 coins each tip 5 coins five times at once (three from the menu, two plain): four of each member's five are paid.
    const members = await Promise.all(Array.from({ length: 10 }, () => chatMember(22)));
    const sessions = await Promise.all(members.map((m) => startOk(m.client, show.universalId, 'free')));
    const results = await Promise.all(
      members.flatMap((m, i) =>
        [0, 1, 2, 3, 4].map((k) =>
          k < 3 ? m.client.post(`/api/chat/tips/menu/${sessions[i].sessionId}`, { item: menu[0].id }) : m.client.post(`/api/chatsession/tip/${sessions[i].sessionId}`, { coins: 5 }),
        ),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((x) => x === 200).length).toBe(40);
    expect(statuses.filter((x) => x === 422).length).toBe(10);
    for (const m of members) expect(await coinsOf(m.id)).toBe(2);
    expect(await goal(show.id)).toEqual({ progress: 200, reached_at: null });
    expect(await tipSum(members.map((m) => m.id))).toBe(200);
    // The studio's last goal event carries the final count (the room never sends a lower one after a higher).
    const seen: number[] = [];
    while (!seen.includes(200)) seen.push((await studio.next('goal')).goal!.progress);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    await booksHold();
    studio.ws.close(1000);
  });

  it('a goal reached under parallel tips counts to its amount once, is announced once; the performer starts a new one', async () => {
    const { show, performer, studio } = await liveShow(104);
    await expectJson(await performer.post('/api/chat/tips/studio/goal', { amount: 100, text: 'Dance' }), 201);
    const m = await chatMember(1000);
    const s = await startOk(m.client, show.universalId, 'free');
    const v = await viewer(show.id, await startOk(new Client(), show.universalId, 'free'));
    const results = await Promise.all(Array.from({ length: 30 }, (_, k) => m.client.post(`/api/chatsession/tip/${s.sessionId}`, { coins: 5, key: `r${k}` })));
    expect(results.every((r) => r.status === 200)).toBe(true);
    // Every tip is paid; only those before the goal was reached count.
    expect(await coinsOf(m.id)).toBe(1000 - 150);
    const row = await goal(show.id);
    expect(row.progress).toBe(100);
    expect(row.reached_at).not.toBeNull();
    const reached = await v.next('goal', (e) => e.reached === true);
    expect(reached.goal).toMatchObject({ progress: 100, state: 'reached' });
    // All tips' room calls are done (each answer waited for them): a marker line after them, then no second announcement.
    studio.send({ t: 'say', text: 'marker' });
    await v.next('line', (e) => e.line.text === 'marker');
    expect(v.events.filter((e) => e.t === 'goal' && e.reached)).toEqual([]);
    // A new goal replaces it; the next tip counts towards the new one.
    const next = await expectJson<{ goal: TipGoal }>(await performer.post('/api/chat/tips/studio/goal', { amount: 50, text: 'Song' }), 201);
    expect((await v.next('goal', (e) => e.goal?.id === next.goal.id)).goal).toMatchObject({ progress: 0, state: 'open', left_ms: null });
    await expectJson(await m.client.post(`/api/chatsession/tip/${s.sessionId}`, { coins: 7 }), 200);
    expect((await v.next('goal', (e) => e.goal?.id === next.goal.id && e.goal.progress === 7)).goal!.state).toBe('open');
    expect((await env.DB.prepare('SELECT COUNT(*) AS n FROM tip_goals WHERE show_id = ?').bind(show.id).first<{ n: number }>())!.n).toBe(2);
    // Ended: no goal; tips count nowhere.
    await expectJson(await performer.del('/api/chat/tips/studio/goal'), 200);
    expect((await v.next('goal', (e) => e.goal === null)).goal).toBeNull();
    await expectError(await performer.del('/api/chat/tips/studio/goal'), 404, 'not_found');
    await booksHold();
    v.ws.close(1000);
    studio.ws.close(1000);
  });

  it('a goal whose time ran out counts no more tips', async () => {
    const { show, performer, studio } = await liveShow(105);
    await expectJson(await performer.post('/api/chat/tips/studio/goal', { amount: 100, text: 'Quick', minutes: 1 }), 201);
    await env.DB.prepare('UPDATE tip_goals SET ends_at = ? WHERE show_id = ?').bind(Date.now() - 1, show.id).run();
    const m = await chatMember(100);
    const s = await startOk(m.client, show.universalId, 'free');
    await expectJson(await m.client.post(`/api/chatsession/tip/${s.sessionId}`, { coins: 5 }), 200);
    expect((await goal(show.id)).progress).toBe(0);
    expect((await expectJson<TipsView>(await new Client().get(`/api/chat/tips/show/${show.id}`), 200)).goal).toMatchObject({ state: 'expired', left_ms: null });
    studio.ws.close(1000);
  });
});
