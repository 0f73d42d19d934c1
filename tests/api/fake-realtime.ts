import type { FetchLike } from '../../src/server/features/video/realtime-api';

// An in-memory stand-in for Cloudflare Realtime's documented HTTPS API (SFU "Connection API"
// and the TURN key API; docs/video-notes.md), behind a fetch-compatible function the engine
// takes by injection. It checks the bearer, keeps sessions and tracks, answers per-track errors
// inside a 200 as the docs describe, and records every mutation that overlaps another on the
// same session (the docs ask callers to serialise them).

export interface FakeTrack {
  mid: string;
  trackName: string;
  location: 'local' | 'remote';
  /** For a remote track: the publisher's session. */
  sessionId?: string;
}

interface FakeSession {
  tracks: Map<string, FakeTrack>;
  nextMid: number;
  busy: boolean;
  answers: string[];
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
  private sessionCount = 0;
  /** TURN credentials issued so far. */
  turnIssued = 0;

  constructor(
    readonly appId = 'app-1',
    readonly secret = 'app-secret-1',
    readonly turnKeyId = 'turn-key-1',
    readonly turnToken = 'turn-token-1',
  ) {}

  readonly fetch: FetchLike = async (input, init) => {
    const url = new URL(input);
    const method = init.method ?? 'GET';
    const auth = new Headers(init.headers).get('authorization');
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    const call: FakeCall = { method, path: url.pathname.replace(/^\/v1/, ''), auth, body };
    this.calls.push(call);
    if (this.hang) {
      return new Promise<Response>((_, reject) => init.signal?.addEventListener('abort', () => reject(new Error('aborted'))));
    }
    const response = await this.route(method, call.path, auth, body);
    call.status = response.status;
    return response;
  };

  /** Calls whose path ends with `suffix` (e.g. '/tracks/close'). */
  callsTo(suffix: string): FakeCall[] {
    return this.calls.filter((c) => c.path.endsWith(suffix));
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
      this.sessions.set(sessionId, { tracks: new Map(), nextMid: 0, busy: false, answers: [] });
      return json(201, { sessionId });
    }
    const m = /^sessions\/([^/]+)(\/.*)?$/.exec(rest);
    const session = m ? this.sessions.get(m[1]) : undefined;
    if (!m || !session) return json(404, { errorCode: 'session_not_found' });
    const op = `${method} ${m[2] ?? ''}`;
    if (op === 'GET ') {
      return json(200, { tracks: [...session.tracks.values()].map((t) => ({ ...t, status: 'active' })) });
    }
    if (!['POST /tracks/new', 'PUT /renegotiate', 'PUT /tracks/close'].includes(op)) return json(404, { errorCode: 'not_found' });
    // A mutation: flag any other one running on this session, and take a moment, as the SFU does.
    if (session.busy) this.overlaps.push(path);
    session.busy = true;
    try {
      await new Promise((r) => setTimeout(r, 15));
      if (op === 'POST /tracks/new') return this.newTracks(m[1], session, body);
      if (op === 'PUT /renegotiate') return this.renegotiate(session, body);
      return this.close(session, body);
    } finally {
      session.busy = false;
    }
  }

  private newTracks(sessionId: string, session: FakeSession, body: any): Response {
    const tracks: any[] = body?.tracks ?? [];
    const local = tracks.some((t) => t.location === 'local');
    if (local && body?.sessionDescription?.type !== 'offer') return json(400, { errorCode: 'invalid_request' });
    const out = tracks.map((t) => {
      if (t.location === 'local') {
        const refused = this.refuseTracks.get(t.trackName);
        if (refused) return { mid: t.mid, trackName: t.trackName, errorCode: refused, errorDescription: 'refused by the fake' };
        session.tracks.set(t.mid, { mid: t.mid, trackName: t.trackName, location: 'local' });
        return { mid: t.mid, trackName: t.trackName };
      }
      const source = this.sessions.get(t.sessionId);
      const exists = source && [...source.tracks.values()].some((s) => s.location === 'local' && s.trackName === t.trackName);
      if (!exists) return { trackName: t.trackName, sessionId: t.sessionId, errorCode: 'track_not_found', errorDescription: 'no such track' };
      const mid = String(session.nextMid++);
      session.tracks.set(mid, { mid, trackName: t.trackName, location: 'remote', sessionId: t.sessionId });
      return { mid, trackName: t.trackName, sessionId: t.sessionId };
    });
    const sessionDescription = local
      ? { type: 'answer', sdp: `answer-to:${body.sessionDescription.sdp}` }
      : { type: 'offer', sdp: `offer-for:${sessionId}` };
    return json(200, { requiresImmediateRenegotiation: !local, sessionDescription, tracks: out });
  }

  private renegotiate(session: FakeSession, body: any): Response {
    if (this.renegotiateError) {
      const errorCode = this.renegotiateError;
      this.renegotiateError = null;
      return json(200, { errorCode, errorDescription: 'refused by the fake' });
    }
    if (body?.sessionDescription?.type !== 'answer') return json(400, { errorCode: 'invalid_request' });
    session.answers.push(body.sessionDescription.sdp);
    return json(200, {});
  }

  private close(session: FakeSession, body: any): Response {
    if (body?.force !== true && !body?.sessionDescription) return json(400, { errorCode: 'invalid_request' });
    const tracks = (body?.tracks ?? []).map((t: { mid: string }) => {
      if (!session.tracks.delete(t.mid)) return { mid: t.mid, errorCode: 'close_track_error', errorDescription: "Track doesn't exist or was already closed" };
      return { mid: t.mid };
    });
    return json(200, { requiresImmediateRenegotiation: false, tracks });
  }
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}
