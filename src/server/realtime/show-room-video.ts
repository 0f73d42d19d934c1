import type { EndReason, RoomEvent } from '../../shared/chat';
import { VIDEO_P2P_MAX_VIEWERS, type VideoSignal } from '../../shared/video';
import type { FetchLike } from '../lib/realtime-api';
import { createVideoRelay, offerTracks } from '../lib/video-engines';
import type { VideoRelay } from '../lib/video-relay';
import { envMs, type RoomSession, type ShowConf } from './room-logic';
import type { RoomAttachment } from './show-room-core';
import { ShowRoomMeter } from './show-room-meter';
import { videoPlan } from './video-plan';

/** Tests only: the fetch the SFU engine of rooms created from now on uses (the local fake of the Realtime API). */
export const videoTestHooks: { fetch?: FetchLike } = {};
/** A failed SFU track close is retried this often until it holds (a paid viewer's video stops within 2 s). */
const CLOSE_RETRY_MS = 500;

/**
 * The video half of a show's room (issue 12): whether the performer publishes, who may receive
 * (video-plan.ts), and the signalling between the performer's browser (p2p) or the SFU engine
 * (cloudflare) and each viewer. Every change of the room's sessions or mode re-plans; viewers
 * and the performer hear only what changed.
 */
export abstract class ShowRoomVideo extends ShowRoomMeter {
  private video = { live: false, epoch: 0 };
  /** What each session and the performer were last told (lost on hibernation: then told again). */
  private told = new Map<string, string>();
  private toldViewers: string[] = [];
  /** The publication epoch the performer's last viewer list carried (-1: none sent yet). */
  private toldEpoch = -1;
  private relayCache: VideoRelay | null = null;

  constructor(ctx: DurableObjectState, env: ShowRoomMeter['env']) {
    super(ctx, env);
    void ctx.blockConcurrencyWhile(async () => {
      this.video = (await ctx.storage.get<{ live: boolean; epoch: number }>('video')) ?? this.video;
    });
  }

  private get relay(): VideoRelay {
    return (this.relayCache ??= createVideoRelay(this.env, videoTestHooks.fetch));
  }

  private get cap(): number {
    return this.relay.kind === 'p2p' ? envMs(this.env.VIDEO_P2P_MAX_VIEWERS, VIDEO_P2P_MAX_VIEWERS) : Infinity;
  }

  private plan() {
    return videoPlan(this.show, this.sessions.values(), this.video.live, this.cap);
  }

  /** Whether a session may receive video now (the room as it is, not as last told). */
  private permitted(sid: string): boolean {
    try {
      return this.plan().viewers.includes(sid);
    } catch {
      return false;
    }
  }

  /**
   * RPC from the ICE endpoint: whether this session is sent video now (the plan as it is), so it
   * may have the TURN list. TURN credentials cost money; a viewer the room sends nothing needs none.
   */
  videoEntitled(sid: string): boolean {
    return this.permitted(sid);
  }

  protected override pushNow(): void {
    super.pushNow();
    this.syncVideo();
  }

  protected override async endSession(s: RoomSession, reason: EndReason): Promise<void> {
    await super.endSession(s, reason);
    this.syncVideo();
  }

  /**
   * Offline or paused ends the publication (the performer publishes again once back), and every
   * viewer hears the new state before the sessions that end with it are closed.
   */
  protected override async applyShow(conf: ShowConf): Promise<void> {
    if ((!conf.online || conf.paused) && this.video.live) await this.setVideo(false);
    this.show = conf;
    this.syncVideo();
    await super.applyShow(conf);
  }

  /**
   * Tells whoever's video state changed (and `force`: that session or the performer, as after
   * a (re)connect); viewers who lost their video are ended on the engine.
   */
  protected syncVideo(force?: string): void {
    let plan;
    try {
      plan = this.plan();
    } catch {
      return; // a configuration error: every video call answers video.unavailable
    }
    for (const [sid, state] of plan.states) {
      const key = `${state}:${this.video.epoch}`;
      if (this.told.get(sid) === key && force !== sid) continue;
      this.told.set(sid, key);
      this.send(`s:${sid}`, { t: 'video', state, epoch: this.video.epoch });
    }
    for (const sid of this.told.keys()) if (!plan.states.has(sid)) this.told.delete(sid);
    const same = plan.viewers.length === this.toldViewers.length && plan.viewers.every((v, i) => v === this.toldViewers[i]);
    const dropped = this.toldViewers.filter((v) => !plan.viewers.includes(v));
    if (same && this.toldEpoch === this.video.epoch && force !== 'performer') return;
    this.toldViewers = plan.viewers;
    this.toldEpoch = this.video.epoch;
    this.send('performer', { t: 'video-viewers', viewers: plan.viewers, epoch: this.video.epoch, relay: this.relay.kind });
    for (const sid of dropped) this.ctx.waitUntil(this.endViewer(sid));
  }

