import type { IceServersAnswer, PublishAnswer, PublishTrack, PullAnswer, RelayTrack, SessionDescription, SimulcastRid, VideoRelayKind } from '../../../shared/video';

// One delivery interface, two engines (issue 12 point 1). An engine instance belongs to one
// show's room Durable Object: it keeps that show's publication and viewers (in memory and, for
// the SFU, in the room's storage), and the room (single-threaded per show) decides who may pull. Only the Cloudflare engine is built
// (features/video/cloudflare-sfu.ts); the peer-to-peer engine answers `pull` with { relay: 'p2p' } and
// leaves the SDP exchange to the room socket (see docs/video-notes.md).

export type VideoRelayErrorCode =
  /** Missing or malformed configuration (names the variable). */
  | 'config'
  /** The relay API answered a non-2xx status, or a body we cannot read. */
  | 'http'
  /** The relay API did not answer within the timeout. */
  | 'timeout'
  /** A 200 whose top-level errorCode is set (the whole call failed). */
  | 'session'
  /** A 200 in which one or more tracks carry an errorCode (see `trackErrors`). */
  | 'track'
  /** Nothing is published for this show (pull before publish, or after a failed publish). */
  | 'not_published'
  /** The SFU no longer has the publication's tracks (collected after 30 s without media): republish. */
  | 'publication_gone'
  /** A session id this engine did not make (never touched). */
  | 'unknown_session'
  /** The peer-to-peer engine's viewer cap is reached. */
  | 'room_full'
  /** A layer asked of a publication that does not send it (no simulcast, or not that RID). */
  | 'not_simulcast';

export interface TrackError {
  mid?: string;
  trackName?: string;
  errorCode: string;
  errorDescription?: string;
}

/** The one error engines throw; the room maps it to its own state / ApiError (503 or 409). */
export class VideoRelayError extends Error {
  constructor(
    readonly code: VideoRelayErrorCode,
    message: string,
    readonly detail: { status?: number; errorCode?: string; trackErrors?: TrackError[] } = {},
  ) {
    super(message);
    this.name = 'VideoRelayError';
  }
}

/** The publisher's state as an engine keeps it. */
export interface Publication {
  sessionId: string;
  tracks: PublishedTrack[];
}

/** A published track; a simulcast video track also keeps the RIDs its offer sends. */
export type PublishedTrack = RelayTrack & { rids?: string[] };

/** A viewer's state as an engine keeps it (the mids are on the viewer's own session). */
export interface ViewerState {
  sessionId: string;
  tracks: RelayTrack[];
  /** The SFU's offer is not answered yet (the session is still in setup: it carries no media). */
  pending?: boolean;
  /** The simulcast layer the viewer chose (absent: the publication's best, as pulled). */
  rid?: SimulcastRid;
}

/** The engine's state as plain data (Durable Object storage keeps it across the room's sleep). */
export interface SfuSnapshot {
  publications: [number, Publication][];
  viewers: [number, [string, ViewerState][]][];
}

/** One stored entry of that state (null: removed), under its own storage key. */
export type SfuEntry = [key: string, value: Publication | ViewerState | null];

/** Where the engine's state lives beyond memory: what was saved, and where each change goes. */
export interface SfuStore {
  saved?: SfuSnapshot | null;
  persist?: (entries: SfuEntry[]) => void;
}

/** Storage keys: a show's publication, and each of its viewers. */
export const SFU_PREFIX = 'sfu:';
export const sfuKey = (showId: number, viewerKey?: string): string => (viewerKey === undefined ? `${SFU_PREFIX}p:${showId}` : `${SFU_PREFIX}v:${showId}:${viewerKey}`);

/** The stored entries (the room's storage listed with the prefix) read back as a snapshot. */
export function sfuSnapshotOf(stored: Map<string, unknown>): SfuSnapshot {
  const publications: [number, Publication][] = [];
  const viewers = new Map<number, [string, ViewerState][]>();
  for (const [key, value] of stored) {
    const [, kind, show, ...viewer] = key.split(':');
    const showId = Number(show);
    if (kind === 'p') publications.push([showId, value as Publication]);
    else if (kind === 'v') viewers.set(showId, [...(viewers.get(showId) ?? []), [viewer.join(':'), value as ViewerState]]);
  }
  return { publications, viewers: [...viewers] };
}

export interface VideoRelay {
  readonly kind: VideoRelayKind;
  /** ICE servers for a browser (STUN/TURN from configuration; TURN credentials are short-lived). */
  iceServers(): Promise<IceServersAnswer>;
  /** The performer publishes: replaces nothing; call unpublish first to republish. */
  publish(showId: number, offer: SessionDescription, tracks: PublishTrack[]): Promise<PublishAnswer>;
  /**
   * Whether the SFU still gets the publication's media (GET session: a published track not
   * 'inactive'); false when nothing is published or its session is gone (peer to peer: always).
   */
  receiving(showId: number): Promise<boolean>;
  /** A permitted viewer pulls the show's tracks (a new session, or more tracks on its own). */
  pull(showId: number, viewerKey: string): Promise<PullAnswer>;
  /** The browser's answer to an offer the relay made (or a new offer after a change). */
  renegotiate(sessionId: string, answer: SessionDescription): Promise<SessionDescription | null>;
  /**
   * A viewer's simulcast layer (the SFU: tracks/update of its video; peer to peer: nothing here,
   * the performer's browser chooses). A publication without that layer is a VideoRelayError.
   */
  setLayer(showId: number, viewerKey: string, rid: SimulcastRid): Promise<void>;
  /** Close tracks by mid on a session (forced: no SDP exchange). */
  closeTracks(sessionId: string, mids: string[]): Promise<void>;
  /** Stop a viewer's video now (paid session ended, private started): closes its tracks. */
  endViewer(showId: number, viewerKey: string): Promise<void>;
  /** Forget a viewer at once (it pulls again on a new session); answers what to close in the background. */
  forgetViewer(showId: number, viewerKey: string): ViewerState | null;
  /** Close a forgotten viewer's tracks (one attempt; a dead session counts as closed). */
  closeForgotten(state: ViewerState): Promise<void>;
  /**
   * Everyone loses the publication at once (a private starts): closed on the publisher's side in
   * one call, whatever the number of viewers; every viewer forgotten (answered, for a cleanup of
   * their sessions in the background). The performer publishes again for the entitled.
   */
  cutOff(showId: number): Promise<ViewerState[]>;
  /** Stop the performer's publication (offline / pause) and every viewer's pull of it. */
  unpublish(showId: number): Promise<void>;
  /** What the engine holds (for the room's state and tests). */
  publication(showId: number): Publication | null;
  viewer(showId: number, viewerKey: string): ViewerState | null;
  /** The viewers the engine holds media for (the room ends those it no longer permits). */
  viewerKeys(showId: number): string[];
}
