import { createApp } from './app';
import { simulateShows, syncSimulatedRooms } from './features/dev/simulator.service';
import { notifySimulatedOnline } from './features/favorites/favorites.service';
import { hubHooks } from './realtime/hub';

export { LobbyHub } from './realtime/hub';
export { Lobby } from './realtime/lobby';
export { ShowRoom } from './features/chat/room/show-room';
export { RoomShard } from './features/chat/room/shard';

// The lobby hub's simulator (local development, SIMULATOR=1), registered here rather than by
// whichever module happens to load first. Order matters: favourites are notified before the rooms sync.
hubHooks.simulate = simulateShows;
hubHooks.simulated = [notifySimulatedOnline, syncSimulatedRooms];

export default createApp();
