import { appStore } from '../../state/app-store';
import type { PublisherLink } from './publisher';
import { gatheredSdp, keepIceFresh, rtcConfig } from './rtc';

// The performer's connection to the SFU (issue 26 point 3): the studio shows the truth about it.
// "On air" only once the connection to the relay is up; a lost connection (disconnected past a
// short grace, failed, an offer the room refused or never answered, a publication the SFU
// collected) is published again with backoff, and the second attempt also reconnects the studio
// socket (a fresh token); after FAILED_AFTER attempts the studio says it failed, and keeps trying.

const pub = () => appStore().publisher;

export const RETRY_FIRST_MS = 1_000;
const RETRY_MAX_MS = 30_000;
export const FAILED_AFTER = 4;
/** A 'disconnected' connection often recovers by itself (a network change): this long first. */
export const DISCONNECT_GRACE_MS = 3_000;
const ANSWER_TIMEOUT_MS = 10_000;

export interface RelayDeps {
  link: PublisherLink;
  newPc(config: RTCConfiguration): RTCPeerConnection;
  /** The camera is on and the show can be seen. */
  wanted(): boolean;
}

let pc: RTCPeerConnection | null = null;
let deps: RelayDeps | null = null;
let attempts = 0;
let timer: ReturnType<typeof setTimeout> | undefined;

/** The connection to the relay (the camera's new tracks go to it too). */
export const relayConnection = () => pc;

export async function publishToRelay(d: RelayDeps): Promise<void> {
  deps = d;
  clearTimeout(timer);
  pub().live = true;
  pub().link = attempts === 0 ? 'connecting' : attempts > FAILED_AFTER ? 'failed' : 'reconnecting';
  const me = d.newPc(await rtcConfig(d.link.showId(), d.link.creds()));
  keepIceFresh(me, d.link.showId(), () => d.link.creds());
  pc?.close();
  pc = me;
  me.onconnectionstatechange = () => watch(me);
  await me.setLocalDescription(await me.createOffer());
  const sdp = await gatheredSdp(me);
  if (pc !== me) return;
  d.link.send({ t: 'signal', to: 'relay', data: { kind: 'offer', sdp } });
  timer = setTimeout(() => {
    if (pc === me && me.signalingState === 'have-local-offer') retryRelay();
  }, ANSWER_TIMEOUT_MS);
}

function watch(me: RTCPeerConnection): void {
  if (pc !== me) return;
  const state = me.connectionState;
  if (state === 'connected') {
    clearTimeout(timer);
    attempts = 0;
    pub().link = 'connected';
  } else if (state === 'disconnected') {
    pub().link = 'reconnecting';
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (pc === me && me.connectionState !== 'connected') retryRelay();
    }, DISCONNECT_GRACE_MS);
  } else if (state === 'failed') retryRelay();
}

/** The relay's answer to our offer; one it cannot take is a failed attempt. */
export function relayAnswer(sdp: string): void {
  const me = pc;
  void me?.setRemoteDescription({ type: 'answer', sdp }).catch(() => {
    if (pc === me) retryRelay();
  });
}

/** Whether our offer still waits for the relay (a room error now is about it). */
export const relayAwaitingAnswer = () => pc?.signalingState === 'have-local-offer';

/** Publish again after a backoff (1, 2, 4, 8 … 30 s), while the camera is on and the show seen. */
export function retryRelay(): void {
  pc?.close();
  pc = null;
  clearTimeout(timer);
  attempts++;
  pub().link = attempts > FAILED_AFTER ? 'failed' : 'reconnecting';
  if (attempts === 2) deps?.link.reconnect();
  const wait = Math.min(RETRY_FIRST_MS * 2 ** (attempts - 1), RETRY_MAX_MS);
  timer = setTimeout(() => {
    if (deps?.wanted()) void publishToRelay(deps);
  }, wait);
}

/** The room closed our publication (a private started, or the SFU collected it): publish again now. */
export function republishRelay(): void {
  if (!deps?.wanted()) return;
  stopRelay(false);
  void publishToRelay(deps);
}

/** Stops publishing; `forget`: the attempts start over (the performer stopped, not a reconnect). */
export function stopRelay(forget: boolean): void {
  clearTimeout(timer);
  pc?.close();
  pc = null;
  if (forget) attempts = 0;
}
