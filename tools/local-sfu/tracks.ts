import { Forwarder, type Simulcast } from './forward';
import type { Sfu } from './control';
import { isDescription, offeredMedia } from './sdp';
import { LocalTrack, type Session } from './session';

// The mutations of one session, as the Realtime SFU documents them (and as tests/api/
// fake-realtime.ts, the contract, behaves): push local tracks from the endpoint's offer, pull
// remote tracks with an SFU offer, take the endpoint's answer, close and update tracks.
// A 200 can carry per-track errors; session-level refusals carry errorCode/errorDescription.

export interface Reply {
  status: number;
  body: unknown;
}

type Body = Record<string, any>;

export const reply = (status: number, body: unknown): Reply => ({ status, body });
export const fail = (status: number, errorCode: string, errorDescription: string): Reply => reply(status, { errorCode, errorDescription });
const badSdp = (why: string) => fail(400, 'invalid_session_description', why);

export async function newTracks(sfu: Sfu, session: Session, body: Body): Promise<Reply> {
  const tracks: Body[] = Array.isArray(body.tracks) ? body.tracks : [];
  if (body.autoDiscover === true || tracks.some((t) => t?.location === 'local')) return pushTracks(sfu, session, body, tracks);
  if (tracks.length === 0) return fail(400, 'invalid_params', 'tracks (or autoDiscover with an offer) is required');
  return pullTracks(sfu, session, tracks);
}

async function pushTracks(sfu: Sfu, session: Session, body: Body, asked: Body[]): Promise<Reply> {
  const offer = body.sessionDescription;
  if (!isDescription(offer, 'offer')) return badSdp("local tracks need the endpoint's offer");
  const media = offeredMedia(offer.sdp);
  const tracks: Body[] = body.autoDiscover === true ? media.filter((m) => m.kind !== 'application').map((m) => ({ location: 'local', mid: m.mid, trackName: m.msidTrack ?? m.mid })) : asked;
  try {
    await session.pc.setRemoteDescription({ type: 'offer', sdp: offer.sdp });
    await session.pc.setLocalDescription(await session.pc.createAnswer());
  } catch (e) {
    return badSdp(`the offer could not be applied: ${e instanceof Error ? e.message : String(e)}`);
  }
  session.negotiated = true;
  const out = tracks.map((t) => {
    const mid = String(t.mid ?? '');
    const trackName = String(t.trackName ?? '');
    const m = media.find((x) => x.mid === mid);
    const transceiver = session.pc.getTransceivers().find((x) => x.mid === mid);
    if (t.location !== 'local') return { trackName, sessionId: t.sessionId, errorCode: 'invalid_params', errorDescription: 'a push and a pull in one call are not supported here' };
    if (!trackName || !m || !transceiver || m.kind === 'application') return { mid, trackName, errorCode: 'not_found_track_error', errorDescription: 'no audio or video m-section with this mid in the offer' };
    if (session.findLocal(trackName)) return { mid, trackName, errorCode: 'repeated_local_track_error', errorDescription: 'this session already publishes a track of this name' };
    const kind = m.kind === 'audio' ? 'audio' : 'video';
    session.local.set(mid, new LocalTrack(trackName, mid, kind, m.rids.length ? m.rids : [''], transceiver, (rid) => sfu.count(session.id, 'received', rid)));
    return { mid, trackName };
  });
  return reply(200, { requiresImmediateRenegotiation: false, sessionDescription: { type: 'answer', sdp: session.pc.localDescription?.sdp ?? '' }, tracks: out });
}

async function pullTracks(sfu: Sfu, session: Session, asked: Body[]): Promise<Reply> {
  const added: { t: Body; transceiver: ReturnType<Session['pc']['addTransceiver']>; source: LocalTrack; index: number }[] = [];
  const out: Body[] = asked.map((t, index) => {
    const trackName = String(t?.trackName ?? '');
    const source = typeof t?.sessionId === 'string' && t.sessionId !== session.id ? sfu.sessions.get(t.sessionId) : undefined;
    const local = source && !source.dead ? source.findLocal(trackName) : undefined;
    const codec = local?.viewerCodec();
    if (t?.location !== 'remote' || !local || !codec) return { trackName, sessionId: t?.sessionId, errorCode: 'not_found_track_error', errorDescription: 'the track does not exist or was collected' };
    const transceiver = session.pc.addTransceiver(local.kind, { direction: 'sendonly' });
    // Only the publisher's codec, with its payload type: the SFU forwards, it does not transcode.
    transceiver.codecs = [codec];
    added.push({ t, transceiver, source: local, index });
    return { trackName, sessionId: t.sessionId };
  });
  if (added.length === 0) return reply(200, { requiresImmediateRenegotiation: false, tracks: out });
  await session.pc.setLocalDescription(await session.pc.createOffer());
  session.pendingOffer = true;
  for (const { t, transceiver, source, index } of added) {
    const mid = transceiver.mid ?? '';
    const simulcast = validSimulcast(t.simulcast);
    const forwarder = new Forwarder(
      source,
      transceiver.sender,
      {
        forwarded: (rid) => sfu.count(session.id, 'forwarded', rid),
        dropPercent: () => sfu.dropPercent.get(session.id) ?? 0,
        ready: () => transceiver.sender.dtlsTransport?.state === 'connected',
      },
      simulcast,
    );
    session.remote.set(mid, { mid, trackName: source.trackName, sessionId: t.sessionId, forwarder, ...(simulcast ? { simulcast } : {}) });
    out[index] = { ...out[index], mid, ...(simulcast ? { simulcast } : {}) };
  }
  return reply(200, { requiresImmediateRenegotiation: true, sessionDescription: { type: 'offer', sdp: session.pc.localDescription?.sdp ?? '' }, tracks: out });
}

