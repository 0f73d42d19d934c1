import type { RealtimeEvent } from '../../shared/realtime';
import type { RootState } from '../state/store';

// Who handles which lobby event: each state slice or feature registers its handlers when its module
// loads (without loading the socket, which main.ts starts lazily); the lobby socket (realtime.ts)
// hands every member event to them and knows no feature itself. One handler per event type: a
// second one for the same type is a programming error (it would silently replace the first).

type EventOf<T extends RealtimeEvent['type']> = Extract<RealtimeEvent, { type: T }>;
const handlers = new Map<string, (store: RootState, event: RealtimeEvent) => void>();

export function onRealtime<T extends RealtimeEvent['type']>(type: T, handle: (store: RootState, event: EventOf<T>) => void): void {
  if (handlers.has(type)) throw new Error(`realtime: a handler for ${type} is already registered`);
  handlers.set(type, handle as (store: RootState, event: RealtimeEvent) => void);
}

export function dispatchRealtime(store: RootState, event: RealtimeEvent): void {
  handlers.get(event.type)?.(store, event);
}
