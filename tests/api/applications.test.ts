import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/app';
import type { ApplicationView, MyApplication } from '../../src/shared/applications';
import { lastMail, registerMember, type Member } from './account-helpers';
import { performerOf } from './chat-helpers';
import { Client, expectError, expectJson, req } from './helpers';
import { operator } from './operator-helpers';

// Performer applications (issue 29 point 1): the ID document and the selfie are in a private
// bucket under random keys that only the operators' document route reads; bad input changes
// nothing; an approval makes the show and the studio login at once; a rejection's documents are
// deleted once due.

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const enc = new TextEncoder();

/** A small "PNG" (its signature and a marker no other answer of the app can contain by chance). */
function pngWith(marker: string, extra = 0): Uint8Array<ArrayBuffer> {
  return new Uint8Array([...PNG, ...enc.encode(marker), ...new Uint8Array(extra)]);
}

const marker = () => `IDDOC-${crypto.randomUUID()}`;
const isoYearsAgo = (years: number, days = 0) => {
  const d = new Date();
  d.setUTCFullYear(d.getUTCFullYear() - years);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

const goodFields = (stage: string) => ({ legal_name: 'Erika Mustermann', date_of_birth: isoYearsAgo(25), country: 'DE', stage_name: stage, consent: 'yes' });
const stageName = () => `Star ${crypto.randomUUID().slice(0, 8)}`;

/** POST /api/applications as a browser's form does (multipart, with the client's cookies and CSRF header). */
async function apply(c: Client, fields: Record<string, string>, files: Record<string, Uint8Array<ArrayBuffer> | null>): Promise<Response> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  for (const [k, v] of Object.entries(files)) if (v) form.set(k, new File([v], `${k}.png`, { type: 'image/png' }));
  const packed = new Request('http://form/', { method: 'POST', body: form });
  if (!c.jar.has('XSRF-TOKEN')) await c.csrf();
  const res = await req('/api/applications', {
    method: 'POST',
    headers: { 'CF-Connecting-IP': c.ip, 'X-XSRF-TOKEN': c.cookie('XSRF-TOKEN') ?? '', Cookie: c.cookieHeader, 'Content-Type': packed.headers.get('Content-Type')! },
    body: await packed.arrayBuffer(),
  });
  c.absorb(res);
  return res;
}

interface Applied {
  member: Member;
  id: number;
  markers: { id: string; selfie: string };
  keys: { id: string; selfie: string };
}

async function applied(member?: Member): Promise<Applied> {
  const m = member ?? (await registerMember({ verified: true }));
  const markers = { id: marker(), selfie: marker() };
  const body = await expectJson<{ id: number; application: MyApplication }>(await apply(m.client, goodFields(stageName()), { id_document: pngWith(markers.id), selfie: pngWith(markers.selfie) }), 201);
  expect(body.application.state).toBe('submitted');
  const row = await env.DB.prepare('SELECT id_document_key, selfie_key FROM applications WHERE id = ?').bind(body.id).first<{ id_document_key: string; selfie_key: string }>();
  return { member: m, id: body.id, markers, keys: { id: row!.id_document_key, selfie: row!.selfie_key } };
}

async function stored(): Promise<{ rows: number; objects: number }> {
  const rows = (await env.DB.prepare('SELECT COUNT(*) AS n FROM applications').first<{ n: number }>())!.n;
  return { rows, objects: (await env.IDDOCS.list()).objects.length };
}

const text = async (res: Response) => new TextDecoder('latin1').decode(await res.arrayBuffer());

