import { createApp } from './app';
import type { Bindings } from './env';
import { simulateShows, syncSimulatedRooms } from './features/dev/simulator.service';
import { notifySimulatedOnline } from './features/favorites/favorites.service';
import { housekeeping } from './features/system/housekeeping';
import { hubHooks } from './realtime/hub';

export { LobbyHub } from './realtime/hub';
export { Lobby } from './realtime/lobby';
export { ShowRoom } from './features/chat/room/show-room';
export { RoomShard } from './features/chat/room/shard';

// The lobby hub's simulator (local development, SIMULATOR=1), registered here rather than by
// whichever module happens to load first. Order matters: favourites are notified before the rooms sync.
hubHooks.simulate = simulateShows;
hubHooks.simulated = [notifySimulatedOnline, syncSimulatedRooms];

const app = createApp();

export default {
  fetch: app.fetch,
  // The daily cron (wrangler.toml [triggers]): retention deletes (features/system/housekeeping.ts).
  scheduled: (_controller, env, ctx) => ctx.waitUntil(housekeeping(env)),
} satisfies ExportedHandler<Bindings>;
