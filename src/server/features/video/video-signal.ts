import { isWatcherId, type VideoSignal } from '../../../shared/video';
import { offerTracks, p2pSignal } from './video-engines';
import { MONITOR, plan, relay, videoPermitted, type VideoCaller, type VideoHost } from './video-host';
import { VideoRelayError, type VideoRelay, type ViewerState } from './video-relay';
import { CLOSE_RETRY_MS, endViewer, setVideo, syncVideo } from './video-room.service';

// The show room's video signalling (video-room.service.ts videoSignal hands it each signal).

/**
 * Signalling. Only a permitted viewer and the performer talk, and only to each other (p2p); with
 * the SFU the worker is the other end ('relay'): the performer's offer publishes, a viewer's
 * `want` pulls, its answer completes the pull, its `layer` switches the simulcast layer.
 */
export async function signal(h: VideoHost, a: VideoCaller, to: string, data: VideoSignal, error: (code: string) => void): Promise<void> {
  let viewers: string[];
  try {
    viewers = plan(h).viewers;
  } catch {
    return error('video.unavailable');
  }
  const engine = relay(h);
  const sfu = engine.kind === 'cloudflare';
  const showId = h.show?.id ?? 0;
  const reply = (tag: string, d: VideoSignal) => h.send(tag, { t: 'signal', from: 'relay', to: tag === 'performer' ? 'performer' : tag.slice(2), data: d });
  try {
    if (a.role === 'performer') {
      if (sfu && to === 'relay' && data.kind === 'offer') {
        if (!h.show?.online || h.show.paused) return error('video.not_online');
        // OBS publishes over WHIP (video-whip.ts): the camera waits until that ends.
        if (h.video.whip) return error('video.whip_live');
        const pub = await engine.publish(showId, { type: 'offer', sdp: data.sdp }, offerTracks(data.sdp));
        // Offline or paused while the SFU answered: the publication ends at once.
        if (!h.show?.online || h.show.paused) {
          await engine.unpublish(showId).catch(() => undefined);
          return error('video.not_online');
        }
        await setVideo(h, true);
        reply('performer', { kind: 'answer', sdp: pub.answer.sdp });
        return syncVideo(h);
      }
      // The studio watching what OBS sends (MONITOR): pulled, answered and switched as a viewer is.
      // Best effort and never an error on the studio's screen: its receiver asks again while OBS is on air.
      if (sfu && to === 'relay' && data.kind !== 'bye') {
        if (videoPermitted(h, MONITOR)) await pullFor(h, MONITOR, data, (d) => reply('performer', d), () => undefined).catch(() => undefined);
        return;
      }
      if (sfu || (!viewers.includes(to) && !(isWatcherId(to) && videoPermitted(h, to)) && data.kind !== 'bye')) return error('video.not_permitted');
      const passed = p2pSignal(h.env, data);
      return passed ? h.send(`s:${to}`, { t: 'signal', from: 'performer', to, data: passed }) : error('video.unavailable');
    }
    // A viewer asks, answers and picks a layer; only the performer's browser or the relay offers.
    if ((to !== 'performer' && to !== 'relay') || data.kind === 'offer') return error('chat.forbidden');
    // An operator's hidden watcher (video-watch.ts) receives while the public show is live.
    if (!viewers.includes(a.sid) && !(isWatcherId(a.sid) && videoPermitted(h, a.sid))) return error('video.not_permitted');
    if (!sfu) {
      // The performer's browser offers only to those on the last list it was sent: a viewer told
      // 'live' before the room's next sync (its join, its first paid minute) would wait for its
      // watchdog. The list goes first, in order before the want.
      if (data.kind === 'want' && !h.video.toldViewers.includes(a.sid)) syncVideo(h);
      const passed = p2pSignal(h.env, data);
      return passed ? h.send('performer', { t: 'signal', from: a.sid, to: 'performer', data: passed }) : error('video.unavailable');
    }
    await pullFor(h, a.sid, data, (d) => reply(`s:${a.sid}`, d), error);
  } catch (e) {
    // The SFU collected the publication (no media for 30 s): the performer is asked to publish again.
    if (e instanceof VideoRelayError && e.code === 'publication_gone') h.send('performer', { t: 'error', code: 'video.republish' });
    error('video.unavailable');
  }
}

/** A permitted viewer's (or the studio monitor's) pull on the SFU: asked for (`want`), answered, switched to a layer. */
async function pullFor(h: VideoHost, key: string, data: VideoSignal, offer: (d: VideoSignal) => void, error: (code: string) => void): Promise<void> {
  const engine = relay(h);
  const showId = h.show?.id ?? 0;
  if (data.kind === 'want') {
    // A want again (the viewer's network dropped, its old session dead or not connected): the
    // pull goes at once on a new session; the old one's tracks are closed in the background.
    const old = engine.forgetViewer(showId, key);
    if (old) h.ctx.waitUntil(closeForgotten(engine, old));
    const pulled = await engine.pull(showId, key);
    // The room may have changed during the SFU calls (a private started, the session ended):
    // a pull that lands for a viewer no longer permitted is closed again, never offered.
    if (!videoPermitted(h, key)) return h.ctx.waitUntil(endViewer(h, key));
    if (pulled.relay === 'cloudflare' && pulled.offer) offer({ kind: 'offer', sdp: pulled.offer.sdp });
  } else if (data.kind === 'answer') {
    const v = engine.viewer(showId, key);
    if (!v) return error('video.not_permitted');
    await engine.renegotiate(v.sessionId, { type: 'answer', sdp: data.sdp });
  } else if (data.kind === 'layer') {
    if (!engine.viewer(showId, key)) return error('video.not_permitted');
    // 'auto': back to the best layer (f), the SFU falling back in RID order when it is not sent.
    await engine.setLayer(showId, key, data.rid === 'auto' ? 'f' : data.rid);
  }
}

/** A forgotten session's tracks closed, retried until it holds (a dead session, 410, counts as closed). */
async function closeForgotten(engine: VideoRelay, old: ViewerState): Promise<void> {
  for (let attempt = 0; attempt < 20; attempt++) {
    try {
      return await engine.closeForgotten(old);
    } catch {
      await new Promise((r) => setTimeout(r, CLOSE_RETRY_MS));
    }
  }
}
