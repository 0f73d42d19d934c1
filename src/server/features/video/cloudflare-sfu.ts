import type { Bindings } from '../../env';
import type { IceServersAnswer, PublishAnswer, PublishTrack, PullAnswer, RelayTrack, SessionDescription } from '../../../shared/video';
import { TURN_CREDENTIAL_TTL_S, videoConfig } from '../../lib/config';
import { ALREADY_CLOSED, deadSession, failedTracks, RealtimeApi, TRACK_GONE, type FetchLike } from './realtime-api';
import { sfuKey, VideoRelayError, type Publication, type SfuEntry, type SfuStore, type VideoRelay, type ViewerState } from './video-relay';

// The Cloudflare Realtime SFU engine: the performer publishes one session, each viewer pulls
// its tracks into a session of its own. The worker makes every call with the app secret; the
// browser only ever sees SDP and session ids. One instance per show room: each change of the
// publication or of one viewer is handed to `persist` as that entry alone (the room keeps them in
// Durable Object storage, so a change costs the same with ten viewers or ten thousand) and the
// entries come back as `saved` when a room that slept builds the engine again.


/** Builds the engine from configuration; a missing or malformed setting is a clear error. */
export function cloudflareSfu(env: Bindings, fetchFn: FetchLike = (url, init) => fetch(url, init), store: SfuStore = {}): CloudflareSfu {
  const c = videoConfig(env);
  const missing = [!c.appId && 'REALTIME_APP_ID', !c.appSecret && 'REALTIME_APP_SECRET'].filter(Boolean);
  if (missing.length) throw new VideoRelayError('config', `VIDEO_RELAY=cloudflare needs ${missing.join(' and ')}`);
  if (!/^https?:\/\/[^/]/.test(c.realtimeApiBase) || !URL.canParse(c.realtimeApiBase)) {
    throw new VideoRelayError('config', `REALTIME_API_BASE is not an http(s) URL`);
  }
  if (!c.turnKeyId !== !c.turnKeyApiToken) {
    throw new VideoRelayError('config', 'TURN_KEY_ID and TURN_KEY_API_TOKEN go together (set both, or neither for no TURN)');
  }
  const api = new RealtimeApi({ base: c.realtimeApiBase, appId: c.appId, appSecret: c.appSecret, timeoutMs: c.realtimeTimeoutMs }, fetchFn);
  return new CloudflareSfu(api, c.turnKeyId ? { keyId: c.turnKeyId, token: c.turnKeyApiToken } : null, store);
}

export class CloudflareSfu implements VideoRelay {
  readonly kind = 'cloudflare' as const;
  private readonly publications = new Map<number, Publication>();
  private readonly viewers = new Map<number, Map<string, ViewerState>>();
  /** Whose each known session is (viewer null: the publication): lookups by session id in O(1). */
  private readonly sessions = new Map<string, { showId: number; viewerKey: string | null }>();

  constructor(
    private readonly api: RealtimeApi,
    private readonly turn: { keyId: string; token: string } | null,
    private readonly store: SfuStore = {},
  ) {
    for (const [showId, pub] of store.saved?.publications ?? []) this.setPublication(showId, pub, false);
    for (const [showId, list] of store.saved?.viewers ?? []) for (const [key, v] of list) this.setViewer(showId, key, v, false);
  }

  /** The publication set or removed (null), and stored. */
  private setPublication(showId: number, pub: Publication | null, persist = true): void {
    const old = this.publications.get(showId);
    if (old) this.sessions.delete(old.sessionId);
    if (pub) {
      this.publications.set(showId, pub);
      this.sessions.set(pub.sessionId, { showId, viewerKey: null });
    } else this.publications.delete(showId);
    if (persist) this.store.persist?.([[sfuKey(showId), pub]]);
  }

  /** A viewer's state set or removed (null), and stored. */
  private setViewer(showId: number, viewerKey: string, state: ViewerState | null, persist = true): void {
    const old = this.viewer(showId, viewerKey);
    if (old) this.sessions.delete(old.sessionId);
    if (state) {
      this.viewersOf(showId).set(viewerKey, state);
      this.sessions.set(state.sessionId, { showId, viewerKey });
    } else this.viewers.get(showId)?.delete(viewerKey);
    if (persist) this.store.persist?.([[sfuKey(showId, viewerKey), state]]);
  }

