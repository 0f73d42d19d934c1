import type { ChatLine, RoomEvent } from '../../../shared/chat';
import type { TipAction } from '../../../shared/tips';

// The lines of a live room as every client of it shows them (the viewer's chat, the partner
// frame, the studio): room lines, tips and notices of our own, and who is typing. One reducer of
// the room's line events; each side keeps a RoomLines in its own state.

/** Lines kept on screen (older ones drop off the top). */
const LINES_KEPT = 300;
/** A typing notice shows this long unless a line of the same sender comes first. */
const TYPING_SHOWN_MS = 4_000;

export type RoomItem =
  | { kind: 'line'; line: ChatLine }
  | { kind: 'tip'; id: string; ts: number; nick: string; coins: number; mine: boolean; action?: TipAction }
  | { kind: 'notice'; id: string; ts: number; key: string; vars?: Record<string, string | number> };

export interface RoomLines {
  items: RoomItem[];
  typing: { nick: string; until: number } | null;
}

const tsOf = (i: RoomItem) => (i.kind === 'line' ? i.line.ts : i.ts);
export const itemKey = (i: RoomItem) => (i.kind === 'line' ? i.line.id : i.id);

/** Only the newest LINES_KEPT items stay. */
function trim(s: RoomLines): void {
  if (s.items.length > LINES_KEPT) s.items.splice(0, s.items.length - LINES_KEPT);
}

function pushItem(s: RoomLines, item: RoomItem): void {
  s.items.push(item);
  trim(s);
}

let noticeSeq = 0;
/**
 * A notice of our own, stamped with the newest item's server time (the browser's clock only when
 * nothing is on screen yet): the browser and server clocks differ, and a rejoin's welcome sorts by
 * time, so the notice stays after the items before it and before those after it.
 */
export function pushNotice(s: RoomLines, key: string, vars?: Record<string, string | number>): void {
  const ts = s.items.length ? Math.max(...s.items.map(tsOf)) : Date.now();
  pushItem(s, { kind: 'notice', id: `n${++noticeSeq}`, ts, key, vars });
}

/**
 * The room's line events (welcome's history, a line, typing, a tip) applied to `s`; `me` is this
 * socket's participant id. Answers whether the event was one of them (others are the caller's).
 */
export function reduceLines(s: RoomLines, e: RoomEvent, me: string | null): boolean {
  switch (e.t) {
    case 'welcome': {
      // A rejoin brings the history again: add the lines missed, keep the rest in time order.
      const known = new Set(s.items.map(itemKey));
      for (const line of e.history) if (!known.has(line.id)) s.items.push({ kind: 'line', line });
      s.items.sort((a, b) => tsOf(a) - tsOf(b));
      trim(s);
      return true;
    }
    case 'line':
      if (s.items.some((i) => i.kind === 'line' && i.line.id === e.line.id)) return true;
      pushItem(s, { kind: 'line', line: e.line });
      if (s.typing?.nick === e.line.nick) s.typing = null;
      return true;
    case 'typing':
      if (e.from !== me) s.typing = { nick: e.nick, until: Date.now() + TYPING_SHOWN_MS };
      return true;
    case 'tip':
      pushItem(s, { kind: 'tip', id: `t${e.ts}-${e.from}`, ts: e.ts, nick: e.nick, coins: e.coins, mine: e.from === me, ...(e.action ? { action: e.action } : {}) });
      return true;
    default:
      return false;
  }
}
