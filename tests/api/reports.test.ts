import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import type { ChatLine, RoomEvent } from '../../src/shared/chat';
import { REPORTS_PER_HOUR, type ReportView } from '../../src/shared/reports';
import { count, lastMail, mailsTo, registerMember, uniqueEmail } from './account-helpers';
import { chatMember, liveShow, performerOf } from './chat-helpers';
import { Client, expectError, expectJson } from './helpers';
import { reply, sendOk } from './messages-helpers';
import { operator } from './operator-helpers';

// Issue 29 point 3 (shows 208, 209): reports of a show, a chat line, a message, a video or a
// gallery by members and visitors; bad input and unknown targets change nothing; one open report
// per reporter and target; an hourly cap that holds under a burst; the operators' queue (oldest
// first, overdue after 7 days) and the outcome mailed and audited.

vi.setConfig({ testTimeout: 60_000 });

const TEXT = 'This content breaks the rules of the site.';
const report = (c: Client, body: Record<string, unknown>) => c.post('/api/reports', { category: 'harassment', text: TEXT, ...body });
const reportCount = () => count('reports');
const counters = () => count('throttle', "key LIKE 'report:%'");

async function performerLine(showId: number, text: string): Promise<ChatLine> {
  const { studio } = await liveShow(showId);
  studio.send({ t: 'say', text });
  const e = (await studio.next('line', (x: RoomEvent) => x.t === 'line' && x.line.text === text)) as Extract<RoomEvent, { t: 'line' }>;
  return e.line;
}

describe('POST /api/reports', () => {
  it('refuses bad input with 422 and field errors, changing nothing', async () => {
    const m = await registerMember({ verified: true });
    const [before, held] = [await reportCount(), await counters()];
    const bad: [Record<string, unknown>, string][] = [
      [{ target_kind: 'user', target_id: '208' }, 'target_kind'],
      [{ target_kind: 'show', target_id: '208 OR 1' }, 'target_id'],
      [{ target_kind: 'show', target_id: '208', category: 'boring' }, 'category'],
      [{ target_kind: 'show', target_id: '208', text: 'short' }, 'text'],
      [{ target_kind: 'show', target_id: '208', text: 'x'.repeat(2001) }, 'text'],
      [{ target_kind: 'show', target_id: '208', email: 'not-an-address' }, 'email'],
      [{ target_kind: 'chat_line', target_id: 'abc', show_id: 'x' }, 'show_id'],
    ];
    for (const [body, field] of bad) {
      const res = await report(m.client, body);
      const err = await expectError(res, 422, 'validation_failed');
      expect(Object.keys(err.errors ?? {}), JSON.stringify(body)).toContain(field);
    }
    expect(await reportCount()).toBe(before);
    expect(await counters()).toBe(held);
  });

  it('answers 404 for a target that does not exist or is not the reporter\'s to see', async () => {
    const m = await chatMember();
    const other = await registerMember({ verified: true });
    await sendOk(m, 209, 'A message of my own conversation');
    const mine = await env.DB.prepare('SELECT id FROM messages WHERE user_id = ? ORDER BY id DESC').bind(m.id).first<{ id: number }>();
    const before = await reportCount();
    for (const body of [
      { target_kind: 'show', target_id: '99999999' },
      { target_kind: 'video', target_id: '99999999' },
      { target_kind: 'picture', target_id: '99999999:1' },
      { target_kind: 'chat_line', target_id: 'no-such-line', show_id: 209 },
      { target_kind: 'chat_line', target_id: 'no-such-line', show_id: 99999999 },
      { target_kind: 'message', target_id: String(mine!.id) },
    ]) {
      await expectError(await report(other.client, body), 404, 'not_found');
    }
    // an upload waiting for review is not there for anyone but its performer and operators
    const pending = await env.DB.prepare(
      "INSERT INTO videos (ccid, show_id, title_en, title_de, duration_s, price, created_at, review) VALUES (?, 208, 'Waiting', 'Wartet', 60, 10, unixepoch(), 'pending') RETURNING id",
    )
      .bind(`report-pending-${Date.now()}`)
      .first<{ id: number }>();
    await expectError(await report(other.client, { target_kind: 'video', target_id: String(pending!.id) }), 404, 'not_found');
    // a visitor has no conversations
    await expectError(await report(new Client(), { target_kind: 'message', target_id: String(mine!.id) }), 404, 'not_found');
    expect(await reportCount()).toBe(before);
  });

  it('takes a visitor\'s report of a show (acknowledged by mail) and a member\'s report of a chat line (snapshot kept); a second open one is refused', async () => {
    const visitor = new Client();
    const address = uniqueEmail('reporter');
    const v = await expectJson<{ report: { id: number }; message: string }>(await report(visitor, { target_kind: 'show', target_id: '208', category: 'minor_safety', email: address }), 201);
    expect(v.message).toBe('received');
    expect((await lastMail(address, 'report_received')).text).toContain(String(v.report.id));
    await expectError(await report(visitor, { target_kind: 'show', target_id: '208' }), 409, 'report_open');

    const line = await performerLine(209, 'A line the member will report');
    const m = await chatMember();
    const r = await expectJson<{ report: { id: number } }>(await report(m.client, { target_kind: 'chat_line', target_id: line.id, show_id: 209 }), 201);
    const row = await env.DB.prepare('SELECT * FROM reports WHERE id = ?').bind(r.report.id).first<Record<string, unknown>>();
    expect(JSON.parse(String(row!.snapshot))).toEqual({ nick: line.nick, text: 'A line the member will report' });
    const performer = await env.DB.prepare('SELECT user_id FROM performers WHERE show_id = 209').first<{ user_id: number }>();
    expect(row).toMatchObject({ reporter_user_id: m.id, target_kind: 'chat_line', show_id: 209, accused_user_id: performer!.user_id, state: 'open' });
    expect((await mailsTo(m.email)).some((x) => x.kind === 'report_received')).toBe(true);
    const before = await reportCount();
    await expectError(await report(m.client, { target_kind: 'chat_line', target_id: line.id, show_id: 209, category: 'spam' }), 409, 'report_open');
    expect(await reportCount()).toBe(before);
  });

  it('takes a member\'s report of a message of their conversation, a video and a gallery', async () => {
    const m = await chatMember();
    const sent = await sendOk(m, 208, 'Hello, a question');
    expect((await reply(await performerOf(208), sent.conversation.id, 'An answer to report')).status).toBe(200);
    const answer = await env.DB.prepare("SELECT id FROM messages WHERE conversation_id = ? AND author = 'show'").bind(sent.conversation.id).first<{ id: number }>();
    await expectJson(await report(m.client, { target_kind: 'message', target_id: String(answer!.id) }), 201);
    const video = await env.DB.prepare("SELECT id FROM videos WHERE show_id IN (208, 209) AND review = 'approved' AND status = 'published' LIMIT 1").first<{ id: number }>();
    const gallery = await env.DB.prepare("SELECT id FROM galleries WHERE show_id IN (208, 209) AND review = 'approved' AND status = 'published' LIMIT 1").first<{ id: number }>();
    expect(video && gallery).toBeTruthy();
    await expectJson(await report(m.client, { target_kind: 'video', target_id: String(video!.id) }), 201);
    await expectJson(await report(m.client, { target_kind: 'picture', target_id: `${gallery!.id}:1` }), 201);
    const rows = await env.DB.prepare('SELECT target_kind, snapshot FROM reports WHERE reporter_user_id = ? ORDER BY id').bind(m.id).all<{ target_kind: string; snapshot: string }>();
    expect(JSON.parse(rows.results[0].snapshot)).toEqual({ text: 'An answer to report' });
  });

  it(`keeps ${REPORTS_PER_HOUR} reports per reporter and hour under 30 parallel reports`, async () => {
    const m = await registerMember({ verified: true });
    const { results } = await env.DB.prepare("SELECT id FROM videos WHERE review = 'approved' AND status = 'published' ORDER BY id LIMIT 30").all<{ id: number }>();
    expect(results.length).toBe(30);
    const answers = await Promise.all(results.map((v) => report(m.client, { target_kind: 'video', target_id: String(v.id) })));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 201).length).toBe(REPORTS_PER_HOUR);
    expect(statuses.filter((s) => s === 429).length).toBe(30 - REPORTS_PER_HOUR);
    expect(await count('reports', 'reporter_user_id = ?', m.id)).toBe(REPORTS_PER_HOUR);
  });
});

