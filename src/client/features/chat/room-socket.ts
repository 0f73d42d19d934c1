import { parseRoomEvents, type RoomCommand, type RoomEvent } from '../../../shared/chat';
import { openLiveSocket, wsUrl } from '../../lib/live-socket';

// One room socket (viewer or studio): a dropped connection rejoins the same session. The token is
// renewed over the socket before it expires (`renew` → `token`), so a reconnect, even all viewers'
// at once after a deploy, first tries the token it holds and asks the API for a fresh one only
// when that one is too old or was refused. 'ping' keeps the hibernating room's line warm.

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
/** A token is renewed this long before it runs out (plus up to RENEW_JITTER_MS, so a room's sockets do not ask at once). */
const RENEW_BEFORE_MS = 90_000;
const RENEW_JITTER_MS = 30_000;
/** A reconnect reuses the token it holds while at least this much of it is left. */
const REUSE_MIN_MS = 20_000;

/**
 * How long a token lives (exp − iat, ms), read from its payload (not verified: the server does
 * that). Counted from when it arrived, so a wrong clock on the device changes nothing.
 */
export function tokenLifetimeMs(password: string): number {
  try {
    const claims = JSON.parse(atob((password.split('.')[1] ?? '').replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: unknown; iat?: unknown };
    return typeof claims.exp === 'number' && typeof claims.iat === 'number' ? Math.max(0, claims.exp - claims.iat) * 1000 : 0;
  } catch {
    return 0;
  }
}

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
  /** When the current token runs out, on this device's clock. */
  let until = 0;
  /** The last connect reused the token it held (if it fails, the next asks for a fresh one). */
  let reused = false;
  /** Say frames sent on the current socket (their `n`). */
  let said = 0;
  let renewTimer: ReturnType<typeof setTimeout> | undefined;
  const took = (c: RoomCredentials) => {
    last = c;
    until = Date.now() + tokenLifetimeMs(c.password);
  };
  const planRenewal = () => {
    clearTimeout(renewTimer);
    renewTimer = setTimeout(() => socket.send(JSON.stringify({ t: 'renew' } satisfies RoomCommand)), Math.max(0, until - Date.now() - RENEW_BEFORE_MS - Math.random() * RENEW_JITTER_MS));
  };
  const socket = openLiveSocket({
    url: async () => {
      reused = last !== null && !reused && until - Date.now() > REUSE_MIN_MS;
      if (!reused) took(await creds());
      return roomUrl(last!);
    },
    parse: parseRoomEvents,
    onEvent: (events) => {
      for (const e of events) {
        if (e.t !== 'token') on.event(e);
        else {
          if (last) took({ ...last, password: e.password });
          planRenewal();
        }
      }
    },
    onStatus: (open) => {
      if (open) {
        reused = false;
        said = 0;
        planRenewal();
      } else clearTimeout(renewTimer);
      on.status(open);
    },
    minDelayMs: 300,
    jitterMs: 500,
    maxDelayMs: 8_000,
    pingMs: PING_MS,
  });
  return {
    send: (cmd) => socket.send(JSON.stringify(cmd.t === 'say' ? { ...cmd, n: ++said } : cmd)),
    close: () => {
      clearTimeout(renewTimer);
      socket.close();
    },
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