export async function renegotiate(session: Session, body: Body): Promise<Reply> {
  const answer = body.sessionDescription;
  if (!isDescription(answer, 'answer') || !session.pendingOffer) return badSdp('no offer of the SFU to answer, or not an answer');
  try {
    await session.pc.setRemoteDescription({ type: 'answer', sdp: answer.sdp });
  } catch (e) {
    return badSdp(`the answer could not be applied: ${e instanceof Error ? e.message : String(e)}`);
  }
  session.pendingOffer = false;
  session.negotiated = true;
  return reply(200, {});
}

export async function closeTracks(session: Session, body: Body): Promise<Reply> {
  const offer = body.sessionDescription;
  if (body.force !== true && !isDescription(offer, 'offer')) return badSdp('a close without force needs an offer');
  const tracks = (Array.isArray(body.tracks) ? body.tracks : []).map((t: Body) => {
    const mid = String(t?.mid ?? '');
    const local = session.local.get(mid);
    const remote = session.remote.get(mid);
    if (local) {
      local.close();
      session.local.delete(mid);
    } else if (remote) {
      remote.forwarder.close();
      session.remote.delete(mid);
    } else {
      return { mid, errorCode: 'close_track_error', errorDescription: "Track doesn't exist or was already closed" };
    }
    return { mid };
  });
  if (body.force === true) return reply(200, { requiresImmediateRenegotiation: false, tracks });
  try {
    await session.pc.setRemoteDescription({ type: 'offer', sdp: offer.sdp });
    await session.pc.setLocalDescription(await session.pc.createAnswer());
  } catch (e) {
    return badSdp(`the offer could not be applied: ${e instanceof Error ? e.message : String(e)}`);
  }
  return reply(200, { requiresImmediateRenegotiation: false, sessionDescription: { type: 'answer', sdp: session.pc.localDescription?.sdp ?? '' }, tracks });
}

/** Switch a pull's simulcast layer (mids are the receiving session's); it happens on the new layer's keyframe. */
export function updateTracks(session: Session, body: Body): Reply {
  const asked: Body[] = Array.isArray(body.tracks) ? body.tracks : [];
  const wellFormed = (t: Body) => t?.location === 'remote' && typeof t.mid === 'string' && typeof t.sessionId === 'string' && typeof t.trackName === 'string' && typeof t.simulcast?.preferredRid === 'string';
  if (!asked.length || !asked.every(wellFormed)) return fail(400, 'invalid_params', 'each track needs location remote, mid, sessionId, trackName and simulcast');
  const tracks = asked.map((t) => {
    const remote = session.remote.get(t.mid);
    const simulcast = validSimulcast(t.simulcast);
    const refused = (why: string) => ({ mid: t.mid, sessionId: t.sessionId, trackName: t.trackName, errorCode: 'update_track_error', errorDescription: why });
    if (!remote || remote.trackName !== t.trackName || remote.sessionId !== t.sessionId) return refused('no such pulled track at this mid');
    if (!remote.simulcast || !simulcast) return refused('the track was not pulled with simulcast');
    if (!remote.forwarder.update(simulcast)) return refused('the publisher does not send that rid');
    remote.simulcast = simulcast;
    return { mid: t.mid, sessionId: t.sessionId, trackName: t.trackName };
  });
  return reply(200, { requiresImmediateRenegotiation: false, tracks });
}

function validSimulcast(v: unknown): Simulcast | undefined {
  if (!v || typeof v !== 'object') return undefined;
  const s = v as Record<string, unknown>;
  const order = (x: unknown) => (x === 'asciibetical' || x === 'none' ? x : undefined);
  return {
    ...(typeof s.preferredRid === 'string' ? { preferredRid: s.preferredRid } : {}),
    ...(order(s.priorityOrdering) ? { priorityOrdering: order(s.priorityOrdering) } : {}),
    ...(order(s.ridNotAvailable) ? { ridNotAvailable: order(s.ridNotAvailable) } : {}),
  };
}
