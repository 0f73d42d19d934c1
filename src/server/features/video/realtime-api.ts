import { z } from 'zod';
import type { IceServer } from '../../../shared/video';
import { failedTracks, trackError } from './realtime-errors';
import type { SimulcastPull } from './simulcast';
import { VideoRelayError } from './video-relay';

// The HTTP layer of Cloudflare Realtime (SFU "Connection API" and TURN key API), as documented
// (docs/video-notes.md lists the sources). Every call carries a bearer (the app secret, or the
// TURN key's API token), has a timeout, and maps failures to VideoRelayError. Mutations of one
// SFU session run one after another (the docs ask to serialise them per session).

/** The real `fetch` fits; tests pass the in-memory fake (tests/api/fake-realtime.ts). */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface RealtimeApiOptions {
  base: string;
  appId: string;
  appSecret: string;
  timeoutMs: number;
}

const sdp = z.object({ type: z.enum(['offer', 'answer']), sdp: z.string() });
const errorFields = { errorCode: z.string().optional(), errorDescription: z.string().optional() };
const track = z.object({
  mid: z.string().optional(),
  trackName: z.string().optional(),
  sessionId: z.string().optional(),
  location: z.string().optional(),
  status: z.string().optional(),
  ...errorFields,
});
const newSession = z.object({ sessionId: z.string().min(1), ...errorFields });
const tracksResponse = z.object({
  requiresImmediateRenegotiation: z.boolean().optional(),
  sessionDescription: sdp.optional(),
  tracks: z.array(track).optional(),
  ...errorFields,
});
const renegotiateResponse = z.object({ sessionDescription: sdp.optional(), ...errorFields });
const sessionState = z.object({ tracks: z.array(track).optional(), ...errorFields });
const iceServer = z.object({
  urls: z.union([z.string(), z.array(z.string())]),
  username: z.string().optional(),
  credential: z.string().optional(),
});
// generate-ice-servers answers a list; the older credentials/generate a single object.
const turnResponse = z.object({ iceServers: z.union([z.array(iceServer), iceServer]) });

export type TracksResponse = z.infer<typeof tracksResponse>;
export type ApiTrack = z.infer<typeof track>;
/** A switch of a pulled track (tracks/update): `mid` is the receiving session's, as documented. */
export interface UpdateTrack {
  location: 'remote';
  sessionId: string;
  trackName: string;
  mid: string;
  simulcast: SimulcastPull;
}

/**
 * Cloudflare's TURN list includes port-53 URLs; browsers wait on them (port 53 is often blocked),
 * and a client that does not trickle candidates is told to drop them.
 */
export function withoutPort53(servers: IceServer[]): IceServer[] {
  return servers.map((s) => ({ ...s, urls: s.urls.filter((u) => !/:53(\?|$)/.test(u)) })).filter((s) => s.urls.length > 0);
}

export class RealtimeApi {
  private readonly chains = new Map<string, Promise<unknown>>();
  /** Sessions whose chain waits for the endpoint's answer to an SFU offer: the release. */
  private readonly held = new Map<string, () => void>();

  constructor(
    private readonly options: RealtimeApiOptions,
    private readonly fetchFn: FetchLike,
  ) {}

  /**
   * Runs `work` after every earlier call queued for this session has settled. A result that
   * `holds` keeps the chain until `release` (the matching /renegotiate) or the API timeout.
   */
  serial<T>(sessionId: string, work: () => Promise<T>, holds?: (result: T) => boolean): Promise<T> {
    const previous = this.chains.get(sessionId) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.then(
      (result) => (holds?.(result) ? this.hold(sessionId) : undefined),
      () => undefined,
    );
    this.chains.set(sessionId, settled);
    void settled.then(() => {
      if (this.chains.get(sessionId) === settled) this.chains.delete(sessionId);
    });
    return next;
  }

  /** Whether the session's chain waits for the answer to an SFU offer. */
  pending(sessionId: string): boolean {
    return this.held.has(sessionId);
  }

  /** The chain frees: the offer was answered, or will never be (the viewer was cut off). */
  release(sessionId: string): void {
    this.held.get(sessionId)?.();
  }

  private hold(sessionId: string): Promise<void> {
    return new Promise((resolve) => {
      const release = () => {
        clearTimeout(timer);
        if (this.held.get(sessionId) === release) this.held.delete(sessionId);
        resolve();
      };
      const timer = setTimeout(release, this.options.timeoutMs);
      this.held.set(sessionId, release);
    });
  }

  newSession(): Promise<string> {
    return this.app('POST', 'sessions/new', undefined, newSession).then((r) => r.sessionId);
  }

  newTracks(sessionId: string, body: { sessionDescription?: z.infer<typeof sdp>; tracks: object[] }): Promise<TracksResponse> {
    // An SFU offer (requiresImmediateRenegotiation) holds the session until the endpoint answers:
    // any other mutation before that would be refused (406).
    return this.serial(sessionId, () => this.app('POST', `sessions/${enc(sessionId)}/tracks/new`, body, tracksResponse), (r) => r.requiresImmediateRenegotiation === true);
  }

