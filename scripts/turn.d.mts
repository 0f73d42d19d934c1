// Types of scripts/turn.mjs for the TypeScript files that import it (e2e global setup).

export const TURNSERVER: string;

export interface StartedTurn {
  /** ICE_SERVERS for the app: one turn: URL on the loopback with its long-term credential. */
  iceServers: string;
  stop(): void;
  log(): string;
}

export function startTurn(): Promise<StartedTurn>;