describe('performer applications', () => {
  it('an application is stored with random keys in the private bucket; only operators read the documents', async () => {
    const a = await applied();
    for (const key of [a.keys.id, a.keys.selfie]) {
      expect(key).toMatch(/^(id|selfie)\/[0-9a-f]{64}$/);
      expect(await env.MEDIA.head(key)).toBeNull();
    }
    expect(await text(new Response((await env.IDDOCS.get(a.keys.id))!.body))).toContain(a.markers.id);
    const b = await applied();
    expect(b.keys.id).not.toBe(a.keys.id);

    const mine = await expectJson<{ application: MyApplication }>(await a.member.client.get('/api/applications/mine'), 200);
    expect(mine.application).toMatchObject({ id: a.id, state: 'submitted', message: null });

    const op = await operator();
    const queue = await expectJson<{ data: ApplicationView[] }>(await op.client.get('/api/operator/applications?state=submitted'), 200);
    const ids = queue.data.map((x) => x.id);
    expect(ids.indexOf(a.id)).toBeLessThan(ids.indexOf(b.id));
    expect(queue.data.find((x) => x.id === a.id)).toMatchObject({ stage_name: expect.any(String), age: 25, country: 'DE', documents: { id: `/api/operator/applications/${a.id}/documents/id` } });

    const doc = await op.client.get(`/api/operator/applications/${a.id}/documents/id`);
    expect(doc.status).toBe(200);
    expect(doc.headers.get('Cache-Control')).toBe('no-store');
    expect(doc.headers.get('Content-Type')).toBe('image/png');
    expect(await text(doc)).toContain(a.markers.id);
    expect(await text(await op.client.get(`/api/operator/applications/${a.id}/documents/selfie`))).toContain(a.markers.selfie);
    // Unknown application, unknown document, a key in the path: 404.
    for (const path of [`/api/operator/applications/999999/documents/id`, `/api/operator/applications/${a.id}/documents/passport`, `/api/operator/applications/${a.id}/documents/${a.keys.id}`]) {
      expect((await op.client.get(path)).status, path).toBe(404);
    }

    const visitor = new Client();
    const other = (await registerMember({ verified: true })).client;
    const performer = await performerOf(201);
    for (const which of ['id', 'selfie']) {
      const path = `/api/operator/applications/${a.id}/documents/${which}`;
      await expectError(await visitor.get(path), 401, 'unauthenticated');
      for (const someone of [a.member.client, other, performer]) await expectError(await someone.get(path), 403, 'not_operator');
    }
  });

  it('no other route of the app answers a document, whatever its path is filled with', async () => {
    const a = await applied();
    const op = await operator();
    const hex = a.keys.id.split('/')[1];
    const fills = [String(a.id), a.keys.id, hex, encodeURIComponent(a.keys.id), a.keys.selfie.split('/')[1]];
    const paths = new Set<string>();
    for (const r of createApp().routes) {
      if (r.method !== 'GET' && r.method !== 'ALL') continue;
      if (r.path.startsWith('/api/operator/applications/')) continue;
      for (const fill of fills) paths.add(r.path.replace(/:(\w+)(\{[^}]*\})?/g, fill).replace(/\*/g, fill));
    }
    expect(paths.size).toBeGreaterThan(100);
    for (const path of paths) {
      for (const c of [a.member.client, op.client]) {
        const res = await c.get(path);
        const body = await text(res);
        expect(body.includes(a.markers.id) || body.includes(a.markers.selfie), `${path} answered a document`).toBe(false);
      }
    }
  }, 300_000);

  it('bad input is refused with 422 per field and writes nothing', async () => {
    const m = await registerMember({ verified: true });
    const before = await stored();
    const ok = { id_document: pngWith(marker()), selfie: pngWith(marker()) };
    const cases: [Record<string, string>, Record<string, Uint8Array<ArrayBuffer> | null>, Record<string, string>][] = [
      [{}, {}, { legal_name: 'required', date_of_birth: 'required', country: 'country_invalid', stage_name: 'required', consent: 'consent_required', id_document: 'file_required', selfie: 'file_required' }],
      [goodFields(stageName()), { id_document: new Uint8Array([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 1, 2]), selfie: ok.selfie }, { id_document: 'file_type' }],
      [goodFields(stageName()), { id_document: ok.id_document, selfie: pngWith('big', 5 * 1024 * 1024) }, { selfie: 'file_too_large' }],
      [{ ...goodFields(stageName()), country: 'XX' }, ok, { country: 'country_invalid' }],
      [{ ...goodFields(stageName()), stage_name: 'ab' }, ok, { stage_name: 'too_short' }],
      [{ ...goodFields(stageName()), stage_name: '<script>x' }, ok, { stage_name: 'stage_name_invalid' }],
      [{ ...goodFields(stageName()), stage_name: 'x'.repeat(25) }, ok, { stage_name: 'too_long' }],
      [{ ...goodFields(stageName()), date_of_birth: isoYearsAgo(18, 1) }, ok, { date_of_birth: 'under_18' }],
      [{ ...goodFields(stageName()), date_of_birth: '2000-02-30' }, ok, { date_of_birth: 'invalid_date' }],
      [{ ...goodFields(stageName()), consent: 'no' }, ok, { consent: 'consent_required' }],
    ];
    for (const [fields, files, errors] of cases) {
      const res = await apply(m.client, fields, files);
      const body = await expectJson<{ message: string; errors: Record<string, string[]> }>(res, 422);
      for (const [field, code] of Object.entries(errors)) expect(body.errors[field], `${JSON.stringify(errors)}: ${JSON.stringify(body.errors)}`).toContain(code);
    }
    // Exactly 18 today is old enough (checked below with an application that succeeds).
    // A show's name is taken; JSON instead of a form; a visitor; an unverified member.
    const show = (await env.DB.prepare('SELECT name FROM shows ORDER BY id LIMIT 1').first<{ name: string }>())!.name;
    const taken = await expectJson<{ errors: Record<string, string[]> }>(await apply(m.client, { ...goodFields(show) }, ok), 422);
    expect(taken.errors.stage_name).toContain('stage_name_taken');
    await expectError(await m.client.post('/api/applications', goodFields(stageName())), 422, 'invalid_body');
    await expectError(await apply(new Client(), goodFields(stageName()), ok), 401, 'unauthenticated');
    await expectError(await apply((await registerMember()).client, goodFields(stageName()), ok), 403, 'not_verified');
    expect(await stored()).toEqual(before);

    // One open application per member: the second is refused and writes nothing either.
    await expectJson(await apply(m.client, { ...goodFields(stageName()), date_of_birth: isoYearsAgo(18) }, ok), 201);
    const after = await stored();
    await expectError(await apply(m.client, goodFields(stageName()), ok), 409, 'application_open');
    // A performer cannot apply.
    await expectError(await apply(await performerOf(202), goodFields(stageName()), ok), 409, 'already_performer');
    expect(await stored()).toEqual(after);
  });

  it('an approval makes the show and the performers row: the applicant opens the studio at once', async () => {
    const a = await applied();
    const op = await operator();
    // Members and performers cannot decide (operator-door.test.ts checks every operator route).
    await expectError(await a.member.client.post(`/api/operator/applications/${a.id}/decide`, { decision: 'approve', reason: 'mine' }), 403, 'not_operator');
    await expectError(await op.client.post(`/api/operator/applications/${a.id}/decide`, { decision: 'approve' }), 422, 'validation_failed');
    expect((await a.member.client.post('/api/studio/connect', {})).status).toBe(403);

    const res = await expectJson<{ application: { state: string; show_id: number } }>(await op.client.post(`/api/operator/applications/${a.id}/decide`, { decision: 'approve', reason: 'ID and selfie match' }), 200);
    expect(res.application.state).toBe('approved');
    const show = await env.DB.prepare('SELECT s.*, p.user_id FROM shows s JOIN performers p ON p.show_id = s.id WHERE s.id = ?').bind(res.application.show_id).first<Record<string, unknown>>();
    const row = await env.DB.prepare('SELECT stage_name FROM applications WHERE id = ?').bind(a.id).first<{ stage_name: string }>();
    expect(show).toMatchObject({ name: row!.stage_name, age: 25, country: 'DE', online: 0, flag_free: 1, user_id: a.member.id, languages: 'en' });
    expect(String(show!.slogan_de)).toContain(row!.stage_name);

    const connect = await expectJson<{ login: string }>(await a.member.client.post('/api/studio/connect', {}), 200);
    expect(connect.login).toBe('performer');
    expect((await a.member.client.me())?.performer_show).toBe(res.application.show_id);
    // The applicant is the new show's first verified person (the 2257 records, migration 0033).
    expect(await env.DB.prepare('SELECT show_id FROM show_performers WHERE application_id = ?').bind(a.id).first('show_id')).toBe(res.application.show_id);
    expect((await lastMail(a.member.email, 'application_approved')).text).toContain('ID and selfie match');
    const audit = await env.DB.prepare("SELECT * FROM audit_log WHERE action = 'application.approve' AND target = ?").bind(`user:${a.member.id}`).first<{ reason: string }>();
    expect(audit?.reason).toBe('ID and selfie match');
    // Once only; the documents are kept as the 2257 records.
    await expectError(await op.client.post(`/api/operator/applications/${a.id}/decide`, { decision: 'reject', reason: 'again' }), 409, 'already_decided');
    expect(await env.IDDOCS.head(a.keys.id)).not.toBeNull();
  });

  it("a co-performer invited by a show's performer applies to join it; the approval adds them to that show, not a new one", async () => {
    const showId = 52;
    const performer = await performerOf(showId);
    const m = await registerMember({ verified: true });
    const join = { ...goodFields(stageName()), join_show: String(showId) };
    const files = () => ({ id_document: pngWith(marker()), selfie: pngWith(marker()) });
    // Without the show's invitation the application is refused, nothing stored.
    const before = await stored();
    await expectError(await apply(m.client, join, files()), 422, 'validation_failed', ['join_show', 'not_invited']);
    expect(await stored()).toEqual(before);
    // The performer invites the member's account by its name (an unknown name is a field error).
    await expectError(await performer.post('/api/studio/invites', { name: `nobody-${crypto.randomUUID()}` }), 422, 'validation_failed', ['name', 'unknown_member']);
    await expectError(await m.client.post('/api/studio/invites', { name: m.name }), 403, 'not_performer');
    await expectJson(await performer.post('/api/studio/invites', { name: m.name }), 201);
    await expectError(await performer.post('/api/studio/invites', { name: m.name }), 409, 'already_invited');

    const { id } = await expectJson<{ id: number }>(await apply(m.client, join, files()), 201);
    const op = await operator();
    // The operators' queue says which show it asks to join.
    const queue = await expectJson<{ data: ApplicationView[] }>(await op.client.get('/api/operator/applications'), 200);
    const showName = await env.DB.prepare('SELECT name FROM shows WHERE id = ?').bind(showId).first('name');
    expect(queue.data.find((x) => x.id === id)).toMatchObject({ join_show_id: showId, join_show_name: showName });
    const shows = (await env.DB.prepare('SELECT COUNT(*) AS n FROM shows').first<{ n: number }>())!.n;
    const res = await expectJson<{ application: { state: string; show_id: number } }>(await op.client.post(`/api/operator/applications/${id}/decide`, { decision: 'approve', reason: 'ID matches' }), 200);
    expect(res.application).toMatchObject({ state: 'approved', show_id: showId });
    expect((await env.DB.prepare('SELECT COUNT(*) AS n FROM shows').first<{ n: number }>())!.n).toBe(shows);
    const people = await env.DB.prepare('SELECT show_id, added_by FROM show_performers WHERE application_id = ?').bind(id).all();
    expect(people.results).toEqual([{ show_id: showId, added_by: op.id }]);
    // A co-performer has no studio login of their own; the show's studio now offers them for uploads.
    expect((await m.client.me())?.performer_show).toBeNull();
    expect((await m.client.post('/api/studio/connect', {})).status).toBe(403);
    const studio = await expectJson<{ people: { id: number; stage_name: string }[]; invites: unknown[] }>(await performer.get('/api/studio/invites'), 200);
    expect(studio.people.map((p) => p.stage_name)).toContain(join.stage_name);
    expect(studio.people).toHaveLength(2);
    expect(studio.invites).toEqual([]);
    // An upload may name the co-performer alone.
    const coPerformer = studio.people.find((p) => p.stage_name === join.stage_name)!.id;
    const gallery = { title_en: 'Duo', title_de: 'Duo', price: 5, pictures: [{ mime: 'image/png', size: 100, width: 10, height: 10 }], performers: [coPerformer] };
    const made = await expectJson<{ gallery: { id: number } }>(await performer.post('/api/studio/uploads/galleries', gallery), 201);
    const depicted = await env.DB.prepare("SELECT show_performer_id AS id FROM item_performers WHERE kind = 'gallery' AND item_id = ?").bind(made.gallery.id).all();
    expect(depicted.results).toEqual([{ id: coPerformer }]);
  });

  it('a rejection tells the applicant why and deletes the documents once due', async () => {
    const a = await applied();
    const op = await operator();
    await expectJson(await op.client.post(`/api/operator/applications/${a.id}/decide`, { decision: 'reject', reason: 'The ID is expired' }), 200);
    const mine = await expectJson<{ application: MyApplication }>(await a.member.client.get('/api/applications/mine'), 200);
    expect(mine.application).toMatchObject({ state: 'rejected', message: 'The ID is expired' });
    expect((await lastMail(a.member.email, 'application_rejected')).text).toContain('The ID is expired');
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM audit_log WHERE action = 'application.reject' AND reason = 'The ID is expired'").first('n')).toBe(1);
    // Kept during the retention period.
    expect(await env.IDDOCS.head(a.keys.id)).not.toBeNull();
    expect((await op.client.get(`/api/operator/applications/${a.id}/documents/id`)).status).toBe(200);

    // Due: the next decision deletes them.
    await env.DB.prepare('UPDATE applications SET delete_after = ? WHERE id = ?').bind(Math.floor(Date.now() / 1000) - 1, a.id).run();
    const b = await applied();
    await expectJson(await op.client.post(`/api/operator/applications/${b.id}/decide`, { decision: 'more_info', reason: 'Please send a clearer selfie' }), 200);
    expect(await env.IDDOCS.head(a.keys.id)).toBeNull();
    expect(await env.IDDOCS.head(a.keys.selfie)).toBeNull();
    expect((await op.client.get(`/api/operator/applications/${a.id}/documents/id`)).status).toBe(404);
    // Not yet due: b's are kept; b may apply again after "more info".
    expect(await env.IDDOCS.head(b.keys.id)).not.toBeNull();
    expect((await expectJson<{ application: MyApplication }>(await b.member.client.get('/api/applications/mine'), 200)).application).toMatchObject({ state: 'more_info', message: 'Please send a clearer selfie' });
    await applied(b.member);
  });
});

