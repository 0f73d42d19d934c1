import { ref } from 'valtio';
import type { RoomEvent } from '../../../shared/chat';
import type { VideoLayer, VideoSignal } from '../../../shared/video';
import { appStore } from '../../state/app-store';
import type { PublisherState } from './video.slice';
import { cameraConstraints, cameraFailure, listDevices, PRESETS } from './camera';
import { layerEncodings, p2pEncoding } from './layers';
import { publishToRelay, relayAnswer, relayAwaitingAnswer, relayConnection, republishRelay, retryRelay, stopRelay } from './relay-publisher';
import { gatheredSdp, keepIceFresh, preferVp8, rtcConfig, webrtcSupported, type RoomToken } from './rtc';

// The performer's camera and its delivery (issue 12 point 3). The camera is on while the studio
// has it; it is published while the show is online, not paused and the room socket is open.
// Peer-to-peer: one connection per viewer the room permits, offered when that viewer asks; the
// room's list shrinking closes a viewer's connection at once. SFU: one connection to the relay
// (relay-publisher.ts, which watches it and publishes again when it is lost).

/** The document's publisher slice (video.slice.ts); actions run in the browser only. */
const pub = () => appStore().publisher;

export interface PublisherLink {
  showId: () => number;
  send(cmd: { t: 'signal'; to: string; data: VideoSignal } | { t: 'video'; live: boolean }): boolean;
  creds(): RoomToken | null;
  /** Online, not paused, socket open. */
  canPublish(): boolean;
  /** A fresh studio socket (and room token): a publish that keeps failing tries one. */
  reconnect(): void;
}

