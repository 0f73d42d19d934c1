// The track side of the Realtime fake (fake-realtime.ts): what a session keeps per track, the
// simulcast layers a publisher's offer declares, forced closes, and `PUT tracks/update` as documented (a pulled
// track switches layer; one not pulled with simulcast, or a layer the publisher does not send, is
// `update_track_error` inside a 200).

/** A pull's simulcast settings as the SFU keeps them (tests read them here). */
export interface FakeSimulcast {
  preferredRid: string;
  priorityOrdering?: string;
  ridNotAvailable?: string;
}

export interface FakeTrack {
  mid: string;
  trackName: string;
  location: 'local' | 'remote';
  /** For a remote track: the publisher's session. */
  sessionId?: string;
  /** For a local video track whose offer declares simulcast: the RIDs it sends. */
  rids?: string[];
  /** For a remote track pulled (or switched) with simulcast: its settings. */
  simulcast?: FakeSimulcast;
}

/** The fake's own reading of an offer (not the app's): the `a=rid:X send` RIDs of the m-section `mid`, if it lists them in `a=simulcast`. */
export function sdpRids(sdp: string, mid: string): string[] | undefined {
  const section = sdp.split(/\r?\nm=/).find((s) => s.split(/\r?\n/).includes(`a=mid:${mid}`));
  if (!section || !/\r?\na=simulcast:/.test(section)) return undefined;
  const rids = [...section.matchAll(/\r?\na=rid:(\S+) send/g)].map((m) => m[1]);
  return rids.length ? rids : undefined;
}

/** `PUT .../tracks/update` on `session` (its mids are the receiving session's). */
export function updateTracks(sessions: Map<string, { tracks: Map<string, FakeTrack> }>, session: { tracks: Map<string, FakeTrack> }, body: any): Response {
  const tracks: any[] = Array.isArray(body?.tracks) ? body.tracks : [];
  const wellFormed = (t: any) => t?.location === 'remote' && typeof t.mid === 'string' && typeof t.sessionId === 'string' && typeof t.trackName === 'string' && typeof t.simulcast?.preferredRid === 'string';
  if (!tracks.length || !tracks.every(wellFormed)) return json(400, { errorCode: 'invalid_params', errorDescription: 'each track needs location remote, mid, sessionId, trackName and simulcast' });
  const out = tracks.map((t) => {
    const held = session.tracks.get(t.mid);
    const source = [...(sessions.get(t.sessionId)?.tracks.values() ?? [])].find((s) => s.location === 'local' && s.trackName === t.trackName);
    const refused = (why: string) => ({ mid: t.mid, sessionId: t.sessionId, trackName: t.trackName, errorCode: 'update_track_error', errorDescription: why });
    if (!held || held.location !== 'remote' || held.trackName !== t.trackName || held.sessionId !== t.sessionId) return refused('no such pulled track at this mid');
    if (!held.simulcast) return refused('the track was not pulled with simulcast');
    if (!source?.rids?.includes(t.simulcast.preferredRid)) return refused('the publisher does not send that rid');
    held.simulcast = { ...t.simulcast };
    return { mid: t.mid, sessionId: t.sessionId, trackName: t.trackName };
  });
  return json(200, { requiresImmediateRenegotiation: false, tracks: out });
}

/** A forced close (`force:true`); a track already gone is `close_track_error`. */
export function closeTracks(session: { tracks: Map<string, FakeTrack> }, body: any): Response {
  if (body?.force !== true && !body?.sessionDescription) return json(400, { errorCode: 'invalid_session_description', errorDescription: 'a close without force needs an offer' });
  const tracks = (body?.tracks ?? []).map((t: { mid: string }) => {
    if (!session.tracks.delete(t.mid)) return { mid: t.mid, errorCode: 'close_track_error', errorDescription: "Track doesn't exist or was already closed" };
    return { mid: t.mid };
  });
  return json(200, { requiresImmediateRenegotiation: false, tracks });
}

export function sessionGone(): Response {
  return json(410, { errorCode: 'session_error', errorDescription: 'Replace an expired session or closed connection and rebuild publications and subscriptions. Retrying the old session does not reconnect it.' });
}

export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}
