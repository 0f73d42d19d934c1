import { describe, expect, it } from 'vitest';
import { VIDEO_SDP_MAX, parseVideoSignal } from '../../src/shared/video';
import { COMMAND_MAX_BYTES, parseCommand, type RoomSession, type ShowConf } from '../../src/server/features/chat/room/logic';
import { receivesVideo, videoPlan } from '../../src/server/features/video/video-plan';

// Who receives the performer's video (issue 12 point 2) as a pure function of the room, and the
// signalling messages' parsers (offerTracks is tested in tests/api/video-room.test.ts: its module
// needs the Workers types).

const show: ShowConf = { id: 1, name: 'A', providerId: 1, online: true, paused: false, open: { free: true, private: true, exclusive: true, voyeur: true } };

let clock = 1_000;
function session(id: string, type: RoomSession['type'], over: Partial<RoomSession> = {}): RoomSession {
  clock += 10;
  return { id, uid: null, visitor: `v-${id}`, nick: id, type, state: 'active', price: type === 'free' ? 0 : 10, createdAt: clock, startedAt: clock, minutes: 1, coins: 0, balance: null, warned: false, goneAt: null, phone: null, ...over };
}

const states = (plan: ReturnType<typeof videoPlan>) => Object.fromEntries(plan.states);

describe('video plan: who receives', () => {
  it('receivesVideo answers for one session what the whole plan says, in 500 random rooms, with and without a cap', () => {
    let seed = 7;
    const rnd = (n: number) => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return (seed >>> 0) % n;
    };
    const types: RoomSession['type'][] = ['free', 'private', 'exclusive', 'voyeur'];
    const states: RoomSession['state'][] = ['active', 'pending', 'ended'];
    let checked = 0;
    for (let room = 0; room < 500; room++) {
      const conf: ShowConf = { ...show, online: rnd(10) > 0, paused: rnd(10) === 0 };
      const list = Array.from({ length: 1 + rnd(8) }, (_, i) =>
        session(`s${room}-${i}`, types[rnd(4)], { state: states[rnd(3)], minutes: rnd(3), goneAt: rnd(4) === 0 ? 5 : null }),
      );
      for (const cap of [Infinity, 2]) {
        const publishing = rnd(5) > 0;
        const viewers = videoPlan(conf, list, publishing, cap).viewers;
        for (const s of list) {
          expect(receivesVideo(conf, list, s, publishing, cap), `${room} ${s.id} cap ${cap}`).toBe(viewers.includes(s.id));
          if (viewers.includes(s.id)) checked++;
        }
      }
    }
    // The rooms are varied enough that many sessions do receive (the check is not all "no").
    expect(checked).toBeGreaterThan(300);
  });

  it('free mode: every session is live but a request not accepted yet (the preview); one without a connected socket gets its state but no video', () => {
    const a = session('free-a', 'free');
    const b = session('free-b', 'free', { goneAt: 5 });
    const v = session('voy-c', 'voyeur');
    const pending = session('priv-d', 'private', { state: 'pending', startedAt: null });
    const plan = videoPlan(show, [a, b, v, pending], true, Infinity);
    expect(states(plan)).toEqual({ 'free-a': 'live', 'free-b': 'live', 'voy-c': 'live', 'priv-d': 'waiting' });
    // Paying voyeurs first, then by arrival; the one without a socket is not sent to.
    expect(plan.viewers).toEqual(['voy-c', 'free-a']);
  });

  it('private: only the running private and paid voyeurs are live; a voyeur whose minute 1 is not paid and a request see the preview; everyone else "private"', () => {
    const free = session('free-a', 'free');
    const priv = session('priv-b', 'private');
    const voy = session('voy-c', 'voyeur');
    const waiting = session('excl-d', 'exclusive', { state: 'pending', startedAt: null });
    const ended = session('free-e', 'free', { state: 'ended' });
    const unpaid = session('voy-f', 'voyeur', { minutes: 0 });
    const plan = videoPlan(show, [free, priv, voy, waiting, ended, unpaid], true, Infinity);
    expect(states(plan)).toEqual({ 'free-a': 'private', 'priv-b': 'live', 'voy-c': 'live', 'excl-d': 'waiting', 'voy-f': 'waiting' });
    expect(plan.viewers).toEqual(['priv-b', 'voy-c']);
  });

  it('exclusive: only its member is live (a voyeur left over is not)', () => {
    const free = session('free-a', 'free');
    const excl = session('excl-b', 'exclusive');
    const voy = session('voy-c', 'voyeur');
    const plan = videoPlan(show, [free, excl, voy], true, Infinity);
    expect(states(plan)).toEqual({ 'free-a': 'private', 'excl-b': 'live', 'voy-c': 'private' });
    expect(plan.viewers).toEqual(['excl-b']);
  });

  it('paused and offline: nobody receives, every session sees the show\'s state', () => {
    const list = [session('free-a', 'free'), session('priv-b', 'private')];
    const paused = videoPlan({ ...show, paused: true }, list, true, Infinity);
    expect(states(paused)).toEqual({ 'free-a': 'paused', 'priv-b': 'paused' });
    expect(paused.viewers).toEqual([]);
    const offline = videoPlan({ ...show, online: false }, list, true, Infinity);
    expect(states(offline)).toEqual({ 'free-a': 'offline', 'priv-b': 'offline' });
    expect(offline.viewers).toEqual([]);
    expect(states(videoPlan(null, list, true, Infinity))).toEqual({ 'free-a': 'offline', 'priv-b': 'offline' });
  });

  it('camera not published: those who would be live see "camera_off", the others keep their state', () => {
    const free = session('free-a', 'free');
    const priv = session('priv-b', 'private');
    const plan = videoPlan(show, [free, priv], false, Infinity);
    expect(states(plan)).toEqual({ 'free-a': 'private', 'priv-b': 'camera_off' });
    expect(plan.viewers).toEqual([]);
    expect(states(videoPlan(show, [session('free-c', 'free')], false, Infinity))).toEqual({ 'free-c': 'camera_off' });
  });

  it('the peer-to-peer cap: the running session first, then voyeurs, then by arrival; the rest see "full"', () => {
    const free1 = session('free-1', 'free');
    const free2 = session('free-2', 'free');
    const voy1 = session('voy-1', 'voyeur');
    const free3 = session('free-3', 'free');
    const voy2 = session('voy-2', 'voyeur');
    const freePlan = videoPlan(show, [free1, free2, voy1, free3, voy2], true, 3);
    expect(freePlan.viewers).toEqual(['voy-1', 'voy-2', 'free-1']);
    expect(states(freePlan)).toEqual({ 'free-1': 'live', 'free-2': 'full', 'voy-1': 'live', 'free-3': 'full', 'voy-2': 'live' });
    const priv = session('priv-1', 'private');
    const privPlan = videoPlan(show, [free1, voy1, voy2, priv], true, 2);
    expect(privPlan.viewers).toEqual(['priv-1', 'voy-1']);
    expect(states(privPlan)).toEqual({ 'free-1': 'private', 'voy-1': 'live', 'voy-2': 'full', 'priv-1': 'live' });
    // A session without a socket takes no place under the cap.
    const gone = videoPlan(show, [session('gone-1', 'free', { goneAt: 1 }), free2, free3], true, 2);
    expect(gone.viewers).toEqual(['free-2', 'free-3']);
    expect(states(gone)['gone-1']).toBe('live');
  });
});

