import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { StudioUploadsAnswer } from '../../src/shared/uploads';
import { count, lastMail, mailsTo } from './account-helpers';
import { chatMember, performerOf } from './chat-helpers';
import { Client, expectError, expectJson } from './helpers';
import { operator } from './operator-helpers';

// Issue 29 point 3: a removal offers an appeal too. The performer of a video taken out of the store
// on a report appeals from the studio; an operator upholds it or reinstates the item; the performer
// is mailed the outcome and the studio's list of uploads shows where the appeal stands.

const SHOW = 203;
const OTHER = 204;

async function removedVideo(op: Awaited<ReturnType<typeof operator>>): Promise<{ id: number; ccid: string }> {
  const video = (await env.DB.prepare("SELECT id, ccid FROM videos WHERE show_id = ? AND review = 'approved' AND status = 'published' AND id NOT IN (SELECT item_id FROM content_appeals) LIMIT 1").bind(SHOW).first<{ id: number; ccid: string }>())!;
  const m = await chatMember();
  const filed = await expectJson<{ report: { id: number } }>(await m.client.post('/api/reports', { category: 'harassment', text: 'This content breaks the rules of the site.', target_kind: 'video', target_id: String(video.id) }), 201);
  await expectJson(await op.client.post(`/api/operator/reports/${filed.report.id}/resolve`, { outcome: 'removed', outcome_text: 'No consent record for the second person.' }), 200);
  await expectError(await new Client().get(`/api/videos/${video.ccid}`), 404, 'not_found');
  return video;
}

/** The performer's mails about appeals. */
const mailsOf = async (videoId: number) => (await mailsTo((await performerMail(videoId)).email)).filter((m) => m.kind.startsWith('content_appeal_'));

/** The video as the studio's list shows it. */
async function listed(p: Client, id: number) {
  return (await expectJson<StudioUploadsAnswer>(await p.get('/api/studio/uploads'), 200)).videos.find((v) => v.id === id)!;
}

/** The show's performer's address, language and the video's title in it. */
async function performerMail(videoId: number) {
  const performer = (await env.DB.prepare('SELECT u.email, u.locale FROM performers p JOIN users u ON u.id = p.user_id WHERE p.show_id = ?').bind(SHOW).first<{ email: string; locale: string }>())!;
  const titles = (await env.DB.prepare('SELECT title_en, title_de FROM videos WHERE id = ?').bind(videoId).first<{ title_en: string; title_de: string }>())!;
  return { email: performer.email, title: performer.locale === 'de' ? titles.title_de : titles.title_en };
}

