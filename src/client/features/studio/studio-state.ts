import { proxy } from 'valtio';
import { CHAT_TEXT_MAX, CHAT_TYPING_EVERY_MS, type OpenTypes, type Participant, type RoomEvent, type RoomSnapshot, type SessionView } from '../../../shared/chat';
import { api } from '../../lib/api';
import { reduceLines, type RoomLines } from '../chat/room-lines';
import { openRoom, type RoomCredentials, type RoomSocket } from '../chat/room-socket';
import { attachPublisher, detachPublisher, onPublisherEvent, republish, syncPublishing } from '../video/publisher';

// The performer's studio: the show's status and switches (GET/POST /api/studio), the room socket
// (POST /api/studio/connect gives fresh credentials for every (re)connect), the room's people,
// chat, requests and sessions, and today's earnings. State lives in this module's proxy, so a
// reconnect keeps everything on screen and the welcome only adds what was missed.

export interface StatementRow {
  id?: string | number;
  ts?: number | string;
  created_at?: number | string;
  kind?: string;
  type?: string;
  reference?: string;
  ref?: string;
  /** The ledger's reason: chat (a minute) or tip. */
  reason?: string;
  nick?: string;
  coins?: number;
  amount?: number;
}

export interface StudioInfo {
  /** flags: what the show's catalogue entry allows (free chat, exclusive), whatever the switches say. */
  show: { id: number; name: string; universalId?: string; flags?: { free: boolean; exclusive: number } };
  status: { online: boolean; paused: boolean; open: OpenTypes };
  /** null until the server's ledger gives earnings. */
  earnings: { today: number; statement: StatementRow[] } | null;
}

export interface StudioState extends RoomLines {
  load: 'loading' | 'ready' | 'error';
  info: StudioInfo | null;
  busy: string | null;
  error: string | null;
  connected: boolean;
  room: RoomSnapshot | null;
  participants: Participant[];
  sessions: Record<string, SessionView>;
  /** Session id of the private (or exclusive) conversation shown. */
  privateWith: string | null;
  warn: { sessionId: string; seconds: number } | null;
}

export const studio = proxy<StudioState>({
  load: 'loading',
  info: null,
  busy: null,
  error: null,
  connected: false,
  room: null,
  participants: [],
  sessions: {},
  items: [],
  privateWith: null,
  typing: null,
  warn: null,
});

let socket: RoomSocket | null = null;

declare global {
  interface Window {
    __studioSocket?: RoomSocket | null;
  }
}

export async function loadStudio(): Promise<void> {
  try {
    studio.info = await api().get<StudioInfo>('studio');
    studio.load = 'ready';
  } catch {
    studio.load = studio.info ? 'ready' : 'error';
  }
}

export function connectStudio(): void {
  if (socket) return;
  socket = openRoom(() => api().post<RoomCredentials>('studio/connect'), {
    status: (open) => {
      studio.connected = open;
      // A (re)connect: the room hears the camera again, and viewers connect afresh.
      if (open) republish();
    },
    event: onEvent,
  });
  window.__studioSocket = socket;
  attachPublisher({
    showId: () => studio.info?.show.id ?? 0,
    send: (cmd) => socket?.send(cmd) ?? false,
    creds: () => socket?.creds ?? null,
    canPublish: () => !!studio.info?.status.online && !studio.info.status.paused,
  });
}

export function disconnectStudio(): void {
  detachPublisher();
  socket?.close();
  socket = null;
}

function onEvent(e: RoomEvent): void {
  if (onPublisherEvent(e)) return;
  reduceLines(studio, e, 'performer');
  switch (e.t) {
    case 'welcome':
    case 'room':
      studio.room = e.room;
      syncStatus(e.room);
      return;
    case 'presence':
      studio.participants = e.participants;
      return;
    case 'request':
    case 'session':
      setSession(e.session);
      return;
    case 'warn':
      studio.warn = { sessionId: e.sessionId, seconds: e.seconds };
      return;
    case 'ended': {
      const s = studio.sessions[e.sessionId];
      if (s) studio.sessions[e.sessionId] = { ...s, state: 'ended', ended_reason: e.reason };
      if (studio.privateWith === e.sessionId) studio.privateWith = null;
      if (studio.warn?.sessionId === e.sessionId) studio.warn = null;
      void refreshEarnings();
      return;
    }
    case 'tip':
      void refreshEarnings();
      return;
    case 'error':
      studio.error = e.code;
      return;
    default:
      return;
  }
}

function setSession(s: SessionView): void {
  const before = studio.sessions[s.sessionId];
  studio.sessions[s.sessionId] = s;
  if (s.state === 'active' && (s.type === 'private' || s.type === 'exclusive')) studio.privateWith = s.sessionId;
  if (s.state === 'ended' && studio.privateWith === s.sessionId) studio.privateWith = null;
  if (before && before.minutes !== s.minutes) void refreshEarnings();
}

function syncStatus(room: RoomSnapshot): void {
  const info = studio.info;
  if (!info) return;
  info.status.online = room.mode !== 'offline';
  info.status.paused = room.mode === 'paused';
  info.status.open = room.open;
  syncPublishing();
}

let earningsTimer: ReturnType<typeof setTimeout> | null = null;
/** Earnings after a charge or tip (debounced: a busy room charges often). */
function refreshEarnings(): Promise<void> {
  if (earningsTimer) return Promise.resolve();
  return new Promise((resolve) => {
    earningsTimer = setTimeout(() => {
      earningsTimer = null;
      api()
        .get<StudioInfo>('studio')
        .then((info) => {
          if (studio.info) studio.info.earnings = info.earnings;
        })
        .catch(() => undefined)
        .finally(resolve);
    }, 500);
  });
}

export async function setStatus(patch: Partial<{ online: boolean; paused: boolean; open: OpenTypes }>, busyKey: string): Promise<void> {
  if (studio.busy) return;
  studio.busy = busyKey;
  studio.error = null;
  try {
    const res = await api().post<Partial<StudioInfo> & { status?: StudioInfo['status'] }>('studio/status', patch);
    if (studio.info && res?.status) studio.info.status = res.status;
    else if (studio.info) Object.assign(studio.info.status, patch);
    if (patch.online && !socket) connectStudio();
    syncPublishing();
  } catch (e) {
    studio.error = (e as Error).message || 'unknown_error';
  } finally {
    studio.busy = null;
  }
}

export function command(cmd: Parameters<RoomSocket['send']>[0]): boolean {
  return socket?.send(cmd) ?? false;
}

let lastTyping = 0;
/** The room sees the performer typing; one notice per CHAT_TYPING_EVERY_MS (the room drops the surplus). */
export function typing(): void {
  const now = Date.now();
  if (now - lastTyping < CHAT_TYPING_EVERY_MS) return;
  lastTyping = now;
  command({ t: 'typing' });
}

export function say(text: string, to?: string): boolean {
  const trimmed = text.trim().slice(0, CHAT_TEXT_MAX);
  if (!trimmed) return false;
  return command(to ? { t: 'say', text: trimmed, to } : { t: 'say', text: trimmed });
}
