import type { RoomEvent } from '../../../../shared/chat';
import type { TipAction, TipGoal, TipMenuItem } from '../../../../shared/tips';
import type { Room } from './state';

// The tip menu and the goal in a show's room (issue 30 points 1 and 2). D1 counts the goal (one
// conditional UPDATE in each tip's ledger batch, tips.repo.ts); the worker then reads it and hands
// it here with the tip. Parallel tips' reads can arrive out of order, so the room keeps the
// highest count it sent per goal and never sends a lower one (the bar only moves forward), and
// announces "reached" once per goal (its id kept in storage, so a restart does not repeat it).

/** The newest goal this room instance sent: its id and count. */
const sent = new WeakMap<Room, { id: number; progress: number; state: TipGoal['state'] }>();
const REACHED_KEY = 'tipGoalReached';

function toAll(r: Room, event: RoomEvent): void {
  r.send('performer', event);
  r.send('v', event);
}

/**
 * The goal after a tip or a studio change: sent unless an equal or newer count of the same goal
 * went out already (`force`: the performer changed it). Reaching it is announced once.
 */
export async function goalChanged(r: Room, goal: TipGoal | null, force = false): Promise<void> {
  const last = sent.get(r);
  if (!force && goal && last && (goal.id < last.id || (goal.id === last.id && (goal.progress < last.progress || (goal.progress === last.progress && goal.state === last.state))))) return;
  // Marked before any await: a second tip's call cannot pass the check above meanwhile.
  if (goal) sent.set(r, { id: goal.id, progress: goal.progress, state: goal.state });
  else sent.delete(r);
  let reached = false;
  if (goal?.state === 'reached' && (await r.ctx.storage.get<number>(REACHED_KEY)) !== goal.id) {
    await r.ctx.storage.put(REACHED_KEY, goal.id);
    reached = true;
  }
  toAll(r, reached ? { t: 'goal', goal, reached: true } : { t: 'goal', goal });
}

/** A tip the worker booked (`action`: a tip menu's action): everyone in the room sees it, then the goal it moved. */
export async function tippedFor(r: Room, sessionId: string, coins: number, action: TipAction | null, goal: TipGoal | null): Promise<boolean> {
  const s = r.sessions.get(sessionId);
  if (!s) return false;
  toAll(r, { t: 'tip', from: s.id, nick: s.nick, coins, ts: Date.now(), ...(action ? { action } : {}) });
  if (goal) await goalChanged(r, goal);
  return true;
}

/** The performer saved the tip menu: every open chat shows the new one. */
export function menuChanged(r: Room, menu: TipMenuItem[]): void {
  toAll(r, { t: 'menu', menu });
}