describe('appeals against a removed upload', () => {
  it('its performer appeals once; others cannot; bad input is refused; an operator reinstates it into the store', async () => {
    const op = await operator();
    const video = await removedVideo(op);
    const p = await performerOf(SHOW);
    const text = 'Both people in it are verified performers of this show.';
    await expectError(await p.post('/api/studio/appeals', { kind: 'video', id: video.id, text: 'short' }), 422, 'validation_failed');
    await expectError(await p.post('/api/studio/appeals', { kind: 'clip', id: video.id, text }), 422, 'validation_failed', ['kind', 'kind_invalid']);
    await expectError(await (await performerOf(OTHER)).post('/api/studio/appeals', { kind: 'video', id: video.id, text }), 404, 'not_found');
    expect((await (await chatMember()).client.post('/api/studio/appeals', { kind: 'video', id: video.id, text })).status).toBe(403);
    expect(await count('content_appeals')).toBe(0);
    expect(await listed(p, video.id)).toMatchObject({ review: 'rejected', appeal: null, can_appeal: true });

    const answers = await Promise.all(Array.from({ length: 5 }, () => p.post('/api/studio/appeals', { kind: 'video', id: video.id, text })));
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
    const queue = await expectJson<{ data: { id: number; kind: string; item_id: number; decision_reason: string; text: string }[] }>(await op.client.get('/api/operator/content-appeals'), 200);
    const appeal = queue.data.find((a) => a.item_id === video.id)!;
    expect(appeal).toMatchObject({ kind: 'video', decision_reason: 'No consent record for the second person.', text });
    expect((await p.get('/api/operator/content-appeals')).status).toBe(403);
    expect(await listed(p, video.id)).toMatchObject({ appeal: { state: 'pending', answer: null }, can_appeal: false });
    // The operators' page lists it with the reasons and the performer's text.
    const page = await op.client.get('/operator/appeals');
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`data-testid="content-appeal" data-id="${appeal.id}"`);
    expect(html).toContain('No consent record for the second person.');
    expect(html).toContain(text);

    await expectError(await op.client.post(`/api/operator/content-appeals/${appeal.id}/decide`, { outcome: 'maybe', answer: 'We checked the records again.' }), 422, 'validation_failed', ['outcome', 'outcome_invalid']);
    await expectJson(await op.client.post(`/api/operator/content-appeals/${appeal.id}/decide`, { outcome: 'reinstated', answer: 'We checked the records again.' }), 200);
    await expectError(await op.client.post(`/api/operator/content-appeals/${appeal.id}/decide`, { outcome: 'upheld', answer: 'We checked the records again.' }), 409, 'already_decided');
    await expectError(await op.client.post('/api/operator/content-appeals/999999/decide', { outcome: 'upheld', answer: 'We checked the records again.' }), 404, 'not_found');
    await expectJson(await new Client().get(`/api/videos/${video.ccid}`), 200);
    expect(await count('audit_log', "action = 'content_appeal.reinstated' AND target = ?", `video:${video.id}`)).toBe(1);
    expect(await listed(p, video.id)).toMatchObject({ review: 'approved', review_reason: null, appeal: { state: 'reinstated', answer: 'We checked the records again.' }, can_appeal: false });
    const { email, title } = await performerMail(video.id);
    const mail = await lastMail(email, 'content_appeal_reinstated');
    expect(mail.text).toContain(title);
    expect(mail.text).toContain('We checked the records again.');
    expect(mail.text).toContain('/studio');
    // An approved item cannot be appealed.
    await expectError(await p.post('/api/studio/appeals', { kind: 'video', id: video.id, text }), 404, 'not_found');
  });

  it('upheld: the item stays out of the store', async () => {
    const op = await operator();
    const video = await removedVideo(op);
    const p = await performerOf(SHOW);
    const { appeal } = await expectJson<{ appeal: { id: number } }>(await p.post('/api/studio/appeals', { kind: 'video', id: video.id, text: 'Please look at it once more.' }), 201);
    await expectJson(await op.client.post(`/api/operator/content-appeals/${appeal.id}/decide`, { outcome: 'upheld', answer: 'The second person has no record with us.' }), 200);
    await expectError(await new Client().get(`/api/videos/${video.ccid}`), 404, 'not_found');
    expect(await listed(p, video.id)).toMatchObject({ review: 'rejected', appeal: { state: 'upheld', answer: 'The second person has no record with us.' }, can_appeal: false });
    expect((await lastMail((await performerMail(video.id)).email, 'content_appeal_upheld')).text).toContain('The second person has no record with us.');
    // One appeal per decision: an upheld one is final.
    await expectError(await p.post('/api/studio/appeals', { kind: 'video', id: video.id, text: 'Please look at it once more, again.' }), 409, 'appeal_decided');
    expect(await count('content_appeals', 'item_id = ?', video.id)).toBe(1);
  });

  it('a reinstated item removed again may be appealed again; an item without its people\'s record cannot be reinstated', async () => {
    const op = await operator();
    const video = await removedVideo(op);
    const p = await performerOf(SHOW);
    const file = async () => (await expectJson<{ appeal: { id: number } }>(await p.post('/api/studio/appeals', { kind: 'video', id: video.id, text: 'Please look at it once more.' }), 201)).appeal.id;
    const first = await file();
    await expectJson(await op.client.post(`/api/operator/content-appeals/${first}/decide`, { outcome: 'reinstated', answer: 'It is fine after all.' }), 200);
    // Removed again on a new report: the old reinstatement no longer stands in the studio.
    const m = await chatMember();
    const filed = await expectJson<{ report: { id: number } }>(await m.client.post('/api/reports', { category: 'harassment', text: 'This content breaks the rules again.', target_kind: 'video', target_id: String(video.id) }), 201);
    await expectJson(await op.client.post(`/api/operator/reports/${filed.report.id}/resolve`, { outcome: 'removed', outcome_text: 'Removed again after a second report.' }), 200);
    expect(await listed(p, video.id)).toMatchObject({ review: 'rejected', appeal: null, can_appeal: true });
    const second = await file();
    // Without the record of the people in it, it cannot go back into the store; the appeal stays open.
    const records = await env.DB.prepare("SELECT show_performer_id FROM item_performers WHERE kind = 'video' AND item_id = ?").bind(video.id).all<{ show_performer_id: number }>();
    await env.DB.prepare("DELETE FROM item_performers WHERE kind = 'video' AND item_id = ?").bind(video.id).run();
    await expectError(await op.client.post(`/api/operator/content-appeals/${second}/decide`, { outcome: 'reinstated', answer: 'It is fine after all.' }), 409, 'no_performer_records');
    expect(await listed(p, video.id)).toMatchObject({ review: 'rejected', appeal: { state: 'pending' } });
    for (const r of records.results) await env.DB.prepare("INSERT INTO item_performers (kind, item_id, show_performer_id) VALUES ('video', ?, ?)").bind(video.id, r.show_performer_id).run();
    // Five operators deciding at once: one decision, one mail, one audit row.
    const before = (await mailsOf(video.id)).length;
    const answers = await Promise.all(Array.from({ length: 5 }, () => op.client.post(`/api/operator/content-appeals/${second}/decide`, { outcome: 'reinstated', answer: 'The record is there again.' })));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    expect((await mailsOf(video.id)).length).toBe(before + 1);
    expect(await count('audit_log', "action = 'content_appeal.reinstated' AND target = ?", `video:${video.id}`)).toBe(2);
    await expectJson(await new Client().get(`/api/videos/${video.ccid}`), 200);
  });
});
