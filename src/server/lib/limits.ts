import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv, Bindings } from '../env';
import { clientIp } from '../features/session/session.service';
import { envPositiveInt } from './config';
import { ApiError } from './errors';
import { reserve, type Reservation } from './throttle.repo';

// Size caps and per-address rates of the writes anyone can make without an account, and the
// mail caps. Every limit is reserved atomically (lib/throttle.ts `reserve`) before the work.

const HOUR = 3600;

/** Mails to one recipient per hour (verification, reset, changed address). */
export const MAIL_PER_RECIPIENT = 10;
/** Mails caused from one client address per hour. */
export const MAIL_PER_ADDRESS = 20;
/** Sign-ups from one client address per hour (each sends a mail). */
export const SIGNUPS_PER_ADDRESS = 10;
/** Tries of mailed one-time tokens (reset, login link, verification) per client address and hour. */
export const TOKEN_TRIES_PER_ADDRESS = 60;
/** Voucher checks per client address and hour (no guessing through the list of codes). */
export const COUPON_CHECKS_PER_ADDRESS = 60;
/** Largest body of an anonymous write (JSON of a few short fields). */
export const ANON_BODY_MAX = 8 * 1024;

/**
 * A limit per client address, multiplied by ADDRESS_LIMIT_FACTOR outside production: the
 * end-to-end run is one browser address standing for many visitors. Production ignores it.
 */
export function perAddress(env: Bindings, limit: number): number {
  if ((env.ENVIRONMENT ?? 'production') === 'production') return limit;
  return limit * envPositiveInt(env.ADDRESS_LIMIT_FACTOR, 1, 10_000);
}

export function tooMany(retryAfter: number): never {
  throw new ApiError(429, 'too_many_attempts', undefined, { 'Retry-After': String(retryAfter) });
}

/** Reserves every counter or answers 429 with Retry-After; returns the refund of the reservation. */
export async function reserveOrThrow(c: Context<AppEnv>, list: Reservation[]): Promise<() => Promise<void>> {
  const res = await reserve(c.env.DB, list);
  if (!res.ok) tooMany(res.retryAfter);
  return res.refund;
}

/** The reservations of one mail to `to`: per recipient and per client address, per hour. */
export function mailReservations(c: Context<AppEnv>, to: string): Reservation[] {
  return [
    { key: `mail:to:${to.trim().toLowerCase()}`, limit: MAIL_PER_RECIPIENT, windowSeconds: HOUR },
    { key: `mail:ip:${clientIp(c)}`, limit: perAddress(c.env, MAIL_PER_ADDRESS), windowSeconds: HOUR },
  ];
}

/** Bodies over `maxBytes` are refused (413) before anything reads them into memory. */
export function bodyCap(maxBytes: number): MiddlewareHandler<AppEnv> {
  return bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw new ApiError(413, 'payload_too_large');
    },
  });
}

/**
 * An anonymous write: at most `perHour` requests per client address and hour (counted before
 * anything else, so bad requests count too), and a body of at most `maxBytes`.
 */
export function anonymousWrite(name: string, perHour: number, maxBytes = ANON_BODY_MAX): MiddlewareHandler<AppEnv> {
  const cap = bodyCap(maxBytes);
  return async (c, next) => {
    await reserveOrThrow(c, [{ key: `anon:${name}:ip:${clientIp(c)}`, limit: perAddress(c.env, perHour), windowSeconds: HOUR }]);
    return cap(c, next);
  };
}
