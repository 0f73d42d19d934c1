import { ref } from 'valtio';
import type { RoomEvent } from '../../../shared/chat';
import type { VideoSignal } from '../../../shared/video';
import { appStore } from '../../state/app-store';
import type { PublisherState } from './video.slice';
import { cameraConstraints, cameraFailure, listDevices, PRESETS } from './camera';
import { gatheredSdp, keepIceFresh, preferVp8, rtcConfig, webrtcSupported, type RoomToken } from './rtc';

// The performer's camera and its delivery (issue 12 point 3). The camera is on while the studio
// has it; it is published while the show is online, not paused and the room socket is open.
// Peer-to-peer: one connection per viewer the room permits, offered when that viewer asks; the
// room's list shrinking closes a viewer's connection at once. SFU: one connection to the relay.

/** The document's publisher slice (video.slice.ts); actions run in the browser only. */
const pub = () => appStore().publisher;

export interface PublisherLink {
  showId: () => number;
  send(cmd: { t: 'signal'; to: string; data: VideoSignal } | { t: 'video'; live: boolean }): boolean;
  creds(): RoomToken | null;
  /** Online, not paused, socket open. */
  canPublish(): boolean;
}

let link: PublisherLink | null = null;
let stream: MediaStream | null = null;
let permitted: string[] = [];
const peers = new Map<string, RTCPeerConnection>();
let relayPc: RTCPeerConnection | null = null;

export function attachPublisher(l: PublisherLink): void {
  link = l;
  if (!webrtcSupported() || !navigator.mediaDevices?.getUserMedia) pub().status = 'unsupported';
}

export function detachPublisher(): void {
  stopCamera();
  link = null;
}

const constraints = () => cameraConstraints(pub().preset, pub().cameraId, pub().micId);

export async function startCamera(): Promise<void> {
  if (pub().status === 'unsupported' || pub().status === 'starting') return;
  pub().status = 'starting';
  try {
    const next = await navigator.mediaDevices.getUserMedia(constraints());
    replaceStream(next);
    pub().status = 'on';
    Object.assign(pub(), await listDevices());
    pub().cameraId ||= next.getVideoTracks()[0]?.getSettings().deviceId ?? '';
    pub().micId ||= next.getAudioTracks()[0]?.getSettings().deviceId ?? '';
    syncPublishing();
  } catch (e) {
    pub().status = cameraFailure(e);
  }
}

export function stopCamera(): void {
  setLive(false);
  stream?.getTracks().forEach((t) => t.stop());
  stream = null;
  pub().preview = null;
  if (pub().status === 'on' || pub().status === 'starting') pub().status = 'off';
}

/** New tracks (another device or preset) go to every connection without a new negotiation. */
function replaceStream(next: MediaStream): void {
  const old = stream;
  stream = next;
  next.getVideoTracks().forEach((t) => (t.enabled = !pub().camMuted));
  next.getAudioTracks().forEach((t) => (t.enabled = !pub().micMuted));
  pub().preview = ref(next);
  for (const pc of [...peers.values(), ...(relayPc ? [relayPc] : [])]) {
    for (const sender of pc.getSenders()) {
      const track = next.getTracks().find((t) => t.kind === sender.track?.kind);
      if (track) void sender.replaceTrack(track).catch(() => undefined);
    }
    void setBitrate(pc);
  }
  old?.getTracks().forEach((t) => t.stop());
}

/** Another camera, microphone or preset: a fresh capture replaces the tracks. */
export async function changeSource(patch: Partial<Pick<PublisherState, 'cameraId' | 'micId' | 'preset'>>): Promise<void> {
  Object.assign(pub(), patch);
  if (pub().status !== 'on') return;
  try {
    replaceStream(await navigator.mediaDevices.getUserMedia(constraints()));
  } catch {
    pub().status = 'error';
  }
}

/** Phones: the next camera (front and back). */
export function switchCamera(): Promise<void> {
  const i = pub().cameras.findIndex((c) => c.id === pub().cameraId);
  const next = pub().cameras[(i + 1) % Math.max(1, pub().cameras.length)];
  return next ? changeSource({ cameraId: next.id }) : Promise.resolve();
}

export function mute(kind: 'cam' | 'mic', on: boolean): void {
  if (kind === 'cam') pub().camMuted = on;
  else pub().micMuted = on;
  const tracks = kind === 'cam' ? stream?.getVideoTracks() : stream?.getAudioTracks();
  tracks?.forEach((t) => (t.enabled = !on));
}

