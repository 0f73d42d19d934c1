import type { Bindings } from '../env';

/** Operator settings with their defaults (set them in wrangler.toml [vars] or as secrets). */
export function config(env: Bindings) {
  return {
    supportEmail: env.SUPPORT_EMAIL ?? 'support@livecam.example',
    abuseEmail: env.ABUSE_EMAIL ?? 'abuse@livecam.example',
    splashExitUrl: env.SPLASH_EXIT_URL ?? 'about:blank',
    dev: env.ENVIRONMENT === 'development',
  };
}

/** Where `npm start` serves when no PUBLIC_ORIGIN is given (development only). */
export const DEV_ORIGIN = 'http://localhost:8787';

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