  /** The engine stops a viewer's media (the SFU: its tracks closed; retried until closed, while still not permitted). */
  private async endViewer(sid: string): Promise<void> {
    const showId = this.show?.id ?? 0;
    for (let attempt = 0; attempt < 20; attempt++) {
      if (this.permitted(sid)) return;
      try {
        return await this.relay.endViewer(showId, sid);
      } catch {
        await new Promise((r) => setTimeout(r, CLOSE_RETRY_MS));
      }
    }
  }

  private async setVideo(live: boolean): Promise<void> {
    this.video = { live, epoch: live ? this.video.epoch + 1 : this.video.epoch };
    await this.ctx.storage.put('video', this.video);
    if (!live) await this.relay.unpublish(this.show?.id ?? 0).catch(() => undefined);
  }

  /** The performer's camera went on or off (the p2p engine: the browser sends from now on). */
  protected async videoCommand(live: boolean, error: (code: string) => void): Promise<void> {
    if (live && (!this.show?.online || this.show.paused)) return error('video.not_online');
    if (this.relay.kind === 'cloudflare' && live) return error('video.publish_with_offer');
    await this.setVideo(live);
    this.syncVideo();
  }

  /**
   * Signalling. Only a permitted viewer and the performer talk, and only to each other (p2p); with
   * the SFU the worker is the other end ('relay'): the performer's offer publishes, a viewer's
   * `want` pulls, its answer completes the pull.
   */
  protected async videoSignal(a: RoomAttachment, to: string, data: VideoSignal, error: (code: string) => void): Promise<void> {
    let viewers: string[];
    try {
      viewers = this.plan().viewers;
    } catch {
      return error('video.unavailable');
    }
    const sfu = this.relay.kind === 'cloudflare';
    const showId = this.show?.id ?? 0;
    const reply = (tag: string, d: VideoSignal) => this.send(tag, { t: 'signal', from: 'relay', to: tag === 'performer' ? 'performer' : tag.slice(2), data: d } satisfies RoomEvent);
    try {
      if (a.role === 'performer') {
        if (sfu && to === 'relay' && data.kind === 'offer') {
          if (!this.show?.online || this.show.paused) return error('video.not_online');
          const pub = await this.relay.publish(showId, { type: 'offer', sdp: data.sdp }, offerTracks(data.sdp));
          // Offline or paused while the SFU answered: the publication ends at once.
          if (!this.show?.online || this.show.paused) {
            await this.relay.unpublish(showId).catch(() => undefined);
            return error('video.not_online');
          }
          await this.setVideo(true);
          reply('performer', { kind: 'answer', sdp: pub.answer.sdp });
          return this.syncVideo();
        }
        if (sfu || (!viewers.includes(to) && data.kind !== 'bye')) return error('video.not_permitted');
        return this.send(`s:${to}`, { t: 'signal', from: 'performer', to, data });
      }
      // A viewer asks and answers; only the performer's browser or the relay offers.
      if ((to !== 'performer' && to !== 'relay') || data.kind === 'offer') return error('chat.forbidden');
      if (!viewers.includes(a.sid)) return error('video.not_permitted');
      if (!sfu) return this.send('performer', { t: 'signal', from: a.sid, to: 'performer', data });
      if (data.kind === 'want') {
        await this.relay.endViewer(showId, a.sid);
        const pulled = await this.relay.pull(showId, a.sid);
        // The room may have changed during the SFU calls (a private started, the session ended):
        // a pull that lands for a viewer no longer permitted is closed again, never offered.
        if (!this.permitted(a.sid)) return this.ctx.waitUntil(this.endViewer(a.sid));
        if (pulled.relay === 'cloudflare' && pulled.offer) reply(`s:${a.sid}`, { kind: 'offer', sdp: pulled.offer.sdp });
      } else if (data.kind === 'answer') {
        const v = this.relay.viewer(showId, a.sid);
        if (!v) return error('video.not_permitted');
        await this.relay.renegotiate(v.sessionId, { type: 'answer', sdp: data.sdp });
      }
    } catch {
      error('video.unavailable');
    }
  }
}