async function setBitrate(pc: RTCPeerConnection): Promise<void> {
  for (const sender of pc.getSenders()) {
    if (sender.track?.kind !== 'video') continue;
    const params = sender.getParameters();
    if (!params.encodings?.length) continue;
    params.encodings[0].maxBitrate = PRESETS[pub().preset].kbps * 1000;
    await sender.setParameters(params).catch(() => undefined);
  }
}

function setLive(live: boolean): void {
  if (pub().live === live) return;
  pub().live = live;
  if (!live) {
    for (const sid of [...peers.keys()]) closePeer(sid);
    relayPc?.close();
    relayPc = null;
  }
  link?.send({ t: 'video', live });
}

/** Publishes when the camera is on and the show can be seen; stops when either ends. */
export function syncPublishing(): void {
  const should = pub().status === 'on' && !!link?.canPublish();
  if (!should) return setLive(false);
  if (pub().live) return;
  if (pub().relay === 'cloudflare') void publishToRelay();
  else setLive(true);
}

/** After a reconnect the room hears it again (a new epoch: viewers ask afresh). */
export function republish(): void {
  if (pub().live) setLive(false);
  else link?.send({ t: 'video', live: false });
  syncPublishing();
}

function newPc(config: RTCConfiguration): RTCPeerConnection {
  const pc = new RTCPeerConnection(config);
  for (const track of stream?.getTracks() ?? []) {
    // The preset's bitrate cap from the first frame (setBitrate keeps it after a change).
    const sendEncodings = track.kind === 'video' ? [{ maxBitrate: PRESETS[pub().preset].kbps * 1000 }] : undefined;
    const t = pc.addTransceiver(track, { direction: 'sendonly', streams: stream ? [stream] : [], sendEncodings });
    if (track.kind === 'video') preferVp8(t);
  }
  return pc;
}

async function publishToRelay(): Promise<void> {
  if (!link) return;
  pub().live = true;
  const pc = newPc(await rtcConfig(link.showId(), link.creds()));
  keepIceFresh(pc, link.showId(), () => link?.creds() ?? null);
  relayPc = pc;
  await pc.setLocalDescription(await pc.createOffer());
  const sdp = await gatheredSdp(pc);
  if (relayPc === pc) link.send({ t: 'signal', to: 'relay', data: { kind: 'offer', sdp } });
}

function closePeer(sid: string): void {
  peers.get(sid)?.close();
  peers.delete(sid);
  delete pub().peers[sid];
}

async function offerTo(sid: string): Promise<void> {
  if (!link || !stream || !permitted.includes(sid)) return;
  closePeer(sid);
  const pc = newPc(await rtcConfig(link.showId(), link.creds()));
  keepIceFresh(pc, link.showId(), () => link?.creds() ?? null);
  peers.set(sid, pc);
  pub().peers[sid] = pc.connectionState;
  pc.onconnectionstatechange = () => {
    if (peers.get(sid) === pc) pub().peers[sid] = pc.connectionState;
  };
  await pc.setLocalDescription(await pc.createOffer());
  await setBitrate(pc);
  const sdp = await gatheredSdp(pc);
  if (peers.get(sid) === pc) link.send({ t: 'signal', to: sid, data: { kind: 'offer', sdp } });
}

/** The room's video events for the performer; true when handled. */
export function onPublisherEvent(e: RoomEvent): boolean {
  if (e.t === 'video-viewers') {
    pub().relay = e.relay;
    permitted = e.viewers;
    for (const sid of [...peers.keys()]) if (!permitted.includes(sid)) closePeer(sid);
    return true;
  }
  if (e.t === 'error' && e.code === 'video.republish') {
    // The SFU collected the publication (no media reached it for 30 s): publish on a new session.
    if (pub.relay === 'cloudflare' && pub.live) {
      relayPc?.close();
      relayPc = null;
      pub.live = false;
      syncPublishing();
    }
    return true;
  }
  if (e.t !== 'signal') return false;
  const d = e.data;
  if (e.from === 'relay') {
    if (d.kind === 'answer' && relayPc) void relayPc.setRemoteDescription({ type: 'answer', sdp: d.sdp }).catch(() => undefined);
  } else if (d.kind === 'want') {
    if (pub().live) void offerTo(e.from).catch(() => closePeer(e.from));
  } else if (d.kind === 'answer') {
    void peers.get(e.from)?.setRemoteDescription({ type: 'answer', sdp: d.sdp }).catch(() => closePeer(e.from));
  } else if (d.kind === 'bye') closePeer(e.from);
  return true;
}
