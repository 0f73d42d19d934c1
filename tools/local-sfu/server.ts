import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Sfu, type SfuConfig } from './control';
import { closeTracks, fail, newTracks, renegotiate, reply, updateTracks, type Reply } from './tracks';

// A local stand-in of Cloudflare Realtime's HTTPS API (SFU sessions/tracks and the TURN key
// call) that forwards real RTP through werift: a development and test tool, never deployed and
// never imported by src/. Paths, bearer checks and error bodies follow the documented API and
// tests/api/fake-realtime.ts (the contract); `/_control/...` is the tests' handle on it.

const MAX_BODY = 1_000_000;
const MUTATIONS = ['POST /tracks/new', 'PUT /renegotiate', 'PUT /tracks/close', 'PUT /tracks/update'];

export interface LocalSfu {
  server: Server;
  sfu: Sfu;
}

export function createLocalSfu(config: SfuConfig): LocalSfu {
  const sfu = new Sfu(config);
  const server = createServer((req, res) => {
    handle(sfu, req, res).catch((e) => send(res, fail(500, 'internal_error', e instanceof Error ? e.message : String(e))));
  });
  return { server, sfu };
}

async function handle(sfu: Sfu, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = new URL(req.url ?? '/', 'http://local').pathname;
  const method = req.method ?? 'GET';
  if (path.startsWith('/v1/') && sfu.unreachable) {
    req.socket.destroy();
    return;
  }
  const text = await readBody(req);
  if (text === null) return send(res, fail(413, 'payload_too_large', 'the request body is too large'));
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = text ? JSON.parse(text) : {};
    body = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return send(res, fail(400, 'decoding_error', 'the request body is not JSON'));
  }
  if (path.startsWith('/_control/')) return send(res, sfu.control(method, path.slice('/_control'.length), body) ?? reply(404, { error: 'unknown control' }));
  if (!path.startsWith('/v1/')) return send(res, fail(404, 'not_found', 'unknown path'));
  send(res, await route(sfu, method, path.slice(3), req.headers.authorization ?? null, body));
}

async function route(sfu: Sfu, method: string, path: string, auth: string | null, body: Record<string, any>): Promise<Reply> {
  const turn = /^\/turn\/keys\/([^/]+)\/credentials\/generate-ice-servers$/.exec(path);
  if (turn) {
    if (method !== 'POST' || (sfu.config.turnKeyId && turn[1] !== sfu.config.turnKeyId)) return fail(404, 'not_found', 'unknown TURN key');
    const token = /^Bearer (\S+)$/.exec(auth ?? '')?.[1];
    if (!token || (sfu.config.turnToken && token !== sfu.config.turnToken)) return fail(401, 'unauthorized', 'bad TURN key token');
    return reply(201, { iceServers: sfu.config.iceServers });
  }
  const app = /^\/apps\/([^/]+)\/(.+)$/.exec(path);
  if (!app || app[1] !== sfu.config.appId) return fail(404, 'not_found', 'unknown app');
  if (auth !== `Bearer ${sfu.config.secret}`) return fail(401, 'unauthorized', 'bad app secret');
  if (sfu.failNext) {
    const { status, errorCode } = sfu.failNext;
    sfu.failNext = null;
    return fail(status, errorCode, 'failed on purpose (/_control/fail-next)');
  }
  const rest = app[2];
  if (method === 'POST' && rest === 'sessions/new') return reply(201, { sessionId: sfu.newSession().id });
  const m = /^sessions\/([^/]+)(\/.*)?$/.exec(rest);
  for (const s of sfu.sessions.values()) s.collect();
  const session = m ? sfu.sessions.get(m[1]) : undefined;
  if (!m || !session) return fail(404, 'session_error', 'session not found');
  const op = `${method} ${m[2] ?? ''}`;
  if (op === 'GET ') {
    const recent = (t: { lastPacketAt: number | null }) => (t.lastPacketAt !== null && Date.now() - t.lastPacketAt < 5_000 ? 'active' : 'inactive');
    const local = [...session.local.values()].map((t) => ({ location: 'local', mid: t.mid, trackName: t.trackName, status: recent(t) }));
    const remote = [...session.remote.values()].map((t) => ({ location: 'remote', mid: t.mid, trackName: t.trackName, sessionId: t.sessionId, status: 'active' }));
    return reply(200, { tracks: [...local, ...remote], dataChannels: [] });
  }
  if (!MUTATIONS.includes(op)) return fail(404, 'not_found', 'unknown operation');
  return session.serial(
    async () => {
      if (session.dead) return sessionGone();
      // The SFU's offer is answered by /renegotiate before anything else may change the session.
      if (session.pendingOffer && op !== 'PUT /renegotiate') return fail(406, 'session_error', 'another negotiation of this session is not finished');
      // Setup is the first exchange; every later operation waits for the PeerConnection, then 425.
      const first = !session.negotiated && op === 'POST /tracks/new' && session.local.size === 0 && session.remote.size === 0;
      const setup = first || (op === 'PUT /renegotiate' && session.pendingOffer);
      if (!setup && !session.connected) {
        const connected = await session.waitConnected();
        if (session.dead) return sessionGone();
        if (!connected) return fail(425, 'session_error', 'finish setup and wait for connection before later operations');
      }
      if (op === 'POST /tracks/new') return newTracks(sfu, session, body);
      if (op === 'PUT /renegotiate') return renegotiate(session, body);
      if (op === 'PUT /tracks/close') return closeTracks(session, body);
      return updateTracks(session, body);
    },
    () => sfu.overlaps++,
  );
}

function sessionGone(): Reply {
  return fail(410, 'session_error', 'Replace an expired session or closed connection and rebuild publications and subscriptions. Retrying the old session does not reconnect it.');
}

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY) chunks.push(c);
    });
    req.on('end', () => resolve(size > MAX_BODY ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, r: Reply): void {
  if (res.headersSent) return;
  const text = JSON.stringify(r.body);
  res.writeHead(r.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
