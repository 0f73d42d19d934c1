import { WebSocket as ReconnectingWebSocket } from 'partysocket';

// The one reconnecting socket of the client (partysocket), used by the lobby (lib/realtime.ts)
// and by the show rooms (features/chat/room-socket.ts): it parses each message into an event,
// counts connections (tests see a reconnect by it), reports open/closed and, when asked, sends
// 'ping' to keep a hibernating room's line warm.

export interface LiveSocket {
  /** Sends a text frame when open; false when the socket is not open. */
  send(data: string): boolean;
  /** Closes the socket and stops reconnecting (and pinging). */
  close(): void;
  /** Connects again (resetting the backoff). */
  reconnect(): void;
  readonly open: boolean;
  /** Connections made so far (1 after the first). */
  readonly opens: number;
}

export interface LiveSocketOptions<E> {
  /** Asked before every (re)connect. */
  url: (() => string) | (() => Promise<string>);
  parse: (data: unknown) => E | null;
  onEvent: (event: E) => void;
  /** After every open (with the count so far) and every close. */
  onStatus: (open: boolean, opens: number) => void;
  /** The first reconnect waits minDelayMs plus up to jitterMs (so a server restart is not met by every client at once). */
  minDelayMs: number;
  jitterMs: number;
  maxDelayMs: number;
  pingMs?: number;
}

/** `ws:`/`wss:` URL of a path on this page's host. */
export function wsUrl(path: string): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${path}`;
}

export function openLiveSocket<E>(o: LiveSocketOptions<E>): LiveSocket {
  const ws = new ReconnectingWebSocket(o.url, undefined, {
    minReconnectionDelay: o.minDelayMs + Math.random() * o.jitterMs,
    maxReconnectionDelay: o.maxDelayMs,
    connectionTimeout: 6_000,
  });
  let opens = 0;
  ws.addEventListener('open', () => o.onStatus(true, ++opens));
  ws.addEventListener('close', () => o.onStatus(false, opens));
  ws.addEventListener('message', (m: MessageEvent) => {
    const event = o.parse(m.data);
    if (event) o.onEvent(event);
  });
  const ping = o.pingMs
    ? setInterval(() => {
        if (ws.readyState === ws.OPEN) ws.send('ping');
      }, o.pingMs)
    : undefined;
  return {
    send(data) {
      if (ws.readyState !== ws.OPEN) return false;
      ws.send(data);
      return true;
    },
    close() {
      clearInterval(ping);
      ws.close();
    },
    reconnect: () => ws.reconnect(),
    get open() {
      return ws.readyState === ws.OPEN;
    },
    get opens() {
      return opens;
    },
  };
}