  async iceServers(): Promise<IceServersAnswer> {
    if (!this.turn) return { iceServers: [], ttl: 0 };
    return { iceServers: await this.api.turnIceServers(this.turn.keyId, this.turn.token, TURN_CREDENTIAL_TTL_S), ttl: TURN_CREDENTIAL_TTL_S };
  }

  async publish(showId: number, offer: SessionDescription, tracks: PublishTrack[]): Promise<PublishAnswer> {
    if (this.publications.has(showId)) await this.unpublish(showId);
    const sessionId = await this.api.newSession();
    const wanted = tracks.map((t) => ({ location: 'local', mid: t.mid, trackName: `show-${showId}-${t.kind}-${t.mid}`, kind: t.kind }));
    const res = await this.api.newTracks(sessionId, {
      sessionDescription: offer,
      tracks: wanted.map(({ location, mid, trackName }) => ({ location, mid, trackName })),
    });
    const failed = failedTracks(res.tracks);
    const named = new Set((res.tracks ?? []).map((t) => t.trackName));
    for (const w of wanted) {
      if (!named.has(w.trackName) && !failed.some((f) => f.trackName === w.trackName)) {
        failed.push({ mid: w.mid, trackName: w.trackName, errorCode: 'missing_in_response' });
      }
    }
    if (failed.length) throw trackError('publish', failed);
    if (res.sessionDescription?.type !== 'answer') {
      throw new VideoRelayError('http', 'Realtime tracks/new (publish) answered without an SDP answer');
    }
    const published = wanted.map(({ mid, trackName, kind }) => ({ mid, trackName, kind }));
    this.setPublication(showId, { sessionId, tracks: published });
    return { relay: 'cloudflare', sessionId, answer: res.sessionDescription, tracks: published };
  }

  async pull(showId: number, viewerKey: string): Promise<PullAnswer> {
    const pub = this.publications.get(showId);
    if (!pub) throw new VideoRelayError('not_published', `show ${showId} publishes no video`);
    const existing = this.viewer(showId, viewerKey);
    const have = new Set(existing?.tracks.map((t) => t.trackName));
    const missing = pub.tracks.filter((t) => !have.has(t.trackName));
    if (existing && !missing.length) {
      return { relay: 'cloudflare', sessionId: existing.sessionId, offer: null, renegotiate: false, tracks: existing.tracks };
    }
    const sessionId = existing?.sessionId ?? (await this.api.newSession());
    const res = await this.api.newTracks(sessionId, {
      tracks: missing.map((t) => ({ location: 'remote', sessionId: pub.sessionId, trackName: t.trackName })),
    });
    const failed = failedTracks(res.tracks);
    if (failed.some((f) => f.errorCode === TRACK_GONE)) {
      // The publication is gone at the SFU: forgotten here, the performer publishes again.
      if (res.requiresImmediateRenegotiation) this.api.release(sessionId);
      this.setPublication(showId, null);
      throw new VideoRelayError('publication_gone', `show ${showId}: the SFU no longer has the published tracks`, { trackErrors: failed });
    }
    const pulled: RelayTrack[] = [];
    for (const t of missing) {
      const got = res.tracks?.find((r) => r.trackName === t.trackName && !r.errorCode);
      if (got?.mid) pulled.push({ mid: got.mid, trackName: t.trackName, kind: t.kind });
      else if (!failed.some((f) => f.trackName === t.trackName)) failed.push({ trackName: t.trackName, errorCode: 'missing_in_response' });
    }
    if (failed.length) throw trackError('pull', failed);
    const state: ViewerState = { sessionId, tracks: [...(existing?.tracks ?? []), ...pulled], ...(res.requiresImmediateRenegotiation ? { pending: true } : {}) };
    this.setViewer(showId, viewerKey, state);
    return {
      relay: 'cloudflare',
      sessionId,
      offer: res.sessionDescription ?? null,
      renegotiate: res.requiresImmediateRenegotiation === true,
      tracks: state.tracks,
    };
  }

  async renegotiate(sessionId: string, answer: SessionDescription): Promise<SessionDescription | null> {
    this.assertKnown(sessionId);
    const res = await this.api.renegotiate(sessionId, answer);
    this.update(sessionId, (held) => delete (held as ViewerState).pending);
    return res.sessionDescription ?? null;
  }

  async closeTracks(sessionId: string, mids: string[]): Promise<void> {
    this.assertKnown(sessionId);
    if (!mids.length) return;
    await this.closeOnSfu(sessionId, mids);
    const closed = new Set(mids);
    this.update(sessionId, (held) => (held.tracks = held.tracks.filter((t) => !closed.has(t.mid))));
  }

