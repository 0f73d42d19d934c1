import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { ChatSafetySettings } from '../../src/shared/chat-safety';
import { roomOf } from '../../src/server/features/chat/chat.service';
import type { ShowRoom } from '../../src/server/features/chat/room/show-room';
import { MODERATORS_MAX } from '../../src/shared/chat-safety';
import { Client, expectError, expectJson } from './helpers';
import { chatMember, joinRoom, liveShow, pinged, startOk, viewer, type RoomSocket } from './chat-helpers';

// Chat safety (issue 30 point 4, shows 121-130): the room refuses moderation from anyone but the
// performer and the moderators, refuses a moderator ending a paid session, keeps a mute across a
// reconnect and a new session, holds back listed words, answers bad input with field errors, and
// parallel moderator actions leave one consistent state.

const SAFETY = '/api/studio/chat-safety';

/** A member who chatted in the show (a regular), still in the room with a free session. */
async function regularIn(showId: number, universalId: string) {
  const m = await chatMember();
  const s = await startOk(m.client, universalId, 'free');
  const room = await viewer(showId, s);
  return { m, s, room };
}

async function appoint(performer: Client, userId: number, room: RoomSocket): Promise<void> {
  await expectJson<ChatSafetySettings>(await performer.post(`${SAFETY}/moderators`, { userId }), 201);
  expect(await room.next('safety', (e) => e.moderator)).toMatchObject({ moderator: true, muted_until: null });
}

