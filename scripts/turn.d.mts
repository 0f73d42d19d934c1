// Types of scripts/turn.mjs for the TypeScript files that import it (e2e global setup).

export const TURNSERVER: string;

export interface StartedTurn {
  port: number;
  /** ICE_SERVERS for the app: one turn: URL on the loopback with its long-term credential. */
  iceServers: string;
  stop(): void;
  /** SIGKILL, resolved once the process is gone. */
  kill(): Promise<void>;
  log(): string;
}

export function startTurn(options?: { port?: number; minPort?: number; maxPort?: number }): Promise<StartedTurn>;
