import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { RecordsPageAnswer } from '../../src/shared/records';
import type { StudioUploadsAnswer } from '../../src/shared/uploads';
import { registerMember } from './account-helpers';
import { performerOf } from './chat-helpers';
import { Client, expectError, expectJson, req } from './helpers';
import { approve, decide, uploadGallery, uploadVideo } from './moderation-helpers';
import { operator } from './operator-helpers';

// The 2257 records (issue 29 point 1, migration 0033): every person in a show is verified by an
// approved application, every upload names the show's verified people it depicts (422 for anyone
// else, nothing stored), moderation approves only items with such a record, and operators list the
// approved items with their people and edit the custodian named on the 2257 page.

const count = async (sql: string, ...params: unknown[]) => (await env.DB.prepare(sql).bind(...params).first<{ n: number }>())!.n;
const stored = async () => ({
  videos: await count('SELECT COUNT(*) AS n FROM videos'),
  galleries: await count('SELECT COUNT(*) AS n FROM galleries'),
  people: await count('SELECT COUNT(*) AS n FROM item_performers'),
});
const video = (performers?: unknown) => ({ title_en: 'Records', title_de: 'Nachweise', price: 10, tags: [], mime: 'video/webm', size: 1000, duration: 10, ...(performers === undefined ? {} : { performers }) });
const gallery = (performers?: unknown) => ({ title_en: 'Records', title_de: 'Nachweise', price: 10, pictures: [{ mime: 'image/png', size: 100, width: 10, height: 10 }], ...(performers === undefined ? {} : { performers }) });

async function peopleOf(p: Client): Promise<{ id: number; stage_name: string }[]> {
  return (await expectJson<StudioUploadsAnswer>(await p.get('/api/studio/uploads'), 200)).people;
}

async function allRecords(c: Client): Promise<RecordsPageAnswer['data']> {
  const out: RecordsPageAnswer['data'] = [];
  for (let page = 1; ; page++) {
    const body = await expectJson<RecordsPageAnswer>(await c.get(`/api/operator/records?page=${page}`), 200);
    out.push(...body.data);
    if (page >= body.last_page) {
      expect(out).toHaveLength(body.total);
      return out;
    }
  }
}

