import type { FetchLike } from '../../src/server/features/video/realtime-api';
import { closeTracks, json, sdpRids, sessionGone, updateTracks, type FakeTrack } from './fake-tracks';

// An in-memory stand-in for Cloudflare Realtime's documented HTTPS API (SFU "Connection API"
// and the TURN key API; docs/video-notes.md), behind a fetch-compatible function the engine
// takes by injection. It checks the bearer, keeps sessions and tracks, and behaves as the docs
// describe: a session is one PeerConnection with a connection state (operations after setup wait
// for it, then 425 `session_error`; disconnected past the reuse window: 410 `session_error`), a
// track without incoming media is collected (a pull of it: `not_found_track_error` inside a 200),
// an unanswered SFU offer makes any other mutation of its session a 406, bad SDP or order is
// `invalid_session_description`, an undecodable body `decoding_error`, a close of an absent track
// `close_track_error`. Every mutation that overlaps another on one session is recorded too.
// Simulcast: local tracks keep their offer's RIDs, pulls their `simulcast`; tracks/update: fake-tracks.ts.

export type FakeConnection = 'new' | 'connected' | 'disconnected';

interface FakeSession {
  tracks: Map<string, FakeTrack>;
  nextMid: number;
  busy: boolean;
  answers: string[];
  /** The PeerConnection's state ('new': setup not finished). */
  connection: FakeConnection;
  /** When it lost connectivity (reuse window) or stopped sending media (track collection). */
  disconnectedAt: number;
  mediaStoppedAt: number | null;
  /** The SFU made an offer (requiresImmediateRenegotiation) that no renegotiate answered yet. */
  pendingOffer: boolean;
}

export interface FakeCall {
  method: string;
  path: string;
  auth: string | null;
  body: unknown;
  status?: number;
}

export class FakeRealtime {
  readonly base = 'https://realtime.test/v1';
  readonly calls: FakeCall[] = [];
  /** Paths of mutations that started while another mutation of the same session was running. */
  readonly overlaps: string[] = [];
  /** Paths of mutations answered 406 (an unanswered SFU offer on their session). */
  readonly refused406: string[] = [];
  readonly sessions = new Map<string, FakeSession>();
  /** Local track names the SFU refuses inside a 200 (per-track errorCode). */
  readonly refuseTracks = new Map<string, string>();
  /** Answer every app call with this status instead (non-2xx mapping). */
  forceStatus: number | null = null;
  /** Set a top-level errorCode on the next renegotiate's 200. */
  renegotiateError: string | null = null;
  /** Never answer (timeouts). */
  hang = false;
  /** The older credentials/generate shape: one ICE server object instead of a list. */
  turnSingleObject = false;
  /**
   * The browser connects as soon as setup is done (a publisher once its answer is returned, a
   * viewer once /renegotiate accepted its answer). False: the test calls connect() itself.
   */
  autoConnect = true;
  /** How long an operation waits for a not-connected session before 425 (the SFU: 5 s). */
  connectWaitMs = 5_000;
  /** How long a disconnected session may be reused (the SFU: 30 s); later: 410. */
  reuseWindowMs = 30_000;
  /** How long a track lives without incoming media (the SFU: 30 s). */
  mediaTimeoutMs = 30_000;
  private sessionCount = 0;
  /** TURN credentials issued so far. */
  turnIssued = 0;

  constructor(
    readonly appId = 'app-1',
    readonly secret = 'app-secret-1',
    readonly turnKeyId = 'turn-key-1',
    readonly turnToken = 'turn-token-1',
  ) {}

  /** The browser's PeerConnection is connected (media flows). */
  connect(sessionId: string): void {
    const s = this.sessions.get(sessionId);
    if (s) Object.assign(s, { connection: 'connected', mediaStoppedAt: null });
  }

  /** The browser's network dropped: the reuse window and the media timeout start now. */
  disconnect(sessionId: string): void {
    const s = this.sessions.get(sessionId);
    if (s) Object.assign(s, { connection: 'disconnected', disconnectedAt: Date.now(), mediaStoppedAt: Date.now() });
  }

  /** Disconnected longer than the reuse window: dead (410), its tracks collected. */
  kill(sessionId: string): void {
    const s = this.sessions.get(sessionId);
    if (s) Object.assign(s, { connection: 'disconnected', disconnectedAt: -Infinity, mediaStoppedAt: -Infinity });
  }

  /** The publisher's media stopped longer than the media timeout: its local tracks are collected. */
  stopMedia(sessionId: string, longAgo = true): void {
    const s = this.sessions.get(sessionId);
    if (s) s.mediaStoppedAt = longAgo ? -Infinity : Date.now();
  }

