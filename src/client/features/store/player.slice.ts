// The store's video-player slice; saving and restoring it is in player-storage.ts, loaded with the player.

export interface PlayerState {
  volume: number;
  muted: boolean;
  /** Seconds per `${videoId}:${part}:${kind}` (kind: full or preview), newest last. */
  positions: Record<string, number>;
  restored: boolean;
}

export interface PlayerSlice {
  player: PlayerState;
}

export const playerSlice = (): PlayerSlice => ({ player: { volume: 1, muted: false, positions: {}, restored: false } });