describe('2257 records', () => {
  it('members and performers get 403 on the records routes, visitors 401', async () => {
    const m = await registerMember({ verified: true });
    const p = await performerOf(30);
    for (const c of [m.client, p]) {
      await expectError(await c.get('/api/operator/records'), 403, 'not_operator');
      await expectError(await c.put('/api/operator/records/custodian', { name: 'Mallory', address: 'Nowhere 1' }), 403, 'not_operator');
      expect((await c.get('/operator/records')).status).toBe(403);
    }
    expect((await req('/api/operator/records')).status).toBe(401);
    expect(await env.DB.prepare('SELECT name FROM records_custodian').first('name')).not.toBe('Mallory');
  });

  it("an upload naming a person not verified for the show (or another show's) is refused with 422, nothing stored", async () => {
    const p = await performerOf(31);
    const mine = await peopleOf(p);
    expect(mine).toHaveLength(1);
    const other = (await peopleOf(await performerOf(32)))[0].id;
    const before = await stored();
    for (const bad of [[other], [mine[0].id, other], [999_999]]) {
      await expectError(await p.post('/api/studio/uploads/videos', video(bad)), 422, 'validation_failed', ['performers', 'performer_not_verified']);
      await expectError(await p.post('/api/studio/uploads/galleries', gallery(bad)), 422, 'validation_failed', ['performers', 'performer_not_verified']);
    }
    await expectError(await p.post('/api/studio/uploads/videos', video([])), 422, 'validation_failed', ['performers', 'required']);
    await expectError(await p.post('/api/studio/uploads/galleries', gallery(['x'])), 422, 'validation_failed');
    expect(await stored()).toEqual(before);
    // Named (or left out: all of the show's verified people), the item depicts them.
    const named = await expectJson<{ video: { id: number } }>(await p.post('/api/studio/uploads/videos', video([mine[0].id])), 201);
    expect(await env.DB.prepare("SELECT show_performer_id AS id FROM item_performers WHERE kind = 'video' AND item_id = ?").bind(named.video.id).all()).toMatchObject({ results: [{ id: mine[0].id }] });
  });

  it('moderation refuses to approve an item without a record of its people', async () => {
    const p = await performerOf(33);
    const op = await operator();
    const { id } = await uploadGallery(p, 'No record');
    await env.DB.prepare("DELETE FROM item_performers WHERE kind = 'gallery' AND item_id = ?").bind(id).run();
    await expectError(await decide(op, 'gallery', id, 'approve'), 409, 'no_performer_records');
    expect(await env.DB.prepare('SELECT review FROM galleries WHERE id = ?').bind(id).first('review')).toBe('pending');
    // A rejection needs no record.
    expect((await decide(op, 'gallery', id, 'reject', 'No performer record')).status).toBe(200);
  });

  it('every approved item, seeded or uploaded, is listed with at least one verified person (legal name, date of birth, application)', async () => {
    const p = await performerOf(34);
    const op = await operator();
    const v = await uploadVideo(p, 'Recorded video');
    const g = await uploadGallery(p, 'Recorded gallery');
    await approve(op, 'video', v.id);
    await approve(op, 'gallery', g.id);
    const items = await allRecords(op.client);
    const approved = (await count("SELECT COUNT(*) AS n FROM videos WHERE review = 'approved' AND status = 'published'")) + (await count("SELECT COUNT(*) AS n FROM galleries WHERE review = 'approved' AND status = 'published'"));
    expect(items.length).toBe(approved);
    expect(approved).toBeGreaterThan(100);
    for (const item of items) {
      expect(item.people.length, `${item.kind} ${item.id}`).toBeGreaterThanOrEqual(1);
      for (const person of item.people) {
        expect(person.legal_name.length).toBeGreaterThan(1);
        expect(person.date_of_birth).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect(person.application_id).toBeGreaterThan(0);
        expect(person.decided_at).toBeGreaterThan(0);
      }
    }
    const mine = items.filter((i) => (i.kind === 'video' && i.id === v.id) || (i.kind === 'gallery' && i.id === g.id));
    expect(mine.map((i) => i.people.map((x) => x.stage_name))).toEqual([[mine[0].show_name], [mine[0].show_name]]);
    expect(await op.client.get('/operator/records').then((r) => r.text())).toContain('Recorded video');
  });

  it('the custodian is edited by operators only, validated, audited, and named on the 2257 page', async () => {
    const op = await operator();
    await expectError(await op.client.put('/api/operator/records/custodian', { name: 'x', address: '' }), 422, 'validation_failed', ['name', 'too_short']);
    await expectError(await op.client.put('/api/operator/records/custodian', { name: 'Valid Name', address: 'a'.repeat(501) }), 422, 'validation_failed', ['address', 'too_long']);
    await expectError(await op.client.put('/api/operator/records/custodian', { name: 'Valid Name' }), 422, 'validation_failed', ['address', 'required']);
    expect(await count("SELECT COUNT(*) AS n FROM audit_log WHERE action = 'records.custodian'")).toBe(0);
    const name = `Custodian ${crypto.randomUUID().slice(0, 8)}`;
    const address = 'Recordstraße 7, 20095 Hamburg, Germany';
    await expectJson(await op.client.put('/api/operator/records/custodian', { name, address }), 200);
    const audit = await env.DB.prepare("SELECT actor_id, detail FROM audit_log WHERE action = 'records.custodian'").all<{ actor_id: number; detail: string }>();
    expect(audit.results).toHaveLength(1);
    expect(audit.results[0].actor_id).toBe(op.id);
    expect(JSON.parse(audit.results[0].detail).after).toEqual({ name, address });
    expect((await expectJson<RecordsPageAnswer>(await op.client.get('/api/operator/records'), 200)).custodian).toEqual({ name, address });
    for (const lang of ['en', 'de']) {
      const page = await (await req(`/usc2257?lang=${lang}`)).text();
      expect(page).toContain(name);
      expect(page).toContain('Recordstraße 7');
    }
  });
});
