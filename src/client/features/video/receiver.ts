import { ref } from 'valtio';
import type { RoomEvent } from '../../../shared/chat';
import type { VideoSignal } from '../../../shared/video';
import { appStore } from '../../state/app-store';
import { stopLayers, watchLayers } from './receiver-layers';
import { gatheredSdp, keepIceFresh, rtcConfig, webrtcSupported, type RoomToken } from './rtc';

// A viewer's video (issue 12 point 4): the room says whether the performer's video is for this
// session ('video' events); while it is, the viewer asks for a connection ('want'), answers the
// offer of the performer's browser (p2p) or of the worker's SFU engine ('relay'), and plays what
// arrives. A failed or silent connection asks again; a state other than live closes it at once.

/** The document's receiver slice (video.slice.ts); actions run in the browser only. */
const rx = () => appStore().receiver;

export interface ReceiverLink {
  showId: number;
  send(to: string, data: VideoSignal): boolean;
  creds(): RoomToken | null;
}

/** No answer and no media this long after asking: ask again. */
const WATCHDOG_MS = 8_000;
/** The same while the video was playing before (a network that dropped): back within seconds once it returns. */
const REWATCH_MS = 2_500;
/** A disconnected connection gets this long to come back by itself. */
const DISCONNECTED_MS = 3_000;

let link: ReceiverLink | null = null;
let pc: RTCPeerConnection | null = null;
let epoch = -1;
let watchdog: ReturnType<typeof setTimeout> | null = null;

declare global {
  interface Window {
    /** Tests: the viewer's peer connection (getStats for framesDecoded). */
    __videoPc?: RTCPeerConnection | null;
  }
}

/** The device's network came back: a video that was lost is asked for at once. */
function onOnline(): void {
  if (rx().state === 'live' && rx().phase === 'reconnecting') want();
}

export function attachReceiver(l: ReceiverLink): void {
  link = l;
  rx().state = null;
  rx().phase = webrtcSupported() ? 'idle' : 'unsupported';
  window.addEventListener('online', onOnline);
}

export function detachReceiver(): void {
  window.removeEventListener('online', onOnline);
  closePc();
  link = null;
  rx().state = null;
  rx().phase = 'idle';
}

/** The room's video events for this session; true when handled. */
export function onReceiverEvent(e: RoomEvent): boolean {
  if (e.t === 'video') {
    rx().state = e.state;
    rx().layers = e.layers;
    if (e.state !== 'live') {
      closePc();
      if (rx().phase !== 'unsupported') rx().phase = 'idle';
    } else if (e.epoch !== epoch || !pc || pc.connectionState === 'failed' || pc.connectionState === 'closed') {
      epoch = e.epoch;
      want();
    }
    return true;
  }
  if (e.t === 'signal') {
    if (e.data.kind === 'offer') void answer(e.from, e.data.sdp);
    else if (e.data.kind === 'bye' && rx().state === 'live') want();
    return true;
  }
  return false;
}

function closePc(): void {
  stopLayers();
  if (watchdog) clearTimeout(watchdog);
  watchdog = null;
  pc?.close();
  pc = null;
  window.__videoPc = null;
  rx().stream = null;
}

function want(): void {
  if (!link || rx().phase === 'unsupported') return;
  const wasPlaying = rx().phase === 'playing' || rx().phase === 'reconnecting';
  closePc();
  rx().phase = wasPlaying ? 'reconnecting' : 'connecting';
  link.send('performer', { kind: 'want' });
  armWatchdog();
}

function armWatchdog(): void {
  if (watchdog) clearTimeout(watchdog);
  watchdog = setTimeout(() => {
    watchdog = null;
    if (rx().state === 'live' && rx().phase !== 'playing') want();
  }, rx().phase === 'reconnecting' ? REWATCH_MS : WATCHDOG_MS);
}

async function answer(from: string, sdp: string): Promise<void> {
  if (!link || rx().state !== 'live' || rx().phase === 'unsupported') return;
  const l = link;
  if (pc) pc.close();
  const me = new RTCPeerConnection(await rtcConfig(l.showId, l.creds()));
  keepIceFresh(me, l.showId, () => l.creds());
  pc = me;
  window.__videoPc = me;
  const stream = new MediaStream();
  me.ontrack = (ev) => {
    stream.addTrack(ev.track);
    rx().stream = ref(stream);
  };
  let lost: ReturnType<typeof setTimeout> | null = null;
  me.onconnectionstatechange = () => {
    if (pc !== me) return;
    const s = me.connectionState;
    if (s === 'connected') {
      if (lost) clearTimeout(lost);
      if (watchdog) clearTimeout(watchdog);
      rx().phase = 'playing';
      watchLayers(me, from === 'relay', (d) => l.send(from === 'relay' ? 'relay' : 'performer', d));
    } else if (s === 'failed') want();
    else if (s === 'disconnected') {
      rx().phase = 'reconnecting';
      lost = setTimeout(() => pc === me && me.connectionState !== 'connected' && want(), DISCONNECTED_MS);
    }
  };
  try {
    await me.setRemoteDescription({ type: 'offer', sdp });
    await me.setLocalDescription(await me.createAnswer());
    const local = await gatheredSdp(me);
    if (pc === me) l.send(from === 'relay' ? 'relay' : 'performer', { kind: 'answer', sdp: local });
  } catch {
    if (pc === me) armWatchdog();
  }
}

/** What arrives, for the studio's OBS monitor: the picture's size and rate, and bits per second since `prev` (all tracks). */
export interface IncomingStats {
  width: number;
  height: number;
  fps: number;
  bytes: number;
  at: number;
  kbps: number | null;
}

export async function incomingStats(prev: IncomingStats | null): Promise<IncomingStats | null> {
  if (!pc) return null;
  const out: IncomingStats = { width: 0, height: 0, fps: 0, bytes: 0, at: performance.now(), kbps: null };
  (await pc.getStats()).forEach((s: { type: string; kind?: string; bytesReceived?: number; frameWidth?: number; frameHeight?: number; framesPerSecond?: number }) => {
    if (s.type !== 'inbound-rtp') return;
    out.bytes += s.bytesReceived ?? 0;
    if (s.kind === 'video') Object.assign(out, { width: s.frameWidth ?? 0, height: s.frameHeight ?? 0, fps: s.framesPerSecond ?? 0 });
  });
  if (prev && out.at > prev.at && out.bytes >= prev.bytes) out.kbps = ((out.bytes - prev.bytes) * 8) / (out.at - prev.at);
  return out;
}
