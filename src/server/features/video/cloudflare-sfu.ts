import type { IceServersAnswer, PublishAnswer, PublishTrack, PullAnswer, RelayTrack, SessionDescription, SimulcastRid } from '../../../shared/video';
import type { RealtimeApi } from './realtime-api';
import { ALREADY_CLOSED, deadSession, failedTracks, trackError, TRACK_GONE } from './realtime-errors';
import { SfuState } from './sfu-state';
import { offerRids, preferredRid, simulcastPull } from './simulcast';
import { sfuKey, VideoRelayError, type PublishedTrack, type SfuEntry, type SfuStore, type VideoRelay, type ViewerState } from './video-relay';

// The Cloudflare Realtime SFU engine: the performer publishes one session, each viewer pulls
// its tracks into a session of its own. The worker makes every call with the app secret; the
// browser only ever sees SDP and session ids. One instance per show room; what it holds and how
// that is stored: sfu-state.ts. A simulcast publication keeps its RIDs; its viewers pull the best
// layer and may switch (setLayer).

export class CloudflareSfu extends SfuState implements VideoRelay {
  readonly kind = 'cloudflare' as const;

  constructor(
    private readonly api: RealtimeApi,
    private readonly turn: { keyId: string; token: string; ttl: number } | null,
    store: SfuStore = {},
  ) {
    super(store);
  }

  async iceServers(): Promise<IceServersAnswer> {
    if (!this.turn) return { iceServers: [], ttl: 0 };
    return { iceServers: await this.api.turnIceServers(this.turn.keyId, this.turn.token, this.turn.ttl), ttl: this.turn.ttl };
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
    const rids = offerRids(offer.sdp);
    const kept: PublishedTrack[] = published.map((t) => (t.kind === 'video' && rids.has(t.mid) ? { ...t, rids: rids.get(t.mid) } : t));
    this.setPublication(showId, { sessionId, tracks: kept });
    return { relay: 'cloudflare', sessionId, answer: res.sessionDescription, tracks: published };
  }

  async receiving(showId: number): Promise<boolean> {
    const pub = this.publications.get(showId);
    if (!pub) return false;
    let state;
    try {
      state = await this.api.session(pub.sessionId);
    } catch (e) {
      if (e instanceof VideoRelayError && (e.detail.status === 404 || deadSession(e))) return false;
      throw e;
    }
    const mids = new Set(pub.tracks.map((t) => t.mid));
    return (state.tracks ?? []).some((t) => t.location === 'local' && t.mid !== undefined && mids.has(t.mid) && t.status !== 'inactive');
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
      // A simulcast track starts on the layer the viewer chose before, else the best one.
      tracks: missing.map((t) => ({
        location: 'remote',
        sessionId: pub.sessionId,
        trackName: t.trackName,
        ...(t.rids?.length ? { simulcast: simulcastPull(existing?.rid ?? preferredRid(t.rids)) } : {}),
      })),
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
    const state: ViewerState = {
      sessionId,
      tracks: [...(existing?.tracks ?? []), ...pulled],
      ...(res.requiresImmediateRenegotiation ? { pending: true } : {}),
      ...(existing?.rid ? { rid: existing.rid } : {}),
    };
    this.setViewer(showId, viewerKey, state);
    return {
      relay: 'cloudflare',
      sessionId,
      offer: res.sessionDescription ?? null,
      renegotiate: res.requiresImmediateRenegotiation === true,
      tracks: state.tracks,
    };
  }

  /**
   * The viewer's video switches layer on the SFU (tracks/update with the mids of the viewer's own
   * session); stored once the SFU took it. Refused, nothing changes (the layer stays as it was).
   */
  async setLayer(showId: number, viewerKey: string, rid: SimulcastRid): Promise<void> {
    const pub = this.publications.get(showId);
    const v = this.viewer(showId, viewerKey);
    if (!pub || !v) throw new VideoRelayError('not_published', `show ${showId}: no pull of viewer ${viewerKey} to switch`);
    const video = v.tracks.filter((t) => t.kind === 'video').map((t) => ({ t, rids: pub.tracks.find((p) => p.trackName === t.trackName)?.rids ?? [] }));
    if (!video.length || video.some((x) => !x.rids.includes(rid))) {
      throw new VideoRelayError('not_simulcast', `show ${showId} publishes no simulcast video with layer ${rid}`);
    }
    await this.api.updateTracks(
      v.sessionId,
      video.map(({ t }) => ({ location: 'remote', sessionId: pub.sessionId, trackName: t.trackName, mid: t.mid, simulcast: simulcastPull(rid) })),
    );
    this.update(v.sessionId, (held) => ((held as ViewerState).rid = rid));
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
}