describe('the operators\' queue', () => {
  it('lists open reports oldest first with their age and the 7-day flag; resolving mails the outcome and writes an audit row', async () => {
    const op = await operator();
    const visitor = new Client();
    const address = uniqueEmail('old-reporter');
    const old = await expectJson<{ report: { id: number } }>(await report(visitor, { target_kind: 'show', target_id: '209', email: address }), 201);
    await env.DB.prepare('UPDATE reports SET created_at = unixepoch() - 8 * 86400 WHERE id = ?').bind(old.report.id).run();
    const fresh = await expectJson<{ report: { id: number } }>(await report(new Client(), { target_kind: 'show', target_id: '209' }), 201);

    const { data } = await expectJson<{ data: ReportView[] }>(await op.client.get('/api/operator/reports?state=open'), 200);
    const ages = data.map((r) => r.created_at);
    expect(ages).toEqual([...ages].sort((a, b) => a - b));
    const o = data.find((r) => r.id === old.report.id)!;
    const f = data.find((r) => r.id === fresh.report.id)!;
    expect(o).toMatchObject({ overdue: true, reporter: 'visitor', target_kind: 'show', target_id: '209' });
    expect(o.age).toBeGreaterThan(7 * 86400);
    expect(f.overdue).toBe(false);
    expect(data.indexOf(o)).toBeLessThan(data.indexOf(f));

    await expectError(await op.client.post(`/api/operator/reports/${old.report.id}/resolve`, { outcome: 'banned', outcome_text: 'x' }), 422, 'validation_failed');
    const why = 'The show keeps to our rules; nothing to remove.';
    await expectJson(await op.client.post(`/api/operator/reports/${old.report.id}/resolve`, { outcome: 'no_action', outcome_text: why }), 200);
    await expectError(await op.client.post(`/api/operator/reports/${old.report.id}/resolve`, { outcome: 'removed', outcome_text: why }), 409, 'already_resolved');
    await expectError(await op.client.post('/api/operator/reports/99999999/resolve', { outcome: 'removed', outcome_text: why }), 404, 'not_found');
    const mail = await lastMail(address, 'report_outcome');
    expect(mail.text).toContain(why);
    const audit = await env.DB.prepare("SELECT actor_id, reason, detail FROM audit_log WHERE action = 'report.no_action' ORDER BY id DESC").first<{ actor_id: number; reason: string; detail: string }>();
    expect(audit).toMatchObject({ actor_id: op.id, reason: why });
    expect(JSON.parse(audit!.detail)).toMatchObject({ report: old.report.id });
    const after = await expectJson<{ data: ReportView[] }>(await op.client.get('/api/operator/reports'), 200);
    expect(after.data.some((r) => r.id === old.report.id)).toBe(false);
    const decided = await expectJson<{ data: ReportView[] }>(await op.client.get('/api/operator/reports?state=resolved'), 200);
    expect(decided.data.find((r) => r.id === old.report.id)).toMatchObject({ state: 'resolved', outcome: 'no_action', outcome_text: why, overdue: false });
    // the page lists the queue behind the door
    const page = await op.client.get('/operator/reports');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('data-testid="reports-page"');
  });

  it('removes what was reported: a video or a gallery leaves the store (its performer told why), a message the conversation; a show or a chat line cannot be removed here', async () => {
    const op = await operator();
    const m = await chatMember();
    const video = (await env.DB.prepare("SELECT id, ccid FROM videos WHERE show_id = 207 AND review = 'approved' AND status = 'published' LIMIT 1").first<{ id: number; ccid: string }>())!;
    const gallery = (await env.DB.prepare("SELECT id FROM galleries WHERE show_id = 207 AND review = 'approved' AND status = 'published' LIMIT 1").first<{ id: number }>())!;
    const sent = await sendOk(m, 207, 'Hello there');
    expect((await reply(await performerOf(207), sent.conversation.id, 'A reply that breaks the rules')).status).toBe(200);
    const message = (await env.DB.prepare("SELECT id FROM messages WHERE conversation_id = ? AND author = 'show'").bind(sent.conversation.id).first<{ id: number }>())!;
    const filed = async (kind: string, id: string) => (await expectJson<{ report: { id: number } }>(await report(m.client, { target_kind: kind, target_id: id }), 201)).report.id;
    const [rv, rg, rm, rs] = [await filed('video', String(video.id)), await filed('picture', `${gallery.id}:1`), await filed('message', String(message.id)), await filed('show', '207')];
    const why = 'It shows a person without consent records.';

    // Not removable: refused with the field, the report stays open.
    await expectError(await op.client.post(`/api/operator/reports/${rs}/resolve`, { outcome: 'removed', outcome_text: why }), 422, 'validation_failed', ['outcome', 'outcome_not_applicable']);
    expect((await env.DB.prepare('SELECT state FROM reports WHERE id = ?').bind(rs).first<{ state: string }>())!.state).toBe('open');

    // Five operators' clicks at once on the video's report: one resolution, one removal.
    const clicks = await Promise.all(Array.from({ length: 5 }, () => op.client.post(`/api/operator/reports/${rv}/resolve`, { outcome: 'removed', outcome_text: why })));
    expect(clicks.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    for (const id of [rg, rm]) await expectJson(await op.client.post(`/api/operator/reports/${id}/resolve`, { outcome: 'removed', outcome_text: why }), 200);
    await expectError(await new Client().get(`/api/videos/${video.ccid}`), 404, 'not_found');
    await expectError(await new Client().get(`/api/galleries/207/${gallery.id}`), 404, 'not_found');
    const studio = await expectJson<{ videos: { id: number; review: string; review_reason: string | null }[] }>(await (await performerOf(207)).get('/api/studio/uploads'), 200);
    expect(studio.videos.find((v) => v.id === video.id)).toMatchObject({ review: 'rejected', review_reason: why });
    const performer = (await env.DB.prepare('SELECT u.email FROM performers p JOIN users u ON u.id = p.user_id WHERE p.show_id = 207').first<{ email: string }>())!;
    expect((await lastMail(performer.email, 'moderation_rejected')).text).toContain(why);
    expect(await count('audit_log', "action = 'moderation.removed' AND target IN (?, ?)", `video:${video.id}`, `gallery:${gallery.id}`)).toBe(2);
    expect((await env.DB.prepare('SELECT deleted_member FROM messages WHERE id = ?').bind(message.id).first<{ deleted_member: number }>())!.deleted_member).toBe(1);
  });

  it('is closed to members and performers', async () => {
    const m = await registerMember({ verified: true });
    await expectError(await m.client.get('/api/operator/reports'), 403, 'not_operator');
    const performer = await performerOf(208);
    await expectError(await performer.post('/api/operator/reports/1/resolve', { outcome: 'removed', outcome_text: 'Nothing to see here.' }), 403, 'not_operator');
  });
});
