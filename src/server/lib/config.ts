import type { Bindings } from '../env';

/**
 * A whole-number setting from the environment (wrangler.toml [vars]): the value when it is a
 * positive integer no larger than `max`, else the default (unset, empty, a typo, 0, a fraction).
 */
export function envPositiveInt(value: string | undefined, fallback: number, max = Infinity): number {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 && n <= max ? n : fallback;
}

/** Operator settings with their defaults (set them in wrangler.toml [vars] or as secrets). */
export function config(env: Bindings) {
  return {
    supportEmail: env.SUPPORT_EMAIL ?? 'support@livecam.example',
    abuseEmail: env.ABUSE_EMAIL ?? 'abuse@livecam.example',
    splashExitUrl: env.SPLASH_EXIT_URL ?? 'about:blank',
    dev: env.ENVIRONMENT === 'development',
  };
}

/**
 * Where `npm start` serves when no PUBLIC_ORIGIN is given (development only): the address it
 * announces and listens on (127.0.0.1), since a link to localhost would miss the session cookie.
 */
export const DEV_ORIGIN = 'http://127.0.0.1:8787';

function originOf(value: string | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : null;
  } catch {
    return null;
  }
}

/**
 * The origin of links in mails: the configured PUBLIC_ORIGIN, never the request's Host (which
 * anyone can send). In development without it, the dev server's origin. Null in production
 * without it: no mail may be sent then.
 */
export function mailOrigin(env: Bindings): string | null {
  return originOf(env.PUBLIC_ORIGIN) ?? (config(env).dev ? DEV_ORIGIN : null);
}

/** Cloudflare Realtime (SFU and TURN) HTTPS API, as documented; REALTIME_API_BASE overrides it. */
export const REALTIME_API_DEFAULT_BASE = 'https://rtc.live.cloudflare.com/v1';
/** Longest wait for one Realtime API call (the SFU itself may block up to 5 s awaiting a connection). */
export const REALTIME_API_DEFAULT_TIMEOUT_MS = 10_000;
/** Lifetime asked for TURN credentials (seconds). */
export const TURN_CREDENTIAL_TTL_S = 4 * 60 * 60;

/** Video delivery settings (issue 12): which engine, and the Cloudflare engine's secrets. */
export function videoConfig(env: Bindings) {
  return {
    /** Raw VIDEO_RELAY; parsed (and refused when unknown) by the relay factory. */
    relay: env.VIDEO_RELAY?.trim() || 'p2p',
    realtimeApiBase: (env.REALTIME_API_BASE?.trim() || REALTIME_API_DEFAULT_BASE).replace(/\/+$/, ''),
    /** Whole milliseconds only: a fraction ('2500.5'), like 0 or a typo, falls back to the default. */
    realtimeTimeoutMs: envPositiveInt(env.REALTIME_API_TIMEOUT_MS, REALTIME_API_DEFAULT_TIMEOUT_MS),
    appId: env.REALTIME_APP_ID?.trim() ?? '',
    appSecret: env.REALTIME_APP_SECRET?.trim() ?? '',
    turnKeyId: env.TURN_KEY_ID?.trim() ?? '',
    turnKeyApiToken: env.TURN_KEY_API_TOKEN?.trim() ?? '',
  };
}
export type VideoConfig = ReturnType<typeof videoConfig>;
