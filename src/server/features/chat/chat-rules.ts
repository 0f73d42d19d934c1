import { minutePrice, SESSION_TYPES, type SessionType } from '../../../shared/chat';
import { exclusiveActive, exclusiveOnly } from '../../../shared/shows';
import { NICKNAME_PATTERN } from '../../../shared/account-rules';
import type { Nickname, User } from '../../../shared/session';

// The spec's rules for starting a chat session, in the order they are checked; pure, so the
// whole catalogue is unit-testable. Each refusal is a catalogue code (spec part 2 section 8).

/** The show columns the chat rules and the studio read (chat.repo.ts selects them). */
export interface ChatShowRow {
  id: number;
  universal_id: string;
  contentprovider_id: number;
  name: string;
  slug_name: string;
  online: number;
  online_since: number | null;
  paused: number;
  open_free: number;
  open_private: number;
  open_exclusive: number;
  open_voyeur: number;
  price_per_minute: number;
  price_factor_exclusive: number;
  flag_free: number;
  flag_exclusive: number;
}

export type Refusal = { status: number; code: string; field?: string };

export function parseSessionType(raw: unknown): SessionType | null {
  return typeof raw === 'string' && (SESSION_TYPES as readonly string[]).includes(raw) ? (raw as SessionType) : null;
}

/** A private request becomes exclusive when the show allows only exclusive. */
export function effectiveType(type: SessionType, show: Pick<ChatShowRow, 'flag_exclusive'>): SessionType {
  return type === 'private' && exclusiveOnly(show.flag_exclusive) ? 'exclusive' : type;
}

export function sessionPrice(type: SessionType, show: Pick<ChatShowRow, 'price_per_minute' | 'price_factor_exclusive'>): number {
  return minutePrice(type, show.price_per_minute, show.price_factor_exclusive);
}

export interface StartCheck {
  type: SessionType;
  show: ChatShowRow;
  user: User | null;
  /** The browser session passed the age check (sessions.agechecked). */
  agechecked: boolean;
  /** The running private or exclusive session of the show, if any. */
  inUse: SessionType | null;
  /** Voice-call mode: a connected phone call pays for the time (no coins needed, no exclusive). */
  byCall?: boolean;
}

const refuse = (code: string, status = 422): Refusal => ({ status, code, field: 'type' });

/**
 * The first reason this session cannot start, or null. The age check applies to the paid types
 * (voyeur, private, exclusive): a member passes it with users.age_verified or the session's
 * passed check; free chat needs a verified e-mail only. In voice-call mode the call pays, so the
 * coins are not checked, and exclusive (not offered in that mode) is refused.
 */
export function startRefusal({ type, show, user, agechecked, inUse, byCall = false }: StartCheck): Refusal | null {
  const paid = type !== 'free';
  if (!user && paid) return { status: 401, code: 'unauthenticated' };
  if (user && !user.is_verified) return refuse('chat.not_verfified');
  if (user && paid && !user.age_verified && !agechecked) return refuse('chat.no_avs');
  if (show.online !== 1) return refuse('chat.show_not_available');
  if (show.paused === 1) return refuse('chat.show_paused');
  if (type === 'free' && (show.flag_free !== 1 || show.open_free !== 1)) return refuse('chat.show_not_available_free');
  if (type === 'exclusive' && (byCall || !exclusiveActive(show.flag_exclusive) || show.open_exclusive !== 1)) return refuse('chat.show_not_available_exclusive');
  if (type === 'private' && show.open_private !== 1) return refuse('chat.show_not_available_private');
  if (type === 'voyeur' && show.open_voyeur !== 1) return refuse('chat.show_not_available_voyeur');
  if (inUse === 'exclusive' && type !== 'free') return refuse('chat.show_not_available_exclusive_in_use');
  if (inUse === 'private' && (type === 'private' || type === 'exclusive')) return refuse('chat.show_not_available_private');
  if (user && paid && !byCall && user.coins < sessionPrice(type, show)) return refuse('chat.no_coins');
  return null;
}

export const GUEST_NICK = 'guest';

/**
 * The nickname a session shows: a member's must be one of their nicknames (their current one
 * when none is sent); a guest's is a valid temporary one or `guest`.
 */
export function chatNick(user: User | null, requested: string | null | undefined): { nick: string } | Refusal {
  const wanted = typeof requested === 'string' ? requested.trim() : '';
  if (!user) return { nick: wanted && NICKNAME_PATTERN.test(wanted) ? wanted : GUEST_NICK };
  const nicks: Nickname[] = user.nicknames.data;
  if (!wanted) {
    const current = nicks.find((n) => n.id === user.nicknames.current_nickname) ?? nicks[0];
    return current ? { nick: current.nickname } : { status: 422, code: 'chat.no_nickname', field: 'nickname' };
  }
  const mine = nicks.find((n) => n.nickname.toLowerCase() === wanted.toLowerCase());
  return mine ? { nick: mine.nickname } : { status: 422, code: 'chat.nickname_not_yours', field: 'nickname' };
}