  /** Changes what a session holds, if it is still held (the call may have outlived it), and stores it. */
  private update(sessionId: string, change: (held: Publication | ViewerState) => void): void {
    const at = this.sessions.get(sessionId);
    const pub = at?.viewerKey === null ? this.publications.get(at.showId) : undefined;
    const v = at?.viewerKey ? this.viewer(at.showId, at.viewerKey) : null;
    if (pub) {
      change(pub);
      this.setPublication(at!.showId, pub);
    } else if (v) {
      change(v);
      this.setViewer(at!.showId, at!.viewerKey!, v);
    }
  }

  /** A forced close; a dead session (410) has nothing left to stop. */
  private async closeOnSfu(sessionId: string, mids: string[]): Promise<void> {
    let res;
    try {
      res = await this.api.closeTracks(sessionId, mids);
    } catch (e) {
      if (deadSession(e)) return;
      throw e;
    }
    const failed = failedTracks(res.tracks, (code) => code === ALREADY_CLOSED);
    if (failed.length) throw trackError('close', failed);
  }

  forgetViewer(showId: number, viewerKey: string): ViewerState | null {
    const v = this.viewer(showId, viewerKey);
    if (!v) return null;
    this.setViewer(showId, viewerKey, null);
    return v;
  }

  async closeForgotten(state: ViewerState): Promise<void> {
    if (!state.tracks.length) return;
    try {
      await this.closeOnSfu(state.sessionId, state.tracks.map((t) => t.mid));
    } catch (e) {
      // A session whose setup never finished (the SFU's offer unanswered) never carried media.
      if (!state.pending) throw e;
    }
  }

  async endViewer(showId: number, viewerKey: string): Promise<void> {
    const v = this.viewer(showId, viewerKey);
    if (!v) return;
    // Cut off during its exchange: forgotten at once (its late answer is refused), its tracks
    // closed when the session's chain frees (the answer, or the API timeout).
    if (v.pending) return this.closeForgotten(this.forgetViewer(showId, viewerKey) ?? v);
    // Kept until the SFU confirms: a failed close must be retried, or the video keeps flowing.
    await this.closeTracks(v.sessionId, v.tracks.map((t) => t.mid));
    this.setViewer(showId, viewerKey, null);
  }

  async cutOff(showId: number): Promise<ViewerState[]> {
    const pub = this.publications.get(showId);
    if (pub) await this.closeOnSfu(pub.sessionId, pub.tracks.map((t) => t.mid));
    const held = [...(this.viewers.get(showId) ?? [])];
    for (const [, v] of held) this.sessions.delete(v.sessionId);
    this.viewers.delete(showId);
    this.setPublication(showId, null, false);
    this.store.persist?.([[sfuKey(showId), null], ...held.map(([key]): SfuEntry => [sfuKey(showId, key), null])]);
    return held.map(([, v]) => v);
  }

  async unpublish(showId: number): Promise<void> {
    const keys = [...(this.viewers.get(showId)?.keys() ?? [])];
    const ended = await Promise.allSettled(keys.map((k) => this.endViewer(showId, k)));
    const pub = this.publications.get(showId);
    if (pub) {
      await this.closeTracks(pub.sessionId, pub.tracks.map((t) => t.mid));
      this.setPublication(showId, null);
    }
    const failure = ended.find((r) => r.status === 'rejected');
    if (failure) throw failure.reason;
  }

  publication = (showId: number): Publication | null => this.publications.get(showId) ?? null;
  viewer = (showId: number, viewerKey: string): ViewerState | null => this.viewers.get(showId)?.get(viewerKey) ?? null;
  viewerKeys = (showId: number): string[] => [...(this.viewers.get(showId)?.keys() ?? [])];

  private viewersOf(showId: number): Map<string, ViewerState> {
    let map = this.viewers.get(showId);
    if (!map) this.viewers.set(showId, (map = new Map()));
    return map;
  }

  /** Only sessions this engine made may be touched (ids from a browser are never trusted alone). */
  private assertKnown(sessionId: string): void {
    if (!this.sessions.has(sessionId)) throw new VideoRelayError('unknown_session', 'not a session of this show');
  }
}

function trackError(what: string, failed: ReturnType<typeof failedTracks>): VideoRelayError {
  const list = failed.map((f) => `${f.trackName ?? f.mid}: ${f.errorCode}`).join(', ');
  return new VideoRelayError('track', `Realtime ${what} refused track(s): ${list}`, { trackErrors: failed });
}
