import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serializeSdesMid, serializeSdesRTPStreamID, type RTCPeerConnection, type RTCRtpTransceiver } from 'werift';
import { startLocalSfu, type StartedLocalSfu } from '../../scripts/local-sfu.mjs';
import { closePeers, peer, sum, vp8Packet, waitFor } from './local-sfu-peers';

// The local Realtime SFU stand-in (tools/local-sfu) over HTTP with real RTP: a werift publisher
// pushes a VP8 track of hand-made packets, werift viewers pull it through sessions/new, tracks/new
// (remote) and renegotiate. Counts are asserted, never timings (a shared 2-core machine): every
// wait is a loop on a condition with a generous limit.

let sfu: StartedLocalSfu;
let sendTimer: ReturnType<typeof setInterval> | undefined;

interface Stats {
  sessions: Record<string, { received: Record<string, number>; forwarded: Record<string, number>; connection: string }>;
  overlaps: number;
}

async function api(method: string, path: string, body?: unknown, secret = sfu.secret): Promise<{ status: number; json: any }> {
  const r = await fetch(`${sfu.base}/apps/${sfu.appId}/${path}`, {
    method,
    headers: { authorization: `Bearer ${secret}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
  return { status: r.status, json: await r.json() };
}

const stats = () => sfu.control<Stats>('/stats');

const publisher = { sessionId: '', mid: '', plis: 0, sent: 0 };

/** A viewer pulls the publisher's track and answers the SFU's offer; packets it receives are counted. */
interface Viewer {
  pc: RTCPeerConnection;
  sessionId: string;
  mid: string;
  seqs: number[];
  /** Per packet received: its layer letter and whether it starts a keyframe (payload bytes 2 and 1). */
  frames: { layer: string; key: boolean }[];
  /** Header extension ids seen on received packets. */
  extIds: Set<number>;
  transceiver: () => RTCRtpTransceiver;
}

async function pull(from = publisher.sessionId, simulcast?: object): Promise<Viewer> {
  const pc = peer();
  const seqs: number[] = [];
  const frames: Viewer['frames'] = [];
  const extIds = new Set<number>();
  pc.onTrack.subscribe((track) =>
    track.onReceiveRtp.subscribe((rtp) => {
      seqs.push(rtp.header.sequenceNumber);
      for (const e of rtp.header.extensions) extIds.add(e.id);
      frames.push({ layer: String.fromCharCode(rtp.payload[2]), key: rtp.payload[1] === 0 });
    }),
  );
  const { json: created } = await api('POST', 'sessions/new');
  const pulled = await api('POST', `sessions/${created.sessionId}/tracks/new`, { tracks: [{ location: 'remote', sessionId: from, trackName: 'cam', ...(simulcast ? { simulcast } : {}) }] });
  expect(pulled.status).toBe(200);
  expect(pulled.json.requiresImmediateRenegotiation).toBe(true);
  expect(pulled.json.sessionDescription.type).toBe('offer');
  const mid = pulled.json.tracks[0].mid;
  expect(typeof mid).toBe('string');
  await pc.setRemoteDescription(pulled.json.sessionDescription);
  await pc.setLocalDescription(await pc.createAnswer());
  const answered = await api('PUT', `sessions/${created.sessionId}/renegotiate`, { sessionDescription: { type: 'answer', sdp: pc.localDescription?.sdp } });
  expect(answered).toEqual({ status: 200, json: {} });
  return { pc, sessionId: created.sessionId, mid, seqs, frames, extIds, transceiver: () => pc.getTransceivers()[0] };
}

beforeAll(async () => {
  sfu = await startLocalSfu({ appId: 'app-test' });
  const pc = peer();
  const transceiver = pc.addTransceiver('video', { direction: 'sendonly' });
  await pc.setLocalDescription(await pc.createOffer());
  const { json: created } = await api('POST', 'sessions/new');
  publisher.sessionId = created.sessionId;
  publisher.mid = transceiver.mid ?? '';
  const pushed = await api('POST', `sessions/${created.sessionId}/tracks/new`, {
    sessionDescription: { type: 'offer', sdp: pc.localDescription?.sdp },
    tracks: [{ location: 'local', mid: publisher.mid, trackName: 'cam' }],
  });
  expect(pushed.status).toBe(200);
  expect(pushed.json.tracks).toEqual([{ mid: publisher.mid, trackName: 'cam' }]);
  expect(pushed.json.sessionDescription.sdp).toMatch(/a=candidate:/);
  await pc.setRemoteDescription(pushed.json.sessionDescription);
  await waitFor('publisher connected', () => pc.connectionState === 'connected');
  // 50 frames a second, one packet each; a keyframe every 50th frame and after every PLI.
  let keyNext = true;
  transceiver.sender.onPictureLossIndication.subscribe(() => {
    publisher.plis++;
    keyNext = true;
  });
  sendTimer = setInterval(() => {
    const n = publisher.sent++;
    const key = keyNext || n % 50 === 0;
    keyNext = false;
    transceiver.sender.sendRtp(vp8Packet(1000 + n, 90_000 + n * 1800, key)).catch(() => undefined);
  }, 20);
}, 40_000);

afterAll(async () => {
  clearInterval(sendTimer);
  await closePeers();
  await sfu?.stop();
});

describe('local Realtime SFU stand-in', () => {
  it('forwards the publisher track to a viewer (own numbering, PLI passed up) and stops after tracks/close', async () => {
    await waitFor('publisher packets reach the stand-in', async () => sum((await stats()).sessions[publisher.sessionId]?.received) > 20);
    const viewer = await pull();
    await waitFor('viewer receives 40 packets', () => viewer.seqs.length >= 40);
    const s = await stats();
    expect(s.sessions[viewer.sessionId].forwarded['']).toBeGreaterThanOrEqual(40);
    // The viewer's numbering runs on without gaps (loopback, nothing dropped).
    const steps = viewer.seqs.slice(1).map((seq, i) => (seq - viewer.seqs[i]) & 0xffff);
    expect(steps.filter((d) => d !== 1).length).toBeLessThanOrEqual(2);

    const plis = publisher.plis;
    const ssrc = viewer.transceiver().receiver.track.ssrc ?? viewer.transceiver().receiver.tracks[0]?.ssrc;
    expect(ssrc).toBeTypeOf('number');
    await viewer.transceiver().receiver.sendRtcpPLI(ssrc as number);
    await waitFor('the viewer PLI reaches the publisher', () => publisher.plis > plis);

    const state = await api('GET', `sessions/${viewer.sessionId}`);
    expect(state.json.tracks).toEqual([{ location: 'remote', mid: viewer.mid, trackName: 'cam', sessionId: publisher.sessionId, status: 'active' }]);

    const closed = await api('PUT', `sessions/${viewer.sessionId}/tracks/close`, { tracks: [{ mid: viewer.mid }], force: true });
    expect(closed).toEqual({ status: 200, json: { requiresImmediateRenegotiation: false, tracks: [{ mid: viewer.mid }] } });
    const after = (await stats()).sessions[viewer.sessionId].forwarded[''];
    const sent = publisher.sent;
    await waitFor('the publisher sends 25 more packets', () => publisher.sent >= sent + 25);
    expect((await stats()).sessions[viewer.sessionId].forwarded['']).toBe(after);
    const again = await api('PUT', `sessions/${viewer.sessionId}/tracks/close`, { tracks: [{ mid: viewer.mid }], force: true });
    expect(again.json.tracks[0].errorCode).toBe('close_track_error');
  });

  it('gives each viewer its own copy, and the drop knob affects only its session', async () => {
    const [a, b] = [await pull(), await pull()];
    await waitFor('both viewers receive', () => a.seqs.length >= 20 && b.seqs.length >= 20);
    await sfu.control('/drop', { sessionId: a.sessionId, percent: 100 });
    const before = { a: a.seqs.length, b: b.seqs.length };
    await waitFor('viewer b receives 25 more', () => b.seqs.length >= before.b + 25);
    expect(a.seqs.length - before.a).toBeLessThanOrEqual(3);
    const stepsB = b.seqs.slice(1).map((seq, i) => (seq - b.seqs[i]) & 0xffff);
    expect(stepsB.filter((d) => d !== 1).length).toBeLessThanOrEqual(2);
  });

  it('answers tracks/update of a pull without simulcast with update_track_error inside a 200', async () => {
    const viewer = await pull();
    const update = await api('PUT', `sessions/${viewer.sessionId}/tracks/update`, {
      tracks: [{ location: 'remote', sessionId: publisher.sessionId, trackName: 'cam', mid: viewer.mid, simulcast: { preferredRid: 'h' } }],
    });
    expect(update.status).toBe(200);
    expect(update.json.tracks[0]).toMatchObject({ mid: viewer.mid, errorCode: 'update_track_error' });
  });

  it('refuses other mutations (406) while an SFU offer is unanswered', async () => {
    const { json: created } = await api('POST', 'sessions/new');
    const pulled = await api('POST', `sessions/${created.sessionId}/tracks/new`, { tracks: [{ location: 'remote', sessionId: publisher.sessionId, trackName: 'cam' }] });
    expect(pulled.json.requiresImmediateRenegotiation).toBe(true);
    const again = await api('POST', `sessions/${created.sessionId}/tracks/new`, { tracks: [{ location: 'remote', sessionId: publisher.sessionId, trackName: 'cam' }] });
    expect(again).toMatchObject({ status: 406, json: { errorCode: 'session_error' } });
    const close = await api('PUT', `sessions/${created.sessionId}/tracks/close`, { tracks: [{ mid: pulled.json.tracks[0].mid }], force: true });
    expect(close.status).toBe(406);
    // Not an answer: the offer stays pending.
    const wrong = await api('PUT', `sessions/${created.sessionId}/renegotiate`, { sessionDescription: { type: 'offer', sdp: 'v=0' } });
    expect(wrong).toMatchObject({ status: 400, json: { errorCode: 'invalid_session_description' } });
  });

  it('answers API errors as documented: 401, 404, per-track not found, decoding, fail-next, 410 after kill', async () => {
    expect(await api('POST', 'sessions/new', undefined, 'wrong')).toMatchObject({ status: 401, json: { errorCode: 'unauthorized' } });
    const otherApp = await fetch(`${sfu.base}/apps/other/sessions/new`, { method: 'POST', headers: { authorization: `Bearer ${sfu.secret}` } });
    expect(otherApp.status).toBe(404);
    expect(await api('GET', 'sessions/nope')).toMatchObject({ status: 404, json: { errorCode: 'session_error' } });
    const { json: created } = await api('POST', 'sessions/new');
    const missing = await api('POST', `sessions/${created.sessionId}/tracks/new`, { tracks: [{ location: 'remote', sessionId: publisher.sessionId, trackName: 'nothing' }] });
    expect(missing.status).toBe(200);
    expect(missing.json).toMatchObject({ requiresImmediateRenegotiation: false, tracks: [{ trackName: 'nothing', errorCode: 'not_found_track_error' }] });
    expect(await api('POST', `sessions/${created.sessionId}/tracks/new`, '{not json')).toMatchObject({ status: 400, json: { errorCode: 'decoding_error' } });
    await sfu.control('/fail-next', { status: 503, errorCode: 'temporarily_unavailable_error' });
    expect(await api('POST', 'sessions/new')).toMatchObject({ status: 503, json: { errorCode: 'temporarily_unavailable_error' } });
    expect((await api('POST', 'sessions/new')).status).toBe(201);
    await sfu.control('/kill', { sessionId: created.sessionId });
    const gone = await api('PUT', `sessions/${created.sessionId}/tracks/close`, { tracks: [{ mid: '0' }], force: true });
    expect(gone).toMatchObject({ status: 410, json: { errorCode: 'session_error' } });
    const turn = await fetch(`${sfu.base}/turn/keys/any/credentials/generate-ice-servers`, { method: 'POST', headers: { authorization: 'Bearer t' }, body: '{"ttl":600}' });
    expect({ status: turn.status, json: await turn.json() }).toEqual({ status: 201, json: { iceServers: [] } });
  });
  it('switches a simulcast pull to another layer (tracks/update) on that layer\'s keyframe, asked with a PLI to its SSRC, numbering continuous', async () => {
    // werift sends no RID itself: the publisher writes RTP of two layers (own SSRC, mid and RID extensions) to its transport.
    const pc = peer();
    const transceiver = pc.addTransceiver('video', { direction: 'sendonly', simulcast: [{ direction: 'send', rid: 'f' }, { direction: 'send', rid: 'h' }] });
    await pc.setLocalDescription(await pc.createOffer());
    expect(pc.localDescription?.sdp).toMatch(/a=simulcast:send f;h/);
    const { json: created } = await api('POST', 'sessions/new');
    const pushed = await api('POST', `sessions/${created.sessionId}/tracks/new`, { sessionDescription: { type: 'offer', sdp: pc.localDescription?.sdp }, tracks: [{ location: 'local', mid: transceiver.mid, trackName: 'cam' }] });
    await pc.setRemoteDescription(pushed.json.sessionDescription);
    await waitFor('simulcast publisher connected', () => pc.connectionState === 'connected');
    const ext = (uri: string) => transceiver.headerExtensions.find((e) => e.uri.endsWith(uri))?.id ?? 0;
    // As Chromium does: a layer's key frame comes first and then only when a PLI names its SSRC
    // (the offer carries RIDs, no SSRCs: the stand-in has to take them from the packets).
    const layers = { f: { ssrc: 0x1111, seq: 5000, keyNext: true, plis: 0 }, h: { ssrc: 0x2222, seq: 30000, keyNext: true, plis: 0 } };
    const strayPlis: number[] = [];
    const stopPlis = transceiver.sender.dtlsTransport.onRtcp.subscribe((rtcp: any) => {
      if (rtcp.type !== 206 || rtcp.feedback?.count !== 1) return;
      const l = Object.values(layers).find((x) => x.ssrc === rtcp.feedback.mediaSsrc);
      if (!l) return strayPlis.push(rtcp.feedback.mediaSsrc);
      l.plis++;
      l.keyNext = true;
    }).unSubscribe;
    let n = 0;
    const timer = setInterval(() => {
      n++;
      for (const [rid, l] of Object.entries(layers)) {
        const p = vp8Packet(l.seq++, 1000 + n * 1800, l.keyNext, rid);
        l.keyNext = false;
        Object.assign(p.header, { ssrc: l.ssrc, payloadType: transceiver.codecs[0].payloadType, extensions: [{ id: ext('sdes:mid'), payload: serializeSdesMid(transceiver.mid ?? '') }, { id: ext('rtp-stream-id'), payload: serializeSdesRTPStreamID(rid) }] });
        transceiver.sender.dtlsTransport.sendRtp(p.payload, p.header).catch(() => undefined);
      }
    }, 20);
    try {
      // Both layers' first key frames are long gone when the viewer comes.
      await waitFor('the stand-in receives both layers', async () => Object.values((await stats()).sessions[created.sessionId]?.received ?? {}).filter((c) => c > 25).length === 2);
      const viewer = await pull(created.sessionId, { preferredRid: 'h' });
      await waitFor('the viewer receives layer h', () => viewer.frames.length >= 20);
      expect(new Set(viewer.frames.map((f) => f.layer))).toEqual(new Set(['h']));
      expect(viewer.frames[0].key).toBe(true);
      expect(layers.h.plis).toBeGreaterThanOrEqual(1);
      const toLayer = (preferredRid: string) => ({ tracks: [{ location: 'remote', sessionId: created.sessionId, trackName: 'cam', mid: viewer.mid, simulcast: { preferredRid } }] });
      const unsent = await api('PUT', `sessions/${viewer.sessionId}/tracks/update`, toLayer('q'));
      expect(unsent.json.tracks[0].errorCode).toBe('update_track_error');
      expect(await api('PUT', `sessions/${viewer.sessionId}/tracks/update`, { tracks: [{ mid: viewer.mid }] })).toMatchObject({ status: 400, json: { errorCode: 'invalid_params' } });
      const update = await api('PUT', `sessions/${viewer.sessionId}/tracks/update`, toLayer('f'));
      expect(update).toEqual({ status: 200, json: { requiresImmediateRenegotiation: false, tracks: [{ mid: viewer.mid, sessionId: created.sessionId, trackName: 'cam' }] } });
      await waitFor('the viewer receives layer f', () => viewer.frames.filter((f) => f.layer === 'f').length >= 20);
      const first = viewer.frames.findIndex((f) => f.layer === 'f');
      expect(viewer.frames[first].key).toBe(true);
      expect(layers.f.plis).toBeGreaterThanOrEqual(1);
      expect(strayPlis).toEqual([]);
      expect(viewer.frames.slice(first).every((f) => f.layer === 'f')).toBe(true);
      const steps = viewer.seqs.slice(1).map((seq, i) => (seq - viewer.seqs[i]) & 0xffff);
      expect(steps.filter((d) => d !== 1).length).toBeLessThanOrEqual(2);
      const counts = (await stats()).sessions[viewer.sessionId].forwarded;
      expect(counts.h).toBeGreaterThanOrEqual(20);
      expect(counts.f).toBeGreaterThanOrEqual(20);
      // The publisher's extensions (its RID) were stripped: only the viewer session's own mid arrives.
      const midId = viewer.transceiver().headerExtensions.find((e) => e.uri.endsWith('sdes:mid'))?.id;
      expect([...viewer.extIds]).toEqual([midId]);
    } finally {
      clearInterval(timer);
      stopPlis();
    }
  });
});
