// Chat safety (issue 30 point 4): the performer's word list, moderators among the show's regulars,
// timed mutes and kicks. All of it is enforced by the show's live room (server/features/chat/room/
// safety.ts); these are the shapes both sides share and the one matching rule.

/** The durations a moderator (or the performer) may mute a member for, in minutes. */
export const MUTE_MINUTES = [5, 15, 60] as const;
/** Words (or phrases) on one show's list, and the longest one (characters). */
export const BLOCKED_WORDS_MAX = 100;
export const BLOCKED_WORD_MAX_CHARS = 40;
/** Moderators one show may have. */
export const MODERATORS_MAX = 20;

export type ModAct = 'mute' | 'unmute' | 'kick';

/** Client -> room: a moderator's (or the performer's) action on one session of the room. */
export type ModCommand = { t: 'mod'; act: ModAct; sessionId: string; minutes?: number } | { t: 'mod'; invalid: Record<string, string> };

/** Room -> one session's sockets: whether it moderates this room, and until when it is muted (unix ms). */
export interface SafetyEvent {
  t: 'safety';
  moderator: boolean;
  muted_until: number | null;
  /** To the one who acted (and the performer): what was done to whom. */
  done?: { act: ModAct; nick: string; minutes?: number };
}

/** GET /api/studio/chat-safety. */
export interface ChatSafetySettings {
  words: string[];
  moderators: { id: number; nick: string }[];
  /** The show's regulars (members whose chat session in the show ran), newest first: who may be appointed. */
  regulars: { id: number; nick: string; moderator: boolean }[];
}

/** Case and width folded (NFKC, lower case): how a line and a listed word are compared. */
export function foldText(s: string): string {
  return s.normalize('NFKC').toLowerCase();
}

const WORDY = /[\p{L}\p{N}]/u;

/**
 * The first listed word the text contains as a whole word (or phrase): case-insensitive, and
 * not inside a longer word ("ass" holds back "ass!" but not "class"). Null when none.
 * `words` are folded already (foldText).
 */
export function blockedWordIn(text: string, words: readonly string[]): string | null {
  const t = foldText(text);
  for (const w of words) {
    if (!w) continue;
    for (let i = t.indexOf(w); i >= 0; i = t.indexOf(w, i + 1)) {
      const before = i === 0 ? '' : [...t.slice(Math.max(0, i - 2), i)].pop() ?? '';
      const after = [...t.slice(i + w.length, i + w.length + 2)][0] ?? '';
      const edgeStart = !WORDY.test(w[0]) || !before || !WORDY.test(before);
      const edgeEnd = !WORDY.test([...w].pop() ?? '') || !after || !WORDY.test(after);
      if (edgeStart && edgeEnd) return w;
    }
  }
  return null;
}

/** A word list as the performer typed it: cleaned, folded, without duplicates; or the field error. */
export function cleanWordList(raw: unknown): { words: string[] } | { error: string } {
  if (!Array.isArray(raw)) return { error: 'array_required' };
  const out: string[] = [];
  for (const w of raw) {
    if (typeof w !== 'string') return { error: 'string_required' };
    const f = foldText(w).replace(/\s+/gu, ' ').trim();
    if (!f) continue;
    if ([...f].length > BLOCKED_WORD_MAX_CHARS) return { error: 'too_long' };
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f]/.test(f)) return { error: 'invalid' };
    if (!out.includes(f)) out.push(f);
  }
  if (out.length > BLOCKED_WORDS_MAX) return { error: 'too_many' };
  return { words: out };
}

const SESSION_ID = /^[A-Za-z0-9_-]{8,64}$/;

/** A `mod` frame as the room reads it: the command, or its field errors (the room answers them in its error frame). */
export function parseModCommand(v: Record<string, unknown>): ModCommand {
  const invalid: Record<string, string> = {};
  const act = v.act;
  if (act !== 'mute' && act !== 'unmute' && act !== 'kick') invalid.act = 'one_of';
  if (typeof v.sessionId !== 'string' || !SESSION_ID.test(v.sessionId)) invalid.sessionId = 'invalid';
  if (act === 'mute' && !MUTE_MINUTES.includes(v.minutes as (typeof MUTE_MINUTES)[number])) invalid.minutes = 'one_of';
  if (act !== 'mute' && v.minutes !== undefined) invalid.minutes = 'not_allowed';
  if (Object.keys(invalid).length) return { t: 'mod', invalid };
  return { t: 'mod', act: act as ModAct, sessionId: v.sessionId as string, ...(act === 'mute' ? { minutes: v.minutes as number } : {}) };
}