  /** The answer to a held offer runs at once (it is what the chain waits for) and frees the chain. */
  renegotiate(sessionId: string, description: z.infer<typeof sdp>) {
    const call = () => this.app('PUT', `sessions/${enc(sessionId)}/renegotiate`, { sessionDescription: description }, renegotiateResponse);
    const release = this.held.get(sessionId);
    if (!release) return this.serial(sessionId, call);
    this.held.delete(sessionId);
    return call().finally(release);
  }

  /** Forced close (no SDP exchange): the SFU stops forwarding at once. */
  closeTracks(sessionId: string, mids: string[]): Promise<TracksResponse> {
    const body = { tracks: mids.map((mid) => ({ mid })), force: true };
    return this.serial(sessionId, () => this.app('PUT', `sessions/${enc(sessionId)}/tracks/close`, body, tracksResponse));
  }

  /**
   * Switches pulled tracks' simulcast layer (no SDP exchange). Serialised like every mutation; a
   * track refused inside the 200 (`update_track_error`) is a 'track' VideoRelayError.
   */
  async updateTracks(sessionId: string, tracks: UpdateTrack[]): Promise<TracksResponse> {
    const res = await this.serial(sessionId, () => this.app('PUT', `sessions/${enc(sessionId)}/tracks/update`, { tracks }, tracksResponse));
    const failed = failedTracks(res.tracks);
    if (failed.length) throw trackError('update', failed);
    return res;
  }

  session(sessionId: string) {
    return this.app('GET', `sessions/${enc(sessionId)}`, undefined, sessionState);
  }

  /** TURN key API: short-lived credentials mapped to the browser's ICE server list (port-53 URLs dropped). */
  async turnIceServers(keyId: string, token: string, ttl: number): Promise<IceServer[]> {
    const url = `${this.options.base}/turn/keys/${enc(keyId)}/credentials/generate-ice-servers`;
    const body = await this.request('POST', url, token, { ttl }, turnResponse);
    const list = Array.isArray(body.iceServers) ? body.iceServers : [body.iceServers];
    return withoutPort53(
      list.map((s) => ({
        urls: typeof s.urls === 'string' ? [s.urls] : s.urls,
        ...(s.username !== undefined ? { username: s.username } : {}),
        ...(s.credential !== undefined ? { credential: s.credential } : {}),
      })),
    );
  }

  private async app<T extends { errorCode?: string; errorDescription?: string }>(method: string, path: string, body: unknown, schema: z.ZodType<T>): Promise<T> {
    const url = `${this.options.base}/apps/${enc(this.options.appId)}/${path}`;
    const result = await this.request(method, url, this.options.appSecret, body, schema);
    if (result.errorCode) {
      throw new VideoRelayError('session', `Realtime ${method} ${path}: ${result.errorCode} ${result.errorDescription ?? ''}`.trim(), {
        errorCode: result.errorCode,
      });
    }
    return result;
  }

  private async request<T>(method: string, url: string, bearer: string, body: unknown, schema: z.ZodType<T>): Promise<T> {
    const abort = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        abort.abort();
        reject(new VideoRelayError('timeout', `Realtime ${method} ${pathOf(url)} gave no answer within ${this.options.timeoutMs} ms`));
      }, this.options.timeoutMs);
    });
    timeout.catch(() => undefined);
    const headers: Record<string, string> = { authorization: `Bearer ${bearer}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    try {
      const init: RequestInit = { method, headers, signal: abort.signal, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) };
      const response = await Promise.race([this.fetchFn(url, init), timeout]);
      const text = await Promise.race([response.text(), timeout]);
      let json: unknown = null;
      try {
        json = text ? JSON.parse(text) : {};
      } catch {
        json = null;
      }
      if (!response.ok) {
        const errorCode = typeof json === 'object' && json && 'errorCode' in json ? String(json.errorCode) : undefined;
        throw new VideoRelayError('http', `Realtime ${method} ${pathOf(url)} answered ${response.status}${errorCode ? ` (${errorCode})` : ''}`, {
          status: response.status,
          errorCode,
        });
      }
      const parsed = schema.safeParse(json);
      if (!parsed.success) {
        throw new VideoRelayError('http', `Realtime ${method} ${pathOf(url)} answered ${response.status} with a body we cannot read`, { status: response.status });
      }
      return parsed.data;
    } catch (e) {
      if (e instanceof VideoRelayError) throw e;
      throw new VideoRelayError('http', `Realtime ${method} ${pathOf(url)} failed: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      clearTimeout(timer);
    }
  }
}

const enc = encodeURIComponent;

/** The URL's path only: messages and logs never carry a query or a host's secrets. */
function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '(bad url)';
  }
}
