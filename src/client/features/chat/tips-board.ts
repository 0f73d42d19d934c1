import type { RoomEvent } from '../../../shared/chat';
import type { TipGoal, TipsView } from '../../../shared/tips';
import { api, ApiFailure } from '../../lib/api';
import type { TipsBoard } from './chat.slice';
import { pushNotice, type RoomLines } from './room-lines';

// A live room's tip menu and goal as the viewer's chat and the studio show them (issue 30 points 1
// and 2): loaded when the room welcomes the socket (again after a reconnect), then kept by the
// room's `menu` and `goal` events. `at`: when the goal arrived (browser ms), so its time left is
// counted from then, whatever the device's clock says. Its shape is in chat.slice.ts, so the
// store (part of the entry) does not bring this file and the room's lines into the first load.

function setGoal(board: TipsBoard, goal: TipGoal | null): void {
  // A load that answers after a newer event of the same goal does not move the bar back.
  const now = board.goal;
  if (goal && now && goal.id === now.id && goal.progress < now.progress) return;
  board.goal = goal;
  board.at = Date.now();
}

/** The menu and goal from `path` (chat/tips/show/{id} or chat/tips/studio). */
export async function loadTips(board: TipsBoard, path: string): Promise<void> {
  try {
    const v = await api().get<TipsView>(path);
    board.menu = v.menu;
    setGoal(board, v.goal);
    board.loaded = true;
  } catch {
    // The room's next events still bring them.
  }
}

/** The room's menu and goal events applied (a reached goal is announced in `lines`); false for other events. */
export function applyTipsEvent(lines: RoomLines, board: TipsBoard, e: RoomEvent): boolean {
  if (e.t === 'menu') {
    board.menu = e.menu;
    board.loaded = true;
    return true;
  }
  if (e.t !== 'goal') return false;
  setGoal(board, e.goal);
  board.loaded = true;
  if (e.reached && e.goal) pushNotice(lines, 'chat.goal.reached', { text: e.goal.text });
  return true;
}

/** An idempotency key per menu tip (a retried tip with the same key is booked once). */
const tipKey = () => `m${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;

/** A tip for a menu action in session `sessionId`: 'ok' or the error code. */
export async function sendMenuTip(sessionId: string, item: number): Promise<'ok' | string> {
  try {
    await api().post(`chat/tips/menu/${encodeURIComponent(sessionId)}`, { item, key: tipKey() });
    return 'ok';
  } catch (e) {
    if (!(e instanceof ApiFailure)) return 'chat.tip_failed';
    return e.errors.item?.[0] ?? e.errors.sessionId?.[0] ?? e.message;
  }
}
