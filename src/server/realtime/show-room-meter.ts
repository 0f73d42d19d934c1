import { billingStart, dueMinute, minuteStart, resumeHeld } from './room-logic';
import { ShowRoomCore, SIMULATOR_ACCEPT_MS } from './show-room-core';

/** A private or exclusive request nobody answers ends after this many grace periods. */
const PENDING_GRACE_FACTOR = 2;

/**
 * The meter of a show's room: the one alarm that charges each running session's next minute from
 * its stored start, ends sessions whose member (or lease, or request) is gone, and takes the show
 * offline when its performer stays away; and the performer's absence, during which no minute
 * starts (sessions are held, and shifted by the time away once the performer is back).
 */
export abstract class ShowRoomMeter extends ShowRoomCore {
  /** The alarm time this instance last set (unknown after a restart: set again). */
  private alarmAt: number | null = null;

  /** The performer is gone: no running session's next minute starts until they are back. */
  protected async holdMinutes(now: number): Promise<void> {
    const held = [...this.sessions.values()].filter((s) => s.state === 'active' && s.startedAt !== null && (s.heldAt ?? null) === null);
    for (const s of held) s.heldAt = now;
    if (held.length) await this.ctx.storage.put(Object.fromEntries(held.map((s) => [`s:${s.id}`, s])));
  }

  /**
   * The performer is back: each held session's minutes are shifted by the time it waited, written
   * in one put with the room's state (an eviction right after keeps the shift, a repeat finds
   * nothing held), so the time they were away is never billed.
   */
  protected async resumeMinutes(now: number): Promise<void> {
    const resumed = [...this.sessions.values()].filter((s) => s.state === 'active' && resumeHeld(s, now));
    await this.ctx.storage.put({
      show: this.show,
      history: this.history,
      mutes: [...this.mutes],
      perfGoneAt: this.perfGoneAt,
      ...Object.fromEntries(resumed.map((s) => [`s:${s.id}`, s])),
    });
  }

  /** One alarm at the earliest due time: a minute to charge, a grace period, a request to time out. */
  protected async schedule(): Promise<void> {
    let next = Infinity;
    const grace = this.graceMs;
    for (const s of this.sessions.values()) {
      if (s.goneAt !== null) next = Math.min(next, s.goneAt + grace);
      if (s.leaseUntil) next = Math.min(next, s.leaseUntil);
      if (s.state === 'pending') next = Math.min(next, s.createdAt + (this.simulated ? SIMULATOR_ACCEPT_MS : PENDING_GRACE_FACTOR * grace));
      // A held session waits for the performer's return, not for a time.
      const start = billingStart(s);
      if (s.state === 'active' && start !== null && (s.heldAt ?? null) === null) next = Math.min(next, minuteStart(start, this.minuteMs, s.minutes + 1));
    }
    if (this.perfGoneAt !== null) next = Math.min(next, this.perfGoneAt + grace);
    if (next === this.alarmAt) return;
    this.alarmAt = next === Infinity ? null : next;
    if (next === Infinity) await this.ctx.storage.deleteAlarm();
    else await this.ctx.storage.setAlarm(next);
  }

  /** Idempotent: may run late or twice; every charge is keyed by its minute. */
  override async alarm(): Promise<void> {
    this.alarmAt = null;
    const grace = this.graceMs;
    for (const s of [...this.sessions.values()]) {
      const now = this.now();
      if (s.state === 'ended') continue;
      if ((s.goneAt !== null && now >= s.goneAt + grace) || (s.leaseUntil && now >= s.leaseUntil)) {
        await this.endSession(s, s.goneAt !== null && now >= s.goneAt + grace ? 'timeout' : 'expired');
        continue;
      }
      if (s.state === 'pending') {
        if (this.simulated && now >= s.createdAt + SIMULATOR_ACCEPT_MS) await this.acceptSession(s);
        else if (now >= s.createdAt + PENDING_GRACE_FACTOR * grace) await this.endSession(s, 'timeout');
        continue;
      }
      const start = billingStart(s);
      if (s.state !== 'active' || start === null || (s.heldAt ?? null) !== null) continue;
      if (!this.performerHere) {
        // Gone without a goodbye we saw (or never connected): the minute due waits from its start.
        if (s.minutes < dueMinute(start, this.minuteMs, now)) {
          s.heldAt = minuteStart(start, this.minuteMs, s.minutes + 1);
          await this.save(s);
        }
        continue;
      }
      while (s.state === 'active' && (s.heldAt ?? null) === null) {
        const before = s.minutes;
        if (before >= dueMinute(billingStart(s) ?? start, this.minuteMs, this.now())) break;
        const ok = s.price > 0 ? await this.charge(s, before + 1) : await this.reserveFree(s, before + 1);
        if (!ok || s.minutes === before) break;
      }
    }
    if (this.perfGoneAt !== null && this.now() >= this.perfGoneAt + grace && this.open('performer').length === 0 && this.show?.online) await this.goOffline();
    await this.schedule();
  }
}