  readonly fetch: FetchLike = async (input, init) => {
    const url = new URL(input);
    const method = init.method ?? 'GET';
    const auth = new Headers(init.headers).get('authorization');
    let body: unknown;
    let undecodable = false;
    try {
      body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    } catch {
      undecodable = true;
    }
    const call: FakeCall = { method, path: url.pathname.replace(/^\/v1/, ''), auth, body };
    this.calls.push(call);
    if (this.hang) {
      return new Promise<Response>((_, reject) => init.signal?.addEventListener('abort', () => reject(new Error('aborted'))));
    }
    const response = undecodable ? json(400, { errorCode: 'decoding_error', errorDescription: 'the request body is not JSON' }) : await this.route(method, call.path, auth, body);
    call.status = response.status;
    return response;
  };

  /** Calls whose path ends with `suffix` (e.g. '/tracks/close'). */
  callsTo(suffix: string): FakeCall[] {
    return this.calls.filter((c) => c.path.endsWith(suffix));
  }

  private dead(s: FakeSession): boolean {
    return s.connection === 'disconnected' && Date.now() - s.disconnectedAt >= this.reuseWindowMs;
  }

  /** Tracks without incoming media for the media timeout are garbage-collected. */
  private collect(s: FakeSession): void {
    if (s.mediaStoppedAt === null || Date.now() - s.mediaStoppedAt < this.mediaTimeoutMs) return;
    for (const [mid, t] of s.tracks) if (t.location === 'local') s.tracks.delete(mid);
  }

  private async route(method: string, path: string, auth: string | null, body: any): Promise<Response> {
    const turn = /^\/turn\/keys\/([^/]+)\/credentials\/generate-ice-servers$/.exec(path);
    if (turn) {
      if (method !== 'POST' || turn[1] !== this.turnKeyId) return json(404, { errorCode: 'not_found' });
      if (auth !== `Bearer ${this.turnToken}`) return json(401, { errorCode: 'unauthorized' });
      // The list Cloudflare documents: each server also on port 53, which clients are told to drop.
      const stun = { urls: ['stun:stun.realtime.test:3478', 'stun:stun.realtime.test:53'] };
      const relay = {
        urls: ['turn:turn.realtime.test:3478?transport=udp', 'turn:turn.realtime.test:53?transport=udp', 'turns:turn.realtime.test:443?transport=tcp'],
        username: `u-${body.ttl}`,
        credential: `c-${++this.turnIssued}`,
      };
      return json(201, { iceServers: this.turnSingleObject ? { ...relay, urls: relay.urls[0] } : [stun, relay] });
    }
    const app = /^\/apps\/([^/]+)\/(.+)$/.exec(path);
    if (!app || app[1] !== this.appId) return json(404, { errorCode: 'not_found' });
    if (auth !== `Bearer ${this.secret}`) return json(401, { errorCode: 'unauthorized' });
    if (this.forceStatus) return json(this.forceStatus, { errorCode: 'internal_error', errorDescription: 'Backend error' });
    const rest = app[2];
    if (method === 'POST' && rest === 'sessions/new') {
      const sessionId = `s${++this.sessionCount}`;
      this.sessions.set(sessionId, { tracks: new Map(), nextMid: 0, busy: false, answers: [], connection: 'new', disconnectedAt: 0, mediaStoppedAt: null, pendingOffer: false });
      return json(201, { sessionId });
    }
    const m = /^sessions\/([^/]+)(\/.*)?$/.exec(rest);
    const session = m ? this.sessions.get(m[1]) : undefined;
    for (const s of this.sessions.values()) this.collect(s);
    if (!m || !session) return json(404, { errorCode: 'session_error', errorDescription: 'session not found' });
    const op = `${method} ${m[2] ?? ''}`;
    // A published track whose media stopped is 'inactive' until collected.
    if (op === 'GET ') return json(200, { tracks: [...session.tracks.values()].map((t) => ({ ...t, status: t.location === 'local' && session.mediaStoppedAt !== null ? 'inactive' : 'active' })) });
    if (!['POST /tracks/new', 'PUT /renegotiate', 'PUT /tracks/close', 'PUT /tracks/update'].includes(op)) return json(404, { errorCode: 'not_found' });
    // A mutation: flag any other one running on this session, and take a moment, as the SFU does.
    if (session.busy) this.overlaps.push(path);
    session.busy = true;
    try {
      await new Promise((r) => setTimeout(r, 15));
      if (this.dead(session)) return sessionGone();
      // The SFU's offer is answered by /renegotiate before anything else may change the session.
      if (session.pendingOffer && op !== 'PUT /renegotiate') {
        this.refused406.push(path);
        return json(406, { errorCode: 'session_error', errorDescription: 'another negotiation of this session is not finished' });
      }
      // Setup is the first exchange (a tracks/new, or the answer to the SFU's offer); after it,
      // every operation waits for the PeerConnection, then 425.
      const setup = (session.connection === 'new' && session.answers.length === 0 && op === 'POST /tracks/new' && session.tracks.size === 0) || (op === 'PUT /renegotiate' && session.pendingOffer);
      if (!setup && session.connection !== 'connected') {
        const until = Date.now() + this.connectWaitMs;
        const connected = () => (session.connection as FakeConnection) === 'connected';
        while (!connected() && Date.now() < until && !this.dead(session)) await new Promise((r) => setTimeout(r, 10));
        if (this.dead(session)) return sessionGone();
        if (!connected()) {
          return json(425, { errorCode: 'session_error', errorDescription: 'finish setup and wait for connection before later operations' });
        }
      }
      if (op === 'POST /tracks/new') return this.newTracks(m[1], session, body);
      if (op === 'PUT /renegotiate') return this.renegotiate(session, body);
      if (op === 'PUT /tracks/update') return updateTracks(this.sessions, session, body);
      return closeTracks(session, body);
    } finally {
      session.busy = false;
    }
  }

