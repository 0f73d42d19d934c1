import type { RoomEvent } from '../../../../shared/chat';
import { blockedWordIn, type ModCommand, type SafetyEvent } from '../../../../shared/chat-safety';
import { blockedWords, moderatorIds } from '../chat-safety.repo';
import type { RoomSession } from './logic';
import { keepTimedMutes, whoOf } from './mutes';
import { endSession, now, pushSoon, type Room, type RoomAttachment } from './state';

// Chat safety in the live room (issue 30 point 4; docs/live-rooms.md "Chat safety"): the show's word
// list holds lines back, moderators (appointed by the performer among the show's regulars) and the
// performer mute for a time and kick, and muted members' lines are refused until the mute ends.
// Everything is decided here, never in a browser. Kept beside the room's state (a WeakMap), so the
// room's own files only call in: the word list and moderators come from D1 (read once, again when
// the studio changes them: safetyChanged), the mutes live in the room's storage ('safety:mutes',
// by member or guest browser, so they outlast a reconnect, a new session and an eviction).

interface Safety {
  words: string[];
  moderators: Set<number>;
  /** Muted until (unix ms), by `u:{uid}` or `v:{visitor}`. */
  mutes: Map<string, number>;
}

const MUTES_KEY = 'safety:mutes';
const loaded = new WeakMap<Room, Promise<Safety>>();

async function readRules(r: Room): Promise<Pick<Safety, 'words' | 'moderators'>> {
  const id = r.show?.id;
  if (!id) return { words: [], moderators: new Set() };
  const [words, mods] = await Promise.all([blockedWords(r.env.DB, id), moderatorIds(r.env.DB, id)]);
  return { words, moderators: new Set(mods) };
}

/** The room's safety state, read once per instance (a failed read is tried again next time). */
function safetyOf(r: Room): Promise<Safety> {
  let p = loaded.get(r);
  if (!p) {
    p = (async () => {
      const [rules, stored] = await Promise.all([readRules(r), r.ctx.storage.get<Record<string, number>>(MUTES_KEY)]);
      const st = { ...rules, mutes: new Map(Object.entries(stored ?? {})) };
      // The performer's presence list shows who is muted until when (mutes.ts): the muted ones, now known.
      keepTimedMutes(r, st.mutes);
      mutesChanged(r, (s) => st.mutes.has(whoOf(s)));
      return st;
    })();
    loaded.set(r, p);
    p.catch(() => loaded.delete(r));
  }
  return p;
}

/** The performer's presence list hears again about the sessions `which` picks (their mute changed or became known). */
function mutesChanged(r: Room, which: (s: RoomSession) => boolean): void {
  let any = false;
  for (const s of r.sessions.values()) {
    if (!which(s)) continue;
    r.presenceDirty.add(s.id);
    any = true;
  }
  if (any) pushSoon(r);
}

/** The room's safety state is read (the studio joined: its presence list shows the timed mutes). */
export async function safetyLoaded(r: Room): Promise<void> {
  await safetyOf(r);
}

/** Until when the session's member is muted (null: not muted; an ended mute is forgotten). */
function mutedUntil(st: Safety, s: RoomSession, at: number): number | null {
  const until = st.mutes.get(whoOf(s));
  if (until === undefined) return null;
  if (until > at) return until;
  st.mutes.delete(whoOf(s));
  return null;
}

function stateOf(st: Safety, s: RoomSession, at: number, done?: SafetyEvent['done']): SafetyEvent {
  return { t: 'safety', moderator: s.uid !== null && st.moderators.has(s.uid), muted_until: mutedUntil(st, s, at), ...(done ? { done } : {}) };
}

/**
 * A viewer's line, cleaned: the refusal to send back instead of passing it on (muted: until when;
 * a listed word: held back, nobody else sees it), or null when it may go out.
 */
export async function lineRefusal(r: Room, s: RoomSession, text: string): Promise<RoomEvent | null> {
  const st = await safetyOf(r);
  const until = mutedUntil(st, s, now());
  if (until !== null) return { t: 'error', code: 'chat.muted', until };
  if (blockedWordIn(text, st.words) !== null) return { t: 'error', code: 'chat.held_back' };
  return null;
}

/** A session's sockets joined: a moderator or a muted member hears so (after the welcome). */
export async function safetyJoined(r: Room, s: RoomSession): Promise<void> {
  const st = await safetyOf(r);
  const e = stateOf(st, s, now());
  if (e.moderator || e.muted_until !== null) r.send(`s:${s.id}`, e, s.shard);
}

/** The studio changed the word list or the moderators: read them again; sessions whose role changed are told. */
export async function safetyChanged(r: Room): Promise<void> {
  const st = await safetyOf(r);
  const rules = await readRules(r);
  const before = st.moderators;
  Object.assign(st, rules);
  for (const s of r.sessions.values()) {
    if (s.uid !== null && before.has(s.uid) !== st.moderators.has(s.uid)) r.send(`s:${s.id}`, stateOf(st, s, now()), s.shard);
  }
}

/**
 * A `mod` frame (performer or moderator): mute for minutes, unmute, or kick a member out of the
 * free chat. A moderator may not act on the performer, themselves or another moderator, and may
 * not end a paid session (private, exclusive, voyeur, or a request for one): the room refuses.
 * Ban and ending a paid session stay the performer's commands (lines.ts).
 */
export async function modCommand(r: Room, a: RoomAttachment, cmd: ModCommand, reply: (e: RoomEvent) => void): Promise<void> {
  if ('invalid' in cmd) return reply({ t: 'error', code: 'chat.bad_command', errors: cmd.invalid });
  const st = await safetyOf(r);
  const performer = a.role === 'performer';
  const actor = performer ? null : r.sessions.get(a.sid);
  if (!performer && (!actor || actor.uid === null || !st.moderators.has(actor.uid))) return reply({ t: 'error', code: 'chat.forbidden' });
  const s = r.sessions.get(cmd.sessionId);
  if (!s) return reply({ t: 'error', code: 'chat.no_session' });
  if (!performer && (s === actor || (s.uid !== null && st.moderators.has(s.uid)))) return reply({ t: 'error', code: 'chat.forbidden' });
  const at = now();
  if (cmd.act === 'kick') {
    if (!performer && s.type !== 'free') return reply({ t: 'error', code: 'chat.paid_session' });
    await endSession(r, s, 'kicked');
  } else {
    const who = whoOf(s);
    if (cmd.act === 'mute') st.mutes.set(who, Math.max(mutedUntil(st, s, at) ?? 0, at + (cmd.minutes ?? 0) * 60_000));
    else st.mutes.delete(who);
    for (const [k, until] of st.mutes) if (until <= at) st.mutes.delete(k);
    await r.ctx.storage.put(MUTES_KEY, Object.fromEntries(st.mutes));
    for (const x of r.sessions.values()) if (whoOf(x) === who) r.send(`s:${x.id}`, stateOf(st, x, at), x.shard);
    mutesChanged(r, (x) => whoOf(x) === who);
  }
  const done = { act: cmd.act, nick: s.nick, ...(cmd.act === 'mute' ? { minutes: cmd.minutes } : {}) };
  r.send('performer', { t: 'safety', moderator: false, muted_until: null, done });
  if (actor) reply(stateOf(st, actor, at, done));
}
