import { WebSocket as ReconnectingWebSocket } from 'partysocket';
import { parseRoomEvent, type RoomCommand, type RoomEvent } from '../../../shared/chat';

// One room socket (viewer or studio): partysocket reconnects with the same session token, so a
// dropped connection rejoins the same session; 'ping' keeps the hibernating room's line warm.

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
  const base = c.realm.startsWith('/') ? `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${c.realm}` : c.realm;
  const sep = base.includes('?') ? '&' : '?';
  return `${base}${sep}login=${encodeURIComponent(c.login)}&password=${encodeURIComponent(c.password)}`;
}

export function openRoom(
  creds: () => RoomCredentials | Promise<RoomCredentials>,
  on: { event(e: RoomEvent): void; status(open: boolean): void },
): RoomSocket {
  let last: RoomCredentials | null = null;
  const ws = new ReconnectingWebSocket(async () => roomUrl((last = await creds())), undefined, {
    minReconnectionDelay: 300 + Math.random() * 500,
    maxReconnectionDelay: 8_000,
    connectionTimeout: 6_000,
  });
  let opens = 0;
  ws.addEventListener('open', () => {
    opens++;
    on.status(true);
  });
  ws.addEventListener('close', () => on.status(false));
  ws.addEventListener('message', (m: MessageEvent) => {
    const e = parseRoomEvent(m.data);
    if (e) on.event(e);
  });
  const ping = setInterval(() => {
    if (ws.readyState === ws.OPEN) ws.send('ping');
  }, PING_MS);
  return {
    send(cmd) {
      if (ws.readyState !== ws.OPEN) return false;
      ws.send(JSON.stringify(cmd));
      return true;
    },
    close() {
      clearInterval(ping);
      ws.close();
    },
    reconnect() {
      ws.reconnect();
    },
    get open() {
      return ws.readyState === ws.OPEN;
    },
    get opens() {
      return opens;
    },
    get creds() {
      return last;
    },
  };
}
