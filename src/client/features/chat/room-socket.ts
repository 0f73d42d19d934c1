import { parseRoomEvent, type RoomCommand, type RoomEvent } from '../../../shared/chat';
import { openLiveSocket, wsUrl } from '../../lib/live-socket';

// One room socket (viewer or studio): it reconnects with the same session token, so a dropped
// connection rejoins the same session; 'ping' keeps the hibernating room's line warm.

export interface RoomCredentials {
  realm: string;
  login: string;
  password: string;
}

export interface RoomSocket {
  send(cmd: RoomCommand): boolean;
  close(): void;
  reconnect(): void;
  readonly open: boolean;
  /** Connections made so far (1 after the first; tests see a rejoin by it). */
  readonly opens: number;
  /** The credentials of the last (re)connect (the video's ICE endpoint takes the same token). */
  readonly creds: RoomCredentials | null;
}

const PING_MS = 20_000;

export function roomUrl(c: RoomCredentials): string {
  const base = c.realm.startsWith('/') ? wsUrl(c.realm) : c.realm;
  const sep = base.includes('?') ? '&' : '?';
  return `${base}${sep}login=${encodeURIComponent(c.login)}&password=${encodeURIComponent(c.password)}`;
}

export function openRoom(
  creds: () => RoomCredentials | Promise<RoomCredentials>,
  on: { event(e: RoomEvent): void; status(open: boolean): void },
): RoomSocket {
  let last: RoomCredentials | null = null;
  const socket = openLiveSocket({
    url: async () => roomUrl((last = await creds())),
    parse: parseRoomEvent,
    onEvent: on.event,
    onStatus: on.status,
    minDelayMs: 300,
    jitterMs: 500,
    maxDelayMs: 8_000,
    pingMs: PING_MS,
  });
  return {
    send: (cmd) => socket.send(JSON.stringify(cmd)),
    close: () => socket.close(),
    reconnect: () => socket.reconnect(),
    get open() {
      return socket.open;
    },
    get opens() {
      return socket.opens;
    },
    get creds() {
      return last;
    },
  };
}