describe('chat safety', () => {
  it('only the performer and moderators mute or kick; a moderator cannot ban or end a paid session', async () => {
    const { show, performer, studio } = await liveShow(121);
    const mod = await regularIn(show.id, show.universalId);
    const other = await regularIn(show.id, show.universalId);
    // A regular who is not a moderator: the room refuses.
    other.room.send({ t: 'mod', act: 'mute', sessionId: mod.s.sessionId, minutes: 5 });
    expect((await other.room.next('error')).code).toBe('chat.forbidden');
    other.room.send({ t: 'mod', act: 'kick', sessionId: mod.s.sessionId });
    expect((await other.room.next('error')).code).toBe('chat.forbidden');
    // A member who never chatted here cannot be appointed; a regular can.
    const stranger = await chatMember();
    await expectError(await performer.post(`${SAFETY}/moderators`, { userId: stranger.id }), 422, 'validation_failed', ['userId', 'not_regular']);
    await appoint(performer, mod.m.id, mod.room);
    const settings = await expectJson<ChatSafetySettings>(await performer.get(SAFETY), 200);
    expect(settings.moderators).toEqual([{ id: mod.m.id, nick: mod.m.nick }]);
    expect(settings.regulars.map((r) => r.id).sort()).toEqual([mod.m.id, other.m.id].sort());
    // A paid session (a private request): the moderator may not end it, nor ban, nor end.
    const payer = await chatMember(1000);
    const p = await startOk(payer.client, show.universalId, 'private');
    await studio.next('request');
    mod.room.send({ t: 'mod', act: 'kick', sessionId: p.sessionId });
    expect((await mod.room.next('error')).code).toBe('chat.paid_session');
    mod.room.send({ t: 'ban', sessionId: other.s.sessionId });
    expect((await mod.room.next('error')).code).toBe('chat.forbidden');
    mod.room.send({ t: 'end', sessionId: p.sessionId });
    expect((await mod.room.next('error')).code).toBe('chat.forbidden');
    await runInDurableObject(roomOf(env, show.id), (o: ShowRoom) => expect(o.room.sessions.get(p.sessionId)?.state).toBe('pending'));
    // The moderator kicks the free member: their chat ends; the performer hears it too.
    mod.room.send({ t: 'mod', act: 'kick', sessionId: other.s.sessionId });
    expect((await other.room.next('ended')).reason).toBe('kicked');
    expect((await mod.room.next('safety', (e) => !!e.done)).done).toEqual({ act: 'kick', nick: other.m.nick });
    expect((await studio.next('safety')).done).toEqual({ act: 'kick', nick: other.m.nick });
    // Dismissed: refused again.
    await expectJson(await performer.del(`${SAFETY}/moderators/${mod.m.id}`), 200);
    expect(await mod.room.next('safety', (e) => !e.moderator)).toMatchObject({ moderator: false });
    mod.room.send({ t: 'mod', act: 'mute', sessionId: p.sessionId, minutes: 5 });
    expect((await mod.room.next('error')).code).toBe('chat.forbidden');
    for (const s of [mod.room, studio]) s.ws.close(1000);
  });

  it('a mute refuses the member\'s lines until it ends, across a reconnect and a new session', async () => {
    const { show, performer, studio } = await liveShow(122);
    const mod = await regularIn(show.id, show.universalId);
    await appoint(performer, mod.m.id, mod.room);
    const loud = await chatMember();
    const s = await startOk(loud.client, show.universalId, 'free');
    const room = await viewer(show.id, s);
    const before = Date.now();
    mod.room.send({ t: 'mod', act: 'mute', sessionId: s.sessionId, minutes: 15 });
    const told = await room.next('safety');
    expect(told.muted_until).toBeGreaterThanOrEqual(before + 15 * 60_000);
    // The performer's presence list shows until when (the studio's "muted until" marker).
    // (The member's join is a presence change too, and may arrive after the mute was sent: wait for the marked one.)
    const marked = await studio.next('presence-change', (e) => e.upsert.some((p) => p.id === s.sessionId && p.muted_until !== undefined));
    expect(marked.upsert.find((p) => p.id === s.sessionId)?.muted_until).toBe(told.muted_until);
    room.send({ t: 'say', text: 'hello?' });
    const refused = await room.next('error');
    expect(refused).toEqual({ t: 'error', code: 'chat.muted', until: told.muted_until });
    // The socket drops and comes back: told again at once, still refused.
    room.ws.close(1000);
    const again = await viewer(show.id, s);
    expect((await again.next('safety')).muted_until).toBe(told.muted_until);
    again.send({ t: 'say', text: 'back again' });
    expect((await again.next('error')).code).toBe('chat.muted');
    // A new session of the same member: still muted (the mute is the member's, not the session's).
    await expectJson(await loud.client.post(`/api/chatsession/end/${s.sessionId}`), 200);
    const s2 = await startOk(loud.client, show.universalId, 'free');
    const third = await viewer(show.id, s2);
    third.send({ t: 'say', text: 'new session' });
    expect((await third.next('error')).code).toBe('chat.muted');
    // The room restarts from storage: the mute is still there. The performer unmutes: lines pass.
    await runInDurableObject(roomOf(env, show.id), async (_o: ShowRoom, state: DurableObjectState) => {
      expect(Object.values((await state.storage.get<Record<string, number>>('safety:mutes')) ?? {})).toEqual([told.muted_until]);
    });
    // A studio socket that connects now lists the mute in its presence list; the performer unmutes: lines pass, the marker goes.
    const token = await expectJson<{ login: string; password: string }>(await performer.post('/api/studio/connect'), 200);
    const studio2 = await joinRoom(show.id, token.login, token.password);
    const listed = async () => {
      const e = studio2.events.find((x) => x.t === 'presence' || (x.t === 'presence-change' && x.upsert.some((p) => p.id === s2.sessionId && p.muted_until)));
      return e?.t === 'presence' ? e.participants.find((p) => p.id === s2.sessionId)?.muted_until : e?.t === 'presence-change' ? e.upsert.find((p) => p.id === s2.sessionId)?.muted_until : undefined;
    };
    await studio2.next('welcome');
    await expect.poll(listed).toBe(told.muted_until);
    studio.send({ t: 'mod', act: 'unmute', sessionId: s2.sessionId });
    expect((await third.next('safety', (e) => e.muted_until === null)).muted_until).toBeNull();
    const cleared = await studio2.next('presence-change', (e) => e.upsert.some((p) => p.id === s2.sessionId));
    expect(cleared.upsert.find((p) => p.id === s2.sessionId)?.muted_until).toBeUndefined();
    third.send({ t: 'say', text: 'thanks' });
    expect((await studio.next('line', (e) => e.line.from === s2.sessionId)).line.text).toBe('thanks');
    for (const x of [mod.room, again, third, studio, studio2]) x.ws.close(1000);
  });

  it('a listed word is held back (whole words, any case): the sender is told, nobody else sees it', async () => {
    const { show, performer, studio } = await liveShow(123);
    // The studio's settings are the performer's only.
    expect((await new Client().get(SAFETY)).status).toBe(401);
    expect((await (await chatMember()).client.put(`${SAFETY}/words`, { words: ['x'] })).status).toBe(403);
    await expectError(await performer.put(`${SAFETY}/words`, { words: 'nope' }), 422, 'validation_failed', ['words', 'array_required']);
    await expectError(await performer.put(`${SAFETY}/words`, { words: ['x'.repeat(41)] }), 422, 'validation_failed', ['words', 'too_long']);
    await expectError(await performer.put(`${SAFETY}/words`, { words: Array.from({ length: 101 }, (_, i) => `w${i}`) }), 422, 'validation_failed', ['words', 'too_many']);
    await expectError(await performer.put(`${SAFETY}/words`, { words: [], extra: 1 }), 422, 'validation_failed', ['extra', 'not_allowed']);
    await expectError(await performer.put(`${SAFETY}/words`, 'not json'), 422, 'invalid_body');
    const saved = await expectJson<ChatSafetySettings>(await performer.put(`${SAFETY}/words`, { words: ['Grumble', ' grumble ', 'Bad  Word'] }), 200);
    expect(saved.words).toEqual(['bad word', 'grumble']);
    const a = await startOk(new Client(), show.universalId, 'free', 'Sender');
    const sender = await viewer(show.id, a);
    const b = await startOk(new Client(), show.universalId, 'free', 'Reader');
    const reader = await viewer(show.id, b);
    sender.send({ t: 'say', text: 'what a GRUMBLE!' });
    expect(await sender.next('error')).toEqual({ t: 'error', code: 'chat.held_back' });
    sender.send({ t: 'say', text: 'such a bad word' });
    expect((await sender.next('error')).code).toBe('chat.held_back');
    // Inside a longer word it is not the word: this line goes out, and it is the first anyone hears.
    sender.send({ t: 'say', text: 'grumbled quietly' });
    expect((await reader.next('line')).line.text).toBe('grumbled quietly');
    expect((await studio.next('line')).line.text).toBe('grumbled quietly');
    expect(reader.events.some((e) => e.t === 'line')).toBe(false);
    // The performer's own line is never held back by their own list.
    studio.send({ t: 'say', text: 'grumble' });
    expect((await reader.next('line')).line.text).toBe('grumble');
    for (const x of [sender, reader, studio]) x.ws.close(1000);
  });

  it('bad moderation frames get field errors and change nothing; parallel actions leave one state', async () => {
    const { show, performer, studio } = await liveShow(124);
    const mods = [await regularIn(show.id, show.universalId), await regularIn(show.id, show.universalId)];
    // Ten parallel appointments of one regular: one row.
    const answers = await Promise.all(Array.from({ length: 10 }, () => performer.post(`${SAFETY}/moderators`, { userId: mods[0].m.id })));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    await mods[0].room.next('safety', (e) => e.moderator);
    await appoint(performer, mods[1].m.id, mods[1].room);
    await expectError(await performer.post(`${SAFETY}/moderators`, { userId: 'abc' }), 422, 'validation_failed', ['userId', 'invalid']);
    const target = await chatMember();
    const t = await startOk(target.client, show.universalId, 'free');
    const room = await viewer(show.id, t);
    const m0 = mods[0].room;
    m0.send({ t: 'mod', act: 'mute', sessionId: t.sessionId, minutes: 7 });
    expect(await m0.next('error')).toEqual({ t: 'error', code: 'chat.bad_command', errors: { minutes: 'one_of' } });
    m0.send({ t: 'mod', act: 'shout', sessionId: 'x' });
    expect((await m0.next('error')).errors).toEqual({ act: 'one_of', sessionId: 'invalid' });
    m0.send({ t: 'mod', act: 'kick', sessionId: t.sessionId, minutes: 5 });
    expect((await m0.next('error')).errors).toEqual({ minutes: 'not_allowed' });
    await runInDurableObject(roomOf(env, show.id), (o: ShowRoom) => expect(o.room.sessions.has(t.sessionId)).toBe(true));
    // Both moderators at once: mutes of every length and kicks, interleaved. Each frame is either
    // done or finds the session gone; one kick ends it; the stored mute is the longest one done.
    const start = Date.now();
    for (const [i, mod] of mods.entries()) for (const minutes of [5, 60, 15]) mod.room.send({ t: 'mod', act: 'mute', sessionId: t.sessionId, minutes: i ? minutes : 5 });
    for (const mod of mods) for (let k = 0; k < 3; k++) mod.room.send({ t: 'mod', act: 'kick', sessionId: t.sessionId });
    expect((await room.next('ended')).reason).toBe('kicked');
    await Promise.all(mods.map((x) => pinged(x.room)));
    const replies = mods.flatMap((x) => x.room.events);
    const done = replies.flatMap((e) => (e.t === 'safety' && e.done ? [e.done] : []));
    const gone = replies.filter((e) => e.t === 'error' && e.code === 'chat.no_session');
    expect(done.length + gone.length).toBe(12);
    expect(done.filter((d) => d.act === 'kick')).toHaveLength(1);
    expect(replies.filter((e) => e.t === 'error' && e.code !== 'chat.no_session')).toEqual([]);
    const longest = Math.max(...done.filter((d) => d.act === 'mute').map((d) => d.minutes ?? 0));
    expect(longest).toBeGreaterThanOrEqual(5);
    await runInDurableObject(roomOf(env, show.id), async (o: ShowRoom, state: DurableObjectState) => {
      expect(o.room.sessions.has(t.sessionId)).toBe(false);
      const stored = (await state.storage.get<Record<string, number>>('safety:mutes')) ?? {};
      expect(Object.keys(stored)).toEqual([`u:${target.id}`]);
      expect(stored[`u:${target.id}`]).toBeGreaterThanOrEqual(start + longest * 60_000);
      expect(stored[`u:${target.id}`]).toBeLessThanOrEqual(Date.now() + longest * 60_000);
    });
    expect((await studio.next('ended', (e) => e.sessionId === t.sessionId)).reason).toBe('kicked');
    await pinged(studio);
    expect(studio.events.some((e) => e.t === 'ended' && e.sessionId === t.sessionId)).toBe(false);
    for (const x of [...mods.map((m) => m.room), studio]) x.ws.close(1000);
  });

  it('a burst of 30 appointments at once: exactly 20 moderators, the rest 409 too_many_moderators, nothing else changed', async () => {
    const { show, performer, studio } = await liveShow(125);
    const saved = await expectJson<ChatSafetySettings>(await performer.put(`${SAFETY}/words`, { words: ['keepme'] }), 200);
    const regulars = [];
    for (let i = 0; i < 30; i++) {
      const m = await chatMember(0);
      await startOk(m.client, show.universalId, 'free');
      regulars.push(m);
    }
    const before = await expectJson<ChatSafetySettings>(await performer.get(SAFETY), 200);
    expect(before.regulars).toHaveLength(30);
    expect(before.moderators).toEqual([]);
    const answers = await Promise.all(regulars.map((m) => performer.post(`${SAFETY}/moderators`, { userId: m.id })));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((x) => x === 201)).toHaveLength(MODERATORS_MAX);
    expect(statuses.filter((x) => x === 409)).toHaveLength(30 - MODERATORS_MAX);
    const appointed = new Set(regulars.filter((_, i) => statuses[i] === 201).map((m) => m.id));
    for (const [i, r] of answers.entries()) if (statuses[i] === 409) await expectError(r, 409, 'too_many_moderators');
    const after = await expectJson<ChatSafetySettings>(await performer.get(SAFETY), 200);
    expect(new Set(after.moderators.map((m) => m.id))).toEqual(appointed);
    expect(after.regulars.filter((r) => r.moderator).map((r) => r.id).sort()).toEqual([...appointed].sort());
    expect(after.words).toEqual(saved.words);
    const rows = await env.DB.prepare('SELECT COUNT(*) AS n FROM show_moderators WHERE show_id = ?').bind(show.id).first<{ n: number }>();
    expect(rows?.n).toBe(MODERATORS_MAX);
    // Once one is dismissed, one more may be appointed; the cap holds again after.
    const refused = regulars.filter((m) => !appointed.has(m.id));
    await expectJson(await performer.del(`${SAFETY}/moderators/${[...appointed][0]}`), 200);
    await expectJson(await performer.post(`${SAFETY}/moderators`, { userId: refused[0].id }), 201);
    await expectError(await performer.post(`${SAFETY}/moderators`, { userId: refused[1].id }), 409, 'too_many_moderators');
    studio.ws.close(1000);
  });
});
