// The tip menu and the tip goal of a show (issue 30 points 1 and 2): what the studio edits, what
// the viewer's chat shows and what the room announces. Shared by the worker and the islands.

/** At most this many actions on a tip menu. */
export const TIP_MENU_MAX = 20;
/** Longest text of an action or a goal (characters). */
export const TIP_TEXT_MAX = 80;
/** Price range of an action and of a goal (coins). */
export const TIP_PRICE_MAX = 10_000;
export const TIP_GOAL_MAX = 1_000_000;
/** Longest time limit of a goal (minutes). */
export const TIP_GOAL_MINUTES_MAX = 24 * 60;

/** One action of a show's tip menu. */
export interface TipMenuItem {
  id: number;
  coins: number;
  en: string;
  de: string;
}

/** open: tips count; reached: the amount came in; expired: its time ran out first. */
export type TipGoalState = 'open' | 'reached' | 'expired';

/** A show's current goal as every viewer sees it. */
export interface TipGoal {
  id: number;
  amount: number;
  text: string;
  progress: number;
  state: TipGoalState;
  /** Milliseconds left of its time limit when this was sent (null: no limit); counted from arrival, so a wrong device clock changes nothing. */
  left_ms: number | null;
}

/** GET /api/chat/tips/show/{showId} and GET /api/studio/tips: the menu in its order and the current goal. */
export interface TipsView {
  menu: TipMenuItem[];
  goal: TipGoal | null;
}

/** The action a menu tip was for, in both languages (each reader sees their own). */
export interface TipAction {
  en: string;
  de: string;
}

/** The room's tip events: a tip (with its menu action), the goal after a change (`reached`: this tip reached it), the menu after an edit. */
export type TipRoomEvent =
  | { t: 'tip'; from: string; nick: string; coins: number; ts: number; action?: TipAction }
  | { t: 'goal'; goal: TipGoal | null; reached?: boolean }
  | { t: 'menu'; menu: TipMenuItem[] };