let link: PublisherLink | null = null;
let stream: MediaStream | null = null;
let permitted: string[] = [];
const peers = new Map<string, RTCPeerConnection>();
/** Peer to peer: the quality each viewer picked (none: the preset's). */
const picks = new Map<string, VideoLayer>();

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
  stopRelay(true);
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
  const relay = relayConnection();
  for (const [sid, pc] of [...peers, ...(relay ? [[undefined, relay] as const] : [])]) {
    for (const sender of pc.getSenders()) {
      const track = next.getTracks().find((t) => t.kind === sender.track?.kind);
      if (track) void sender.replaceTrack(track).catch(() => undefined);
    }
    void setBitrate(pc, sid);
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

/** The preset's bitrate caps: per layer to the SFU; peer to peer (`sid`), those of the layer that viewer picked. */
async function setBitrate(pc: RTCPeerConnection, sid?: string): Promise<void> {
  for (const sender of pc.getSenders()) {
    if (sender.track?.kind !== 'video') continue;
    const params = sender.getParameters();
    if (!params.encodings?.length) continue;
    const wanted: RTCRtpEncodingParameters[] = sid === undefined ? layerEncodings(pub().preset) : [p2pEncoding(pub().preset, picks.get(sid) ?? 'auto')];
    params.encodings.forEach((e, i) => Object.assign(e, wanted.find((w) => w.rid === e.rid) ?? wanted[i] ?? {}));
    await sender.setParameters(params).catch(() => undefined);
  }
}

function setLive(live: boolean): void {
  if (pub().live === live) return;
  pub().live = live;
  pub().link = live ? 'connected' : 'idle';
  if (!live) {
    for (const sid of [...peers.keys()]) closePeer(sid);
    // A republish (socket reconnect) keeps counting attempts; the camera or the show stopping does not.
    stopRelay(!wanted());
  }
  link?.send({ t: 'video', live });
}

/** The camera is published while it is on, the show can be seen and OBS (WHIP) does not publish. */
const wanted = () => pub().status === 'on' && !pub().whip && !!link?.canPublish();

/** Publishes when the camera is on and the show can be seen; stops when either ends. */
export function syncPublishing(): void {
  if (!wanted()) return setLive(false);
  if (pub().live) return;
  if (pub().relay === 'cloudflare' && link) void publishToRelay({ link, newPc, wanted });
  else setLive(true);
}

/** After a reconnect the room hears it again (a new epoch: viewers ask afresh). */
export function republish(): void {
  if (pub().live) setLive(false);
  else link?.send({ t: 'video', live: false });
  syncPublishing();
}

/** A connection with the camera's tracks: to the SFU in simulcast layers (`relay`), else one encoding. */
function newPc(config: RTCConfiguration, relay = true): RTCPeerConnection {
  const pc = new RTCPeerConnection(config);
  for (const track of stream?.getTracks() ?? []) {
    // The preset's bitrate caps from the first frame (setBitrate keeps them after a change).
    const sendEncodings = track.kind !== 'video' ? undefined : relay ? layerEncodings(pub().preset) : [{ maxBitrate: PRESETS[pub().preset].kbps * 1000 }];
    const t = pc.addTransceiver(track, { direction: 'sendonly', streams: stream ? [stream] : [], sendEncodings });
    if (track.kind === 'video') preferVp8(t);
  }
  return pc;
}

function closePeer(sid: string): void {
  peers.get(sid)?.close();
  peers.delete(sid);
  delete pub().peers[sid];
}

async function offerTo(sid: string): Promise<void> {
  if (!link || !stream || !permitted.includes(sid)) return;
  closePeer(sid);
  const pc = newPc(await rtcConfig(link.showId(), link.creds()), false);
  keepIceFresh(pc, link.showId(), () => link?.creds() ?? null);
  peers.set(sid, pc);
  pub().peers[sid] = pc.connectionState;
  pc.onconnectionstatechange = () => {
    if (peers.get(sid) === pc) pub().peers[sid] = pc.connectionState;
  };
  await pc.setLocalDescription(await pc.createOffer());
  await setBitrate(pc, sid);
  const sdp = await gatheredSdp(pc);
  if (peers.get(sid) === pc) link.send({ t: 'signal', to: sid, data: { kind: 'offer', sdp } });
}

/** Ends the show's OBS (WHIP) broadcast: the room ends the publication as when a camera stops. */
export function endWhip(): void {
  link?.send({ t: 'video', live: false });
}

/** The room's video events for the performer; true when handled. */
export function onPublisherEvent(e: RoomEvent): boolean {
  if (e.t === 'video-viewers') {
    pub().relay = e.relay;
    pub().receiving = e.count;
    const whipChanged = pub().whip !== e.whip;
    pub().whip = e.whip;
    permitted = e.viewers;
    if (whipChanged) syncPublishing();
    for (const sid of [...peers.keys()]) if (!permitted.includes(sid)) closePeer(sid);
    for (const sid of [...picks.keys()]) if (!permitted.includes(sid)) picks.delete(sid);
    return true;
  }
  // The room closed the publication (a private started, the SFU collected it): publish again now;
  // the room could not publish our offer: again, after a backoff.
  if (e.t === 'error' && pub().relay === 'cloudflare' && pub().live) {
    if (e.code === 'video.republish') {
      republishRelay();
      return true;
    }
    if (e.code === 'video.unavailable' && relayAwaitingAnswer()) {
      retryRelay();
      return true;
    }
  }
  if (e.t !== 'signal') return false;
  const d = e.data;
  if (e.from === 'relay') {
    if (d.kind === 'answer') relayAnswer(d.sdp);
  } else if (d.kind === 'want') {
    if (pub().live) void offerTo(e.from).catch(() => closePeer(e.from));
  } else if (d.kind === 'answer') {
    void peers.get(e.from)?.setRemoteDescription({ type: 'answer', sdp: d.sdp }).catch(() => closePeer(e.from));
  } else if (d.kind === 'bye') closePeer(e.from);
  else if (d.kind === 'layer') {
    // Peer to peer the performer's browser sends each viewer the quality it picked.
    picks.set(e.from, d.rid);
    const pc = peers.get(e.from);
    if (pc) void setBitrate(pc, e.from);
  }
  return true;
}
