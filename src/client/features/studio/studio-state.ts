import { CHAT_TEXT_MAX, CHAT_TYPING_EVERY_MS, type OpenTypes, type RoomEvent, type RoomSnapshot, type SessionView } from '../../../shared/chat';
import { api } from '../../lib/api';
import { appStore } from '../../state/app-store';
import type { StudioInfo } from './studio.slice';
import { reduceLines } from '../chat/room-lines';
import { applyTipsEvent, loadTips } from '../chat/tips-board';
import { openRoom, type RoomCredentials, type RoomSocket } from '../chat/room-socket';
import { attachPublisher, detachPublisher, onPublisherEvent, republish, syncPublishing } from '../video/publisher';
import { attachReceiver, detachReceiver, onReceiverEvent } from '../video/receiver';

// The performer's studio: the show's status and switches (GET/POST /api/studio), the room socket
// (POST /api/studio/connect gives fresh credentials for every (re)connect), the room's people,
// chat, requests and sessions, and today's earnings. State lives in the store's studio slice, so a
// reconnect keeps everything on screen and the welcome only adds what was missed.

/** The document's studio (the studio slice, studio.slice.ts); actions run in the browser only. */
const studio = () => appStore().studio;

/** The studio's room socket: a browser-only handle, not state. */
let socket: RoomSocket | null = null;

declare global {
  interface Window {
    __studioSocket?: RoomSocket | null;
  }
}

export async function loadStudio(): Promise<void> {
  try {
    studio().info = await api().get<StudioInfo>('studio');
    studio().load = 'ready';
  } catch {
    studio().load = studio().info ? 'ready' : 'error';
  }
}

export function connectStudio(): void {
  if (socket) return;
  socket = openRoom(() => api().post<RoomCredentials>('studio/connect'), {
    status: (open) => {
      studio().connected = open;
      // A (re)connect: the room hears the camera again, and viewers connect afresh.
      if (open) republish();
    },
    event: onEvent,
  });
  window.__studioSocket = socket;
  attachPublisher({
    showId: () => studio().info?.show.id ?? 0,
    send: (cmd) => socket?.send(cmd) ?? false,
    creds: () => socket?.creds ?? null,
    reconnect: () => socket?.reconnect(),
    canPublish: () => {
      const info = studio().info;
      return !!info?.status.online && !info.status.paused;
    },
  });
  // The monitor: while OBS is on air (SFU only), the studio pulls what it sends as a viewer would.
  attachReceiver({
    get showId() {
      return studio().info?.show.id ?? 0;
    },
    send: (_to, data) => socket?.send({ t: 'signal', to: 'relay', data }) ?? false,
    creds: () => socket?.creds ?? null,
  });
}

export function disconnectStudio(): void {
  detachPublisher();
  detachReceiver();
  socket?.close();
  socket = null;
}

function onEvent(e: RoomEvent): void {
  if (e.t === 'video-viewers') onReceiverEvent({ t: 'video', state: e.whip && e.relay === 'cloudflare' ? 'live' : 'camera_off', epoch: e.epoch, layers: [] });
  // The SFU offers only pulls: to the studio, the monitor's.
  if (e.t === 'signal' && e.from === 'relay' && e.data.kind === 'offer') {
    onReceiverEvent(e);
    return;
  }
  if (onPublisherEvent(e)) return;
  reduceLines(studio(), e, 'performer');
  if (applyTipsEvent(studio(), studio().tips, e)) return;
  if (e.t === 'welcome') void loadTips(studio().tips, 'chat/tips/studio');
  switch (e.t) {
    case 'welcome':
    case 'room':
      studio().room = e.room;
      syncStatus(e.room);
      return;
    case 'presence':
      studio().participants = e.participants;
      return;
    case 'presence-change': {
      // A changed participant keeps its place; newcomers are added at the end.
      const changed = new Map(e.upsert.map((p) => [p.id, p]));
      const gone = new Set(e.gone);
      const kept = studio().participants.filter((p) => !gone.has(p.id)).map((p) => changed.get(p.id) ?? p);
      const known = new Set(kept.map((p) => p.id));
      studio().participants = [...kept, ...e.upsert.filter((p) => !known.has(p.id))];
      return;
    }
    case 'request':
    case 'session':
      setSession(e.session);
      return;
    case 'warn':
      studio().warn = { sessionId: e.sessionId, seconds: e.seconds };
      return;
    case 'ended': {
      const s = studio().sessions[e.sessionId];
      if (s) studio().sessions[e.sessionId] = { ...s, state: 'ended', ended_reason: e.reason };
      if (studio().privateWith === e.sessionId) studio().privateWith = null;
      if (studio().warn?.sessionId === e.sessionId) studio().warn = null;
      void refreshEarnings();
      return;
    }
    case 'tip':
      void refreshEarnings();
      return;
    case 'error':
      studio().error = e.code;
      return;
    default:
      return;
  }
}

function setSession(s: SessionView): void {
  const before = studio().sessions[s.sessionId];
  studio().sessions[s.sessionId] = s;
  if (s.state === 'active' && (s.type === 'private' || s.type === 'exclusive')) studio().privateWith = s.sessionId;
  if (s.state === 'ended' && studio().privateWith === s.sessionId) studio().privateWith = null;
  if (before && before.minutes !== s.minutes) void refreshEarnings();
}

function syncStatus(room: RoomSnapshot): void {
  const info = studio().info;
  if (!info) return;
  // Gone offline: an operator may have stopped the show, and the studio shows why (issue 29).
  if (info.status.online && room.mode === 'offline') void refreshStop();
  info.status.online = room.mode !== 'offline';
  info.status.paused = room.mode === 'paused';
  info.status.open = room.open;
  syncPublishing();
}

/** The operator's stop of the show, if any (GET studio). */
function refreshStop(): Promise<void> {
  return api()
    .get<StudioInfo>('studio')
    .then((fresh) => {
      const info = studio().info;
      if (info) info.stop = fresh.stop ?? null;
    })
    .catch(() => undefined);
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
          const mine = studio().info;
          if (mine) mine.earnings = info.earnings;
        })
        .catch(() => undefined)
        .finally(resolve);
    }, 500);
  });
}

export async function setStatus(patch: Partial<{ online: boolean; paused: boolean; open: OpenTypes }>, busyKey: string): Promise<void> {
  if (studio().busy) return;
  studio().busy = busyKey;
  studio().error = null;
  try {
    const res = await api().post<Partial<StudioInfo> & { status?: StudioInfo['status'] }>('studio/status', patch);
    const info = studio().info;
    if (info && res?.status) info.status = res.status;
    else if (info) Object.assign(info.status, patch);
    if (patch.online && !socket) connectStudio();
    syncPublishing();
  } catch (e) {
    studio().error = (e as Error).message || 'unknown_error';
  } finally {
    studio().busy = null;
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
