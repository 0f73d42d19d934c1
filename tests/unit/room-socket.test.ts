// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The room socket's token (issue 27, storms): a reconnect reuses the token it holds while it is
// fresh, asks for a fresh one when it is too old or was just refused, and renews it over the socket
// before it runs out. partysocket is replaced by a socket the test opens, drops and feeds.

class FakeSocket {
  static last: FakeSocket;
  readonly OPEN = 1;
  readyState = 0;
  sent: string[] = [];
  private listeners = new Map<string, ((e: unknown) => void)[]>();
  constructor(readonly url: () => Promise<string>) {
    FakeSocket.last = this;
  }
  addEventListener(type: string, fn: (e: unknown) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), fn]);
  }
  private emit(type: string, e: unknown = {}) {
    for (const fn of this.listeners.get(type) ?? []) fn(e);
  }
  /** One connection attempt: the URL it would use, then open (or not). */
  async attempt(opens: boolean): Promise<string> {
    const url = await this.url();
    if (opens) {
      this.readyState = 1;
      this.emit('open');
    }
    return url;
  }
  drop() {
    this.readyState = 3;
    this.emit('close');
  }
  message(data: unknown) {
    this.emit('message', { data: JSON.stringify(data) });
  }
  send(data: string) {
    if (data !== 'ping') this.sent.push(data);
  }
  close() {
    this.readyState = 3;
  }
  reconnect() {}
}
vi.mock('partysocket', () => ({ WebSocket: FakeSocket }));

const { openRoom } = await import('../../src/client/features/chat/room-socket');

const b64 = (v: object) => btoa(JSON.stringify(v)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
/** A token shaped like the room's (HS256 JWT, 300 s), with an `iat` far from the device's clock: only its lifetime counts. */
const token = (n: number) => `${b64({ alg: 'HS256' })}.${b64({ sub: 's1', iat: 1_000 + n, exp: 1_300 + n })}.sig${n}`;

let issued = 0;
const creds = vi.fn(async () => ({ realm: 'ws://room.test/api/chatroom/1', login: 's1', password: token(++issued) }));
const passwordOf = (url: string) => new URL(url).searchParams.get('password');

beforeEach(() => {
  vi.useFakeTimers();
  issued = 0;
  creds.mockClear();
});
afterEach(() => vi.useRealTimers());

describe('room socket token', () => {
  it('a reconnect reuses a fresh token; after a refused attempt, or once it is too old, it asks for a new one', async () => {
    const room = openRoom(creds, { event: () => undefined, status: () => undefined });
    const s = FakeSocket.last;
    expect(passwordOf(await s.attempt(true))).toBe(token(1));
    s.drop();
    // A storm of reconnects costs no API call: the token held is used again.
    expect(passwordOf(await s.attempt(false))).toBe(token(1));
    expect(creds).toHaveBeenCalledTimes(1);
    // That attempt was refused (the session may have ended meanwhile): the next asks for a fresh one.
    expect(passwordOf(await s.attempt(true))).toBe(token(2));
    expect(creds).toHaveBeenCalledTimes(2);
    expect(room.creds?.password).toBe(token(2));
    // Away for longer than the token lives (its renewal could not be sent): a fresh one.
    s.drop();
    vi.advanceTimersByTime(290_000);
    expect(passwordOf(await s.attempt(true))).toBe(token(3));
    room.close();
  });

  it('renews the token over the open socket before it runs out, and the next reconnect uses the renewed one', async () => {
    const room = openRoom(creds, { event: () => undefined, status: () => undefined });
    const s = FakeSocket.last;
    await s.attempt(true);
    // 300 s lifetime: renewed between 180 and 210 s after it arrived, not before.
    vi.advanceTimersByTime(179_000);
    expect(s.sent).toEqual([]);
    vi.advanceTimersByTime(31_000);
    expect(s.sent).toEqual([JSON.stringify({ t: 'renew' })]);
    s.message({ t: 'token', password: token(9) });
    expect(room.creds?.password).toBe(token(9));
    // Long after the first token ran out, the renewed one is still fresh: the reconnect takes it.
    vi.advanceTimersByTime(100_000);
    s.drop();
    expect(passwordOf(await s.attempt(true))).toBe(token(9));
    expect(creds).toHaveBeenCalledTimes(1);
    room.close();
  });
});
