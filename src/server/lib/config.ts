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
