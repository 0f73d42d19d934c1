import { sfuKey, VideoRelayError, type Publication, type SfuStore, type ViewerState } from './video-relay';

// What the SFU engine (cloudflare-sfu.ts) holds for one show room: publications, viewers and whose
// each session is. Each change of the publication or of one viewer is handed to `persist` as that
// entry alone (the room keeps them in Durable Object storage, so a change costs the same with ten
// viewers or ten thousand); the entries come back as `saved` when a room that slept builds the
// engine again.

export class SfuState {
  protected readonly publications = new Map<number, Publication>();
  protected readonly viewers = new Map<number, Map<string, ViewerState>>();
  /** Whose each known session is (viewer null: the publication): lookups by session id in O(1). */
  protected readonly sessions = new Map<string, { showId: number; viewerKey: string | null }>();

  constructor(protected readonly store: SfuStore = {}) {
    for (const [showId, pub] of store.saved?.publications ?? []) this.setPublication(showId, pub, false);
    for (const [showId, list] of store.saved?.viewers ?? []) for (const [key, v] of list) this.setViewer(showId, key, v, false);
  }

  /** The publication set or removed (null), and stored. */
  protected setPublication(showId: number, pub: Publication | null, persist = true): void {
    const old = this.publications.get(showId);
    if (old) this.sessions.delete(old.sessionId);
    if (pub) {
      this.publications.set(showId, pub);
      this.sessions.set(pub.sessionId, { showId, viewerKey: null });
    } else this.publications.delete(showId);
    if (persist) this.store.persist?.([[sfuKey(showId), pub]]);
  }

  /** A viewer's state set or removed (null), and stored. */
  protected setViewer(showId: number, viewerKey: string, state: ViewerState | null, persist = true): void {
    const old = this.viewer(showId, viewerKey);
    if (old) this.sessions.delete(old.sessionId);
    if (state) {
      this.viewersOf(showId).set(viewerKey, state);
      this.sessions.set(state.sessionId, { showId, viewerKey });
    } else this.viewers.get(showId)?.delete(viewerKey);
    if (persist) this.store.persist?.([[sfuKey(showId, viewerKey), state]]);
  }

  /** Changes what a session holds, if it is still held (the call may have outlived it), and stores it. */
  protected update(sessionId: string, change: (held: Publication | ViewerState) => void): void {
    const at = this.sessions.get(sessionId);
    const pub = at?.viewerKey === null ? this.publications.get(at.showId) : undefined;
    const v = at?.viewerKey ? this.viewer(at.showId, at.viewerKey) : null;
    if (pub) {
      change(pub);
      this.setPublication(at!.showId, pub);
    } else if (v) {
      change(v);
      this.setViewer(at!.showId, at!.viewerKey!, v);
    }
  }

  publication = (showId: number): Publication | null => this.publications.get(showId) ?? null;
  viewer = (showId: number, viewerKey: string): ViewerState | null => this.viewers.get(showId)?.get(viewerKey) ?? null;
  viewerKeys = (showId: number): string[] => [...(this.viewers.get(showId)?.keys() ?? [])];

  private viewersOf(showId: number): Map<string, ViewerState> {
    let map = this.viewers.get(showId);
    if (!map) this.viewers.set(showId, (map = new Map()));
    return map;
  }

  /** Only sessions this engine made may be touched (ids from a browser are never trusted alone). */
  protected assertKnown(sessionId: string): void {
    if (!this.sessions.has(sessionId)) throw new VideoRelayError('unknown_session', 'not a session of this show');
  }
}
