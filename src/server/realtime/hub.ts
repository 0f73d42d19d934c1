import { DurableObject } from 'cloudflare:workers';
import { BULKUPDATE_BATCH_MS, type RealtimeEvent, type ShowStatus } from '../../shared/realtime';
import type { Bindings } from '../env';
import { lobbyShardCount } from './shards';
import { geoCodesOf } from './geo-blocks.repo';

const SIMULATOR_EVERY_MS = 4_000;

type Defer = (work: Promise<unknown>) => void;

/**
 * What features plug into the hub, so realtime/ imports no feature: registered by the worker's entry
 * (src/server/index.ts), which also fixes the order of `simulated`.
 */
export const hubHooks: {
  /** Local development: the simulator's tick (features/dev): flips some shows, answers the changes. */
  simulate?: (env: Bindings) => Promise<ShowStatus[]>;
  /** Told, in order, after the simulator's changes went out (favourites notified, rooms told). */
  simulated: ((env: Bindings, changes: ShowStatus[], defer: Defer) => Promise<void>)[];
} = { simulated: [] };

/**
 * The lobby hub: gathers show status changes for 250 ms and sends them to every shard as one
 * show:bulkupdate with a sequence number; relays member events at once. In local development it
 * can also run the simulator that flips a few shows every few seconds.
 */
export class LobbyHub extends DurableObject<Bindings> {
  private pending = new Map<number, boolean>();
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  private flushing: Promise<void> | null = null;
  private seq = 0;

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    void ctx.blockConcurrencyWhile(async () => {
      this.seq = (await ctx.storage.get<number>('seq')) ?? 0;
    });
  }

  /** Queues show status changes for the next show:bulkupdate; answers how many are queued. */
  publish(changes: ShowStatus[]): number {
    for (const c of changes) this.pending.set(c.id, c.online);
    this.flushTimer ??= setTimeout(() => void this.flush(), BULKUPDATE_BATCH_MS);
    return this.pending.size;
  }

  /**
   * A member event to every open page of that member, at once. An event about a show (`showId`,
   * e.g. a favourite online) skips the member's sockets from places the show is hidden from.
   */
  async toUser(userId: number, message: string): Promise<void> {
    const showId = (JSON.parse(message) as { showId?: unknown }).showId;
    const hideFrom = typeof showId === 'number' ? ((await geoCodesOf(this.env.DB, [showId]).catch(() => null))?.[showId] ?? []) : [];
    await this.fanOut(message, userId, hideFrom);
  }

  /** Member events to many members at once (a room's minute tick): one RPC per shard for all of them. */
  async toUsers(messages: { userId: number; message: string }[]): Promise<void> {
    const shards = lobbyShardCount(this.env);
    await Promise.all(
      Array.from({ length: shards }, (_, i) =>
        this.env.LOBBY.get(this.env.LOBBY.idFromName(`shard-${i}`))
          .relayToUsers(messages)
          .catch(() => 0),
      ),
    );
  }

  /** Ends logins of a member on every shard (Lobby.closeLogins). */
  async closeLogins(userId: number, which: { keep?: string | null; only?: string | null }, message: string | null): Promise<void> {
    const shards = lobbyShardCount(this.env);
    await Promise.all(
      Array.from({ length: shards }, (_, i) =>
        this.env.LOBBY.get(this.env.LOBBY.idFromName(`shard-${i}`))
          .closeLogins(userId, which, message)
          .catch(() => 0),
      ),
    );
  }

  /** Starts the simulator's alarm (local development) unless it runs. */
  async startSimulator(): Promise<void> {
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now() + SIMULATOR_EVERY_MS);
  }

  private async flush(): Promise<void> {
    this.flushTimer = null;
    if (this.pending.size === 0) return;
    const data = [...this.pending].map(([id, online]) => ({ id, online }));
    this.pending.clear();
    const seq = ++this.seq;
    // The sequence survives restarts, but the send does not wait for the write to be confirmed
    // (a lost write at worst repeats a number, which clients take as no gap).
    void this.ctx.storage.put('seq', seq, { allowUnconfirmed: true });
    // One flush at a time keeps sequence numbers in send order.
    const previous = this.flushing;
    this.flushing = (async () => {
      await previous;
      // Geo-blocking: the places each changed show is hidden from go along (null: unreadable).
      const blocks = await geoCodesOf(this.env.DB, data.map((d) => d.id)).catch(() => null);
      const event = { seq, ts: Date.now(), data } satisfies Omit<Extract<RealtimeEvent, { type: 'show:bulkupdate' }>, 'type'>;
      const shards = lobbyShardCount(this.env);
      await Promise.all(
        Array.from({ length: shards }, (_, i) =>
          this.env.LOBBY.get(this.env.LOBBY.idFromName(`shard-${i}`))
            .relayStatus(event, blocks)
            .catch(() => 0),
        ),
      );
    })();
    await this.flushing;
  }

  /** One RPC per shard, in parallel (cheaper than an HTTP request per shard). */
  private async fanOut(message: string, userId: number | null, hideFrom: string[] = []): Promise<void> {
    const shards = lobbyShardCount(this.env);
    await Promise.all(
      Array.from({ length: shards }, (_, i) =>
        this.env.LOBBY.get(this.env.LOBBY.idFromName(`shard-${i}`))
          .relay(message, userId, hideFrom)
          .catch(() => undefined),
      ),
    );
  }

  /** Simulator tick: the registered simulator flips shows, pushed at once; reschedule while enabled. */
  override async alarm(): Promise<void> {
    if (this.env.SIMULATOR !== '1') return;
    if (!hubHooks.simulate) {
      // Not silent: the simulator was asked for but the entry registered no tick (it stops here).
      console.error(JSON.stringify({ type: 'simulator_not_registered' }));
      return;
    }
    const changes = await hubHooks.simulate(this.env);
    for (const c of changes) this.pending.set(c.id, c.online);
    await this.flush();
    for (const after of hubHooks.simulated) await after(this.env, changes, (work) => this.ctx.waitUntil(work)).catch(() => undefined);
    await this.ctx.storage.setAlarm(Date.now() + SIMULATOR_EVERY_MS);
  }
}