  private newTracks(sessionId: string, session: FakeSession, body: any): Response {
    const tracks: any[] = body?.tracks ?? [];
    const local = tracks.some((t) => t.location === 'local');
    if (local && (body?.sessionDescription?.type !== 'offer' || !body.sessionDescription.sdp)) {
      return json(400, { errorCode: 'invalid_session_description', errorDescription: 'local tracks need the endpoint\'s offer' });
    }
    const out = tracks.map((t) => {
      if (t.location === 'local') {
        const refused = this.refuseTracks.get(t.trackName);
        if (refused) return { mid: t.mid, trackName: t.trackName, errorCode: refused, errorDescription: 'refused by the fake' };
        const rids = sdpRids(body.sessionDescription.sdp, t.mid);
        session.tracks.set(t.mid, { mid: t.mid, trackName: t.trackName, location: 'local', ...(rids ? { rids } : {}) });
        return { mid: t.mid, trackName: t.trackName };
      }
      const source = this.sessions.get(t.sessionId);
      const exists = source && [...source.tracks.values()].some((s) => s.location === 'local' && s.trackName === t.trackName);
      if (!exists) return { trackName: t.trackName, sessionId: t.sessionId, errorCode: 'not_found_track_error', errorDescription: 'the track does not exist or was collected' };
      const mid = String(session.nextMid++);
      const simulcast = t.simulcast ? { simulcast: { ...t.simulcast } } : {};
      session.tracks.set(mid, { mid, trackName: t.trackName, location: 'remote', sessionId: t.sessionId, ...simulcast });
      return { mid, trackName: t.trackName, sessionId: t.sessionId, ...simulcast };
    });
    const pulled = out.some((t) => !t.errorCode && !local);
    if (local) {
      // The publisher's answer is returned: its browser connects.
      if (this.autoConnect && session.connection === 'new') this.connect(sessionId);
      return json(200, { requiresImmediateRenegotiation: false, sessionDescription: { type: 'answer', sdp: `answer-to:${body.sessionDescription.sdp}` }, tracks: out });
    }
    if (!pulled) return json(200, { requiresImmediateRenegotiation: false, tracks: out });
    session.pendingOffer = true;
    return json(200, { requiresImmediateRenegotiation: true, sessionDescription: { type: 'offer', sdp: `offer-for:${sessionId}` }, tracks: out });
  }

  private renegotiate(session: FakeSession, body: any): Response {
    if (this.renegotiateError) {
      const errorCode = this.renegotiateError;
      this.renegotiateError = null;
      return json(200, { errorCode, errorDescription: 'refused by the fake' });
    }
    // An answer needs an offer of the SFU's to answer (offer/answer order).
    if (body?.sessionDescription?.type !== 'answer' || !session.pendingOffer) {
      return json(400, { errorCode: 'invalid_session_description', errorDescription: 'no offer of the SFU to answer, or not an answer' });
    }
    session.pendingOffer = false;
    session.answers.push(body.sessionDescription.sdp);
    if (this.autoConnect && session.connection === 'new') session.connection = 'connected';
    return json(200, {});
  }
}