describe('video signalling parsers', () => {
  it('parseVideoSignal: the four kinds; an unknown kind, a missing, empty or oversize sdp are refused', () => {
    expect(parseVideoSignal({ kind: 'want' })).toEqual({ kind: 'want' });
    expect(parseVideoSignal({ kind: 'bye', sdp: 'ignored' })).toEqual({ kind: 'bye' });
    expect(parseVideoSignal({ kind: 'offer', sdp: 'v=0\r\nm=video 9', extra: 1 })).toEqual({ kind: 'offer', sdp: 'v=0\r\nm=video 9' });
    expect(parseVideoSignal({ kind: 'answer', sdp: 'x'.repeat(VIDEO_SDP_MAX) })).toEqual({ kind: 'answer', sdp: 'x'.repeat(VIDEO_SDP_MAX) });
    expect(parseVideoSignal({ kind: 'answer', sdp: 'x'.repeat(VIDEO_SDP_MAX + 1) })).toBeNull();
    expect(parseVideoSignal({ kind: 'offer' })).toBeNull();
    expect(parseVideoSignal({ kind: 'offer', sdp: '' })).toBeNull();
    expect(parseVideoSignal({ kind: 'offer', sdp: 5 })).toBeNull();
    expect(parseVideoSignal({ kind: 'candidate', candidate: 'x' })).toBeNull();
    expect(parseVideoSignal('want')).toBeNull();
    expect(parseVideoSignal(null)).toBeNull();
  });

  it('parseCommand: signal to the performer, to "relay" or to a session id; video with a boolean; the rest is malformed', () => {
    const sig = (to: unknown, data: unknown) => parseCommand(JSON.stringify({ t: 'signal', to, data }));
    expect(sig('performer', { kind: 'want' })).toEqual({ t: 'signal', to: 'performer', data: { kind: 'want' } });
    expect(sig('relay', { kind: 'offer', sdp: 'v=0' })).toEqual({ t: 'signal', to: 'relay', data: { kind: 'offer', sdp: 'v=0' } });
    expect(sig('abcdEFGH_1-2', { kind: 'answer', sdp: 'v=0' })).toEqual({ t: 'signal', to: 'abcdEFGH_1-2', data: { kind: 'answer', sdp: 'v=0' } });
    expect(sig('short', { kind: 'want' })).toBeNull();
    expect(sig('../x/y/zzzz', { kind: 'want' })).toBeNull();
    expect(sig(7, { kind: 'want' })).toBeNull();
    expect(sig('performer', { kind: 'ice', candidate: 'x' })).toBeNull();
    expect(sig('performer', undefined)).toBeNull();
    expect(sig('relay', { kind: 'offer', sdp: 'x'.repeat(VIDEO_SDP_MAX + 1) })).toBeNull();
    expect(parseCommand(JSON.stringify({ t: 'signal', to: 'performer', data: { kind: 'want' }, pad: 'x'.repeat(COMMAND_MAX_BYTES) }))).toBeNull();
    expect(parseCommand('{"t":"video","live":true}')).toEqual({ t: 'video', live: true });
    expect(parseCommand('{"t":"video","live":false}')).toEqual({ t: 'video', live: false });
    expect(parseCommand('{"t":"video","live":"yes"}')).toBeNull();
    expect(parseCommand('{"t":"video"}')).toBeNull();
  });
});
