// Types of scripts/lib.mjs for the TypeScript files that import it (e2e global setup, bench).

export const root: string;
export const wranglerEnv: NodeJS.ProcessEnv;

export function run(cmd: string, args: string[], opts?: { capture?: boolean; env?: NodeJS.ProcessEnv }): Promise<string>;
export function wrangler(args: string[], opts?: { capture?: boolean }): Promise<string>;
export function ensureDevVars(): Record<string, string>;
export function newVapidKeys(): { VAPID_PUBLIC_KEY: string; VAPID_PRIVATE_KEY: string };
export function buildClient(): Promise<void>;
export function migrateLocal(persistTo?: string): Promise<void>;
export function seedIfEmpty(persistTo: string | undefined, pepper: string): Promise<boolean>;
/** Puts the demo clips and pictures into the local R2 (MEDIA) unless already there; true when written. */
export function seedMediaIfMissing(persistTo?: string): Promise<boolean>;
export function loadTs<T = Record<string, unknown>>(entry: string): Promise<T>;

export interface StartedServer {
  /** http://127.0.0.1:<port> */
  url: string;
  /** Everything wrangler printed so far. */
  log: () => string;
  /** Stops wrangler dev (its whole process group) and resolves once it exited. */
  stop: () => Promise<void>;
}

/** The origin of `npm start`'s mail links: PUBLIC_ORIGIN of .dev.vars, else http://127.0.0.1:PORT (where it listens). */
export function startOrigin(port: string | number, vars?: Record<string, string | undefined>): string;

/** A TCP port free on the loopback right now. */
export function freePort(): Promise<number>;

export function startServer(opts: {
  port: number;
  persistTo: string;
  pepper?: string;
  vars?: Record<string, string>;
}): Promise<StartedServer>;
