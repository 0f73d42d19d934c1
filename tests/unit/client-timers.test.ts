// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiClient } from '../../src/client/lib/api';
import { reloadAfterChunkFailure } from '../../src/client/lib/chunk-reload';
import { logClientError } from '../../src/client/lib/error-log';
import { startVersionWatch } from '../../src/client/lib/version-watch';
import { testStore } from './client-state';

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('client error log', () => {
  it('keeps at most 10 entries and posts them 5 s after the last one, then clears', async () => {
    const store = testStore();
    const post = vi.fn(async () => undefined);
    const api = { post } as unknown as ApiClient;
    for (let i = 0; i < 12; i++) logClientError(store, api, `error ${i}`);
    expect(store.errorLog).toHaveLength(10);
    expect(store.errorLog[0].message).toBe('error 2');
    await vi.advanceTimersByTimeAsync(4_999);
    expect(post).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(post).toHaveBeenCalledTimes(1);
    const [path, body] = post.mock.calls[0] as unknown as [string, { entries: { message: string; level: number }[] }];
    expect(path).toBe('log');
    expect(body.entries).toHaveLength(10);
    expect(body.entries[0].level).toBe(1);
    expect(store.errorLog).toHaveLength(0);
  });
});

describe('chunk-load failure reload', () => {
  it('reloads at most once a minute', () => {
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    sessionStorage.clear();
    const t0 = 1_000_000;
    expect(reloadAfterChunkFailure(t0)).toBe(true);
    expect(reloadAfterChunkFailure(t0 + 30_000)).toBe(false);
    expect(reloadAfterChunkFailure(t0 + 60_000)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
  });
});

describe('update notice timing', () => {
  it('polls /version every 30 s, opens 10 s after a difference, and returns 5 min after dismissal', async () => {
    const store = testStore();
    let version = store.clientBuild;
    vi.stubGlobal('fetch', async () => new Response(version));
    const stop = startVersionWatch(store);

    await vi.advanceTimersByTimeAsync(30_000);
    expect(store.ui.updateNotice).toBe(false);

    version = '99.0.0';
    await vi.advanceTimersByTimeAsync(30_000); // poll sees the new build
    expect(store.serverBuild).toBe('99.0.0');
    await vi.advanceTimersByTimeAsync(9_000);
    expect(store.ui.updateNotice).toBe(false);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(store.ui.updateNotice).toBe(true);

    store.ui.updateNotice = false; // dismissed
    await vi.advanceTimersByTimeAsync(4 * 60_000);
    expect(store.ui.updateNotice).toBe(false);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(store.ui.updateNotice).toBe(true);
    stop();
  });

  it('ignores a /version answer that is not a semantic version', async () => {
    const store = testStore();
    vi.stubGlobal('fetch', async () => new Response('<html>oops</html>'));
    const stop = startVersionWatch(store);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(store.serverBuild).toBe('0.1.0');
    expect(store.ui.updateNotice).toBe(false);
    stop();
  });
});
