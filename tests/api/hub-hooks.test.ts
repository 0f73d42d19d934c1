import { describe, expect, it } from 'vitest';
import '../../src/server/index';
import { simulateShows, syncSimulatedRooms } from '../../src/server/features/dev/simulator.service';
import { notifySimulatedOnline } from '../../src/server/features/favorites/favorites.service';
import { hubHooks } from '../../src/server/realtime/hub';

// The lobby hub's simulator hooks are registered by the worker's entry, not by whichever module
// happens to import the simulator: the tick is set, and favourites are told before the rooms sync.
describe('lobby hub hooks', () => {
  it('the entry registers the simulator tick and, in order, the favourites notice then the rooms sync', () => {
    expect(hubHooks.simulate).toBe(simulateShows);
    expect(hubHooks.simulated).toHaveLength(2);
    expect(hubHooks.simulated[0]).toBe(notifySimulatedOnline);
    expect(hubHooks.simulated[1]).toBe(syncSimulatedRooms);
  });
});
