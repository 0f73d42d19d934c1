// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EXTERNAL_EXTEND_MS, type ChatSessionAnswer } from '../../src/shared/chat';

// The show page's side of a partner show's chat: the lease is extended every 10 s, extending
// stops on 422 (the chat ended) and only then; page hide ends the session by beacon.

const post = vi.fn<(path: string, body?: unknown) => Promise<unknown>>();
vi.mock('../../src/client/lib/api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../src/client/lib/api')>()),
  api: () => ({ post, get: vi.fn(async () => ({})) }),
}));

const { ApiFailure } = await import('../../src/client/lib/api');
const { openExternal } = await import('../../src/client/features/chat/external-actions');
const { reset } = await import('../../src/client/features/chat/chat-state');
const { setAppStore } = await import('../../src/client/state/app-store');
const { testStore } = await import('./client-state');

// The document's store, as main.ts sets it: the chat actions reach their slice through it.
const store = testStore();
setAppStore(store);
const { chat, externalChat: external } = store;

const answer = (id: string) =>
  ({ sessionId: id, showId: 241, frame: `/api/chat/external/vxm?session=${id}`, session_type: 'free' }) as ChatSessionAnswer & { frame: string };
const extendCalls = () => post.mock.calls.filter(([path]) => path === 'chat/external/extend');

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal('navigator', { ...navigator, sendBeacon: vi.fn(() => true) });
  post.mockReset();
  reset();
});
afterEach(() => {
  // Ends the test's chat (by the stubbed beacon), so its timer stops.
  window.dispatchEvent(new Event('pagehide'));
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('external provider chat on the show page', () => {
  it('extends the session every 10 s while the calls succeed (or fail for a moment)', async () => {
    post.mockResolvedValue({});
    openExternal(answer('sess-aaaaaaaa'), 'Show');
    expect(chat.phase).toBe('external');
    await vi.advanceTimersByTimeAsync(EXTERNAL_EXTEND_MS - 1);
    expect(extendCalls()).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(extendCalls()).toEqual([['chat/external/extend', { sessionId: 'sess-aaaaaaaa' }]]);
    post.mockRejectedValueOnce(new ApiFailure(0, 'network_error'));
    await vi.advanceTimersByTimeAsync(2 * EXTERNAL_EXTEND_MS);
    expect(extendCalls()).toHaveLength(3);
    expect(external.ended).toBe(false);
    expect(external.extends).toBe(2);
  });

  it('stops extending on 422 and shows the chat ended', async () => {
    post.mockRejectedValue(new ApiFailure(422, 'chat.session_ended', { sessionId: ['chat.session_ended'] }));
    openExternal(answer('sess-bbbbbbbb'), 'Show');
    await vi.advanceTimersByTimeAsync(EXTERNAL_EXTEND_MS);
    expect(extendCalls()).toHaveLength(1);
    expect(external.ended).toBe(true);
    await vi.advanceTimersByTimeAsync(5 * EXTERNAL_EXTEND_MS);
    expect(extendCalls()).toHaveLength(1);
  });

  it('page hide ends the session by beacon (text/plain, the beacon flag) and stops extending', async () => {
    const beacon = vi.fn((_url: string, _body: Blob) => true);
    vi.stubGlobal('navigator', { ...navigator, sendBeacon: beacon });
    post.mockResolvedValue({});
    openExternal(answer('sess-cccccccc'), 'Show');
    window.dispatchEvent(new Event('pagehide'));
    expect(beacon).toHaveBeenCalledTimes(1);
    const [url, body] = beacon.mock.calls[0];
    expect(url).toBe('/api/chat/external/end?beacon=1');
    expect(body.type).toBe('text/plain;charset=utf-8');
    expect(JSON.parse(await body.text())).toEqual({ sessionId: 'sess-cccccccc' });
    expect(external.ended).toBe(true);
    await vi.advanceTimersByTimeAsync(3 * EXTERNAL_EXTEND_MS);
    expect(extendCalls()).toEqual([]);
    // Once only.
    window.dispatchEvent(new Event('pagehide'));
    expect(beacon).toHaveBeenCalledTimes(1);
  });
});