describe('application pages', () => {
  it('/camgirl_werden leads to /apply; a visitor logs in first; the member sees the form, then the state; the 2257 page names the custodian', async () => {
    const info = await new Client().get('/camgirl_werden');
    expect(await info.text()).toContain('href="/apply"');
    const visitor = await new Client().get('/apply');
    expect([visitor.status, visitor.headers.get('Location')]).toEqual([302, '/login?redirect=%2Fapply']);
    const m = await registerMember({ verified: true });
    const form = await m.client.get('/apply');
    expect(form.status).toBe(200);
    expect(await form.text()).toContain('data-island="ApplyForm"');
    const a = await applied(m);
    const page = await (await m.client.get('/apply')).text();
    expect(page).toContain('data-state="submitted"');
    expect(page).not.toContain('data-island="ApplyForm"');
    const op = await operator();
    const queue = await (await op.client.get('/operator/applications')).text();
    expect(queue).toContain(`/api/operator/applications/${a.id}/documents/id`);
    expect(await (await op.client.get('/operator')).text()).toContain('href="/operator/applications"');
    await env.DB.prepare("UPDATE records_custodian SET name = 'Jane Custodian', address = '2 Record Road, Springfield' WHERE id = 1").run();
    for (const lang of ['en', 'de']) {
      const text = await (await new Client().get(`/usc2257`, { 'Accept-Language': lang })).text();
      expect(text).toContain('Jane Custodian, 2 Record Road, Springfield');
    }
  });
});
