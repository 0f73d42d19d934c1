// Types of scripts/local-sfu.mjs for the TypeScript files that import it (unit tests, later e2e).

export interface StartedLocalSfu {
  /** http://127.0.0.1:<port>/v1: what REALTIME_API_BASE would be set to. */
  base: string;
  origin: string;
  appId: string;
  secret: string;
  port: number;
  /** The stand-in's process id (its CPU: /proc/<pid>/stat). */
  pid: number;
  /** A `/_control` call: GET without a body (`/stats`), else POST with the JSON body. */
  control<T = unknown>(path: string, body?: object): Promise<T>;
  log(): string;
  /** SIGTERM, resolved once the process is gone. */
  stop(): Promise<void>;
}

export function startLocalSfu(options?: { appId?: string; secret?: string; turnJson?: string; niceness?: number }): Promise<StartedLocalSfu>;

export function localSfuVars(sfu: StartedLocalSfu, options?: { turn?: boolean }): Record<string, string>;
