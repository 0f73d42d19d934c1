import { randomBytes } from 'node:crypto';
import { Session, type Timing } from './session';

// The stand-in's state and the knobs tests turn through `/_control`: packet counts per session
// and RID, "fail the next call with status X", "drop N% of the packets to session S", kill a
// session (410 from then on), go unreachable, and the SFU's timings.

export interface SfuConfig {
  appId: string;
  secret: string;
  /** What generate-ice-servers answers (default: none). */
  iceServers: unknown[];
  /** When set, the TURN call must name this key and carry this bearer. */
  turnKeyId?: string;
  turnToken?: string;
}

export interface SessionStats {
  /** Packets from the endpoint, per RID ('' = no simulcast). */
  received: Record<string, number>;
  /** Packets forwarded to the endpoint, per RID of the source layer. */
  forwarded: Record<string, number>;
  connection: string;
  localTracks: string[];
  remoteTracks: string[];
}

export class Sfu {
  readonly sessions = new Map<string, Session>();
  readonly timing: Timing = { reuseWindowMs: 30_000, connectWaitMs: 5_000, mediaTimeoutMs: 30_000 };
  private readonly counts = new Map<string, { received: Record<string, number>; forwarded: Record<string, number> }>();
  readonly dropPercent = new Map<string, number>();
  failNext: { status: number; errorCode: string } | null = null;
  unreachable = false;
  /** Mutations that arrived while another one of the same session ran (they were queued). */
  overlaps = 0;

  constructor(readonly config: SfuConfig) {}

  newSession(): Session {
    const id = randomBytes(16).toString('hex');
    const session = new Session(id, () => this.timing);
    this.sessions.set(id, session);
    this.counts.set(id, { received: {}, forwarded: {} });
    return session;
  }

  count(sessionId: string, what: 'received' | 'forwarded', rid: string): void {
    const c = this.counts.get(sessionId);
    if (c) c[what][rid] = (c[what][rid] ?? 0) + 1;
  }

  stats(): { sessions: Record<string, SessionStats>; overlaps: number } {
    const sessions: Record<string, SessionStats> = {};
    for (const [id, s] of this.sessions) {
      const c = this.counts.get(id) ?? { received: {}, forwarded: {} };
      sessions[id] = {
        received: { ...c.received },
        forwarded: { ...c.forwarded },
        connection: s.killed ? 'killed' : s.pc.connectionState,
        localTracks: [...s.local.values()].map((t) => t.trackName),
        remoteTracks: [...s.remote.values()].map((t) => t.trackName),
      };
    }
    return { sessions, overlaps: this.overlaps };
  }

  /** Applies one `/_control` request; null when the path is unknown. */
  control(method: string, path: string, body: Record<string, unknown>): { status: number; body: unknown } | null {
    if (method === 'GET' && path === '/stats') return { status: 200, body: this.stats() };
    if (method !== 'POST') return null;
    const sessionId = typeof body.sessionId === 'string' ? body.sessionId : '';
    switch (path) {
      case '/fail-next': {
        const status = Number(body.status);
        if (!Number.isInteger(status) || status < 400 || status > 599) return { status: 400, body: { error: 'status must be 400-599' } };
        this.failNext = { status, errorCode: typeof body.errorCode === 'string' ? body.errorCode : 'internal_error' };
        return { status: 200, body: {} };
      }
      case '/drop': {
        const percent = Number(body.percent);
        if (!this.sessions.has(sessionId) || !(percent >= 0 && percent <= 100)) return { status: 400, body: { error: 'sessionId and percent 0-100' } };
        this.dropPercent.set(sessionId, percent);
        return { status: 200, body: {} };
      }
      case '/kill': {
        const s = this.sessions.get(sessionId);
        if (!s) return { status: 404, body: { error: 'no such session' } };
        s.kill();
        return { status: 200, body: {} };
      }
      case '/unreachable':
        this.unreachable = body.on !== false;
        return { status: 200, body: {} };
      case '/timing':
        for (const key of Object.keys(this.timing) as (keyof Timing)[]) {
          if (typeof body[key] === 'number' && (body[key] as number) >= 0) this.timing[key] = body[key] as number;
        }
        return { status: 200, body: { ...this.timing } };
      case '/ice-servers':
        if (!Array.isArray(body.iceServers)) return { status: 400, body: { error: 'iceServers must be a list' } };
        this.config.iceServers = body.iceServers;
        return { status: 200, body: {} };
      default:
        return null;
    }
  }
}
