import { proxy } from 'valtio';
import type { RoomEvent } from '../../../shared/chat';
import type { ModAct, SafetyEvent } from '../../../shared/chat-safety';
import { conn } from './chat-state';

// Chat safety on the viewer's side (issue 30 point 4): whether this member moderates the room and
// until when they are muted, as the room says (room/safety.ts decides everything; this only
// shows it), the moderator's actions sent to the room, and the notices of both in the chat.

export const safety = proxy<{ moderator: boolean; mutedUntil: number | null }>({ moderator: false, mutedUntil: null });

/** A time of day in the page's language ("14:05"). */
export function clockTime(ms: number): string {
  const lang = typeof document !== 'undefined' ? document.documentElement.lang || undefined : undefined;
  return new Date(ms).toLocaleTimeString(lang, { hour: '2-digit', minute: '2-digit' });
}

/** The notice for a room error of chat safety (null: not one of them). */
export function safetyErrorNotice(e: Extract<RoomEvent, { t: 'error' }>): { key: string; vars?: Record<string, string | number> } | null {
  if (e.code === 'chat.muted' && typeof e.until === 'number') return { key: 'chat.safety.mutedUntil', vars: { time: clockTime(e.until) } };
  if (e.code === 'chat.held_back') return { key: 'chat.safety.heldBack' };
  if (e.code === 'chat.paid_session') return { key: 'chat.safety.paidSession' };
  if (e.code === 'chat.no_session') return { key: 'chat.safety.noSession' };
  return null;
}

/** The room's safety event for this session: the state kept, and the notice to show (null: none). */
export function onSafety(e: SafetyEvent): { key: string; vars?: Record<string, string | number> } | null {
  const was = { ...safety };
  safety.moderator = e.moderator;
  safety.mutedUntil = e.muted_until;
  if (e.done) return { key: `chat.safety.done.${e.done.act}`, vars: { nick: e.done.nick, minutes: e.done.minutes ?? 0 } };
  if (e.muted_until !== null && e.muted_until !== was.mutedUntil) return { key: 'chat.safety.mutedUntil', vars: { time: clockTime(e.muted_until) } };
  if (e.muted_until === null && was.mutedUntil !== null) return { key: 'chat.safety.unmuted' };
  if (e.moderator !== was.moderator) return { key: e.moderator ? 'chat.safety.appointed' : 'chat.safety.dismissed' };
  return null;
}

export function resetSafety(): void {
  safety.moderator = false;
  safety.mutedUntil = null;
}

/** A moderator's action on the sender of a line. */
export function moderate(sessionId: string, act: ModAct, minutes?: number): boolean {
  return conn.socket?.send(act === 'mute' ? { t: 'mod', act, sessionId, minutes } : { t: 'mod', act, sessionId }) ?? false;
}
