import type { ChatSafetySettings } from '../../../shared/chat-safety';
import type { Bindings } from '../../env';
import { nowSeconds } from '../../lib/clock';
import { addModerator, blockedWords, moderatorsOf, regularsOf, removeModerator, replaceBlockedWords } from './chat-safety.repo';
import { roomOf } from './chat.service';

// Chat safety for the studio (issue 30 point 4): the show's word list and moderators as the
// performer edits them; after every change the show's live room reads them again (room/safety.ts),
// so a saved word or a new moderator counts from the next line on.

export async function chatSafetySettings(db: D1Database, showId: number): Promise<ChatSafetySettings> {
  const [words, moderators, regulars] = await Promise.all([blockedWords(db, showId), moderatorsOf(db, showId), regularsOf(db, showId)]);
  return { words, moderators, regulars };
}

async function tellRoom(env: Bindings, showId: number): Promise<void> {
  await roomOf(env, showId).safetyChanged();
}

/** Saves the (cleaned) word list whole. */
export async function saveBlockedWords(env: Bindings, showId: number, words: string[]): Promise<void> {
  await replaceBlockedWords(env.DB, showId, words);
  await tellRoom(env, showId);
}

/** Appoints a regular as moderator ('added' and 'exists' are fine; the others are the caller's 422 / 409). */
export async function appointModerator(env: Bindings, showId: number, userId: number): ReturnType<typeof addModerator> {
  const res = await addModerator(env.DB, showId, userId, nowSeconds());
  if (res === 'added') await tellRoom(env, showId);
  return res;
}

export async function dismissModerator(env: Bindings, showId: number, userId: number): Promise<boolean> {
  const removed = await removeModerator(env.DB, showId, userId);
  if (removed) await tellRoom(env, showId);
  return removed;
}
