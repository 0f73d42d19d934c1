import type { ShowStatus } from '../../../shared/realtime';
import type { Bindings } from '../../env';
import { syncRoom } from '../chat/chat.service';
import { flipRandomShows } from '../shows/shows.service';

// Local development only (SIMULATOR=1): the lobby hub flips two random shows every few seconds
// and their rooms learn it; in a show room, an absent performer is played (requests accepted, a
// canned answer to each line; features/chat/room). The worker's entry (src/server/index.ts)
// registers the tick and the rooms' sync with the lobby hub.

/** The simulator's tick: flips two random shows, answers the changes. */
export const simulateShows = (env: Bindings) => flipRandomShows(env.DB, 2);

/** After a tick: the flipped shows' rooms learn their state. */
export async function syncSimulatedRooms(env: Bindings, changes: ShowStatus[]): Promise<void> {
  for (const c of changes) await syncRoom(env, c.id).catch(() => undefined);
}

// The lines the simulated performer of a demo show answers with. Neutral on purpose; chat content, not interface text.
const LINES = [
  'Hi, nice to see you here!',
  'Thanks for the message :)',
  'How is your day going?',
  'Good question, let me think.',
  'Welcome to my room!',
  'Schön, dass du da bist!',
  'Danke für die Nachricht :)',
];

export function cannedLine(n: number): string {
  return LINES[Math.abs(n) % LINES.length];
}
