import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { count } from './account-helpers';
import { chatMember, performerOf } from './chat-helpers';
import { Client, expectError, expectJson } from './helpers';
import { operator } from './operator-helpers';

// Issue 29 point 3: a removal offers an appeal too. The performer of a video taken out of the store
// on a report appeals from the studio; an operator upholds it or reinstates the item.

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

    const answers = await Promise.all(Array.from({ length: 5 }, () => p.post('/api/studio/appeals', { kind: 'video', id: video.id, text })));
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
    const queue = await expectJson<{ data: { id: number; kind: string; item_id: number; decision_reason: string; text: string }[] }>(await op.client.get('/api/operator/content-appeals'), 200);
    const appeal = queue.data.find((a) => a.item_id === video.id)!;
    expect(appeal).toMatchObject({ kind: 'video', decision_reason: 'No consent record for the second person.', text });
    expect((await p.get('/api/operator/content-appeals')).status).toBe(403);

    await expectError(await op.client.post(`/api/operator/content-appeals/${appeal.id}/decide`, { outcome: 'maybe', answer: 'We checked the records again.' }), 422, 'validation_failed', ['outcome', 'outcome_invalid']);
    await expectJson(await op.client.post(`/api/operator/content-appeals/${appeal.id}/decide`, { outcome: 'reinstated', answer: 'We checked the records again.' }), 200);
    await expectError(await op.client.post(`/api/operator/content-appeals/${appeal.id}/decide`, { outcome: 'upheld', answer: 'We checked the records again.' }), 409, 'already_decided');
    await expectError(await op.client.post('/api/operator/content-appeals/999999/decide', { outcome: 'upheld', answer: 'We checked the records again.' }), 404, 'not_found');
    await expectJson(await new Client().get(`/api/videos/${video.ccid}`), 200);
    expect(await count('audit_log', "action = 'content_appeal.reinstated' AND target = ?", `video:${video.id}`)).toBe(1);
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
  });
});
