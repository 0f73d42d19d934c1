import type { Context } from 'hono';
import type { AppEnv, Bindings } from '../../env';
import { sign, timingSafeEqual, unsign } from '../../lib/crypto';
import { ApiError } from '../../lib/errors';

// Age verification (/avs?kjm=&target=). A provider sends the browser to its check
// and later back to /avs/callback; the state travels through it signed, so the callback can
// trust which session asked, where to return and until when.

export const AVS_STATE_TTL_S = 10 * 60;
export type AvsResult = 'pass' | 'fail';

export interface AgeVerificationProvider {
  /** Sends the browser to the check (a redirect). */
  start(c: Context<AppEnv>, args: { state: string; returnUrl: string; kjm?: boolean }): Response;
  /** Reads the provider's answer on /avs/callback; null when it is missing or forged. */
  verifyCallback(c: Context<AppEnv>): Promise<{ state: string; passed: boolean } | null>;
}

export interface AvsState {
  /** The D1 session id that started the check. */
  sid: string;
  /** Relative path to return to. */
  target: string;
  /** Unix seconds after which the state is refused. */
  exp: number;
  kjm: boolean;
}

export function avsSecret(env: Bindings): string {
  const secret = env.AVS_SECRET ?? env.PASSWORD_PEPPER;
  if (!secret) throw new Error('AVS_SECRET is not configured');
  return secret;
}

const STATE_PREFIX = 'avs1:';

function b64url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromB64url(text: string): string | null {
  try {
    const bin = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    return new TextDecoder().decode(Uint8Array.from(bin, (ch) => ch.charCodeAt(0)));
  } catch {
    return null;
  }
}

/** `avs1:<payload>.<hmac>`: the payload is base64url JSON, so it holds no dot. */
export async function makeState(env: Bindings, state: AvsState): Promise<string> {
  return sign(avsSecret(env), `${STATE_PREFIX}${b64url(JSON.stringify(state))}`);
}

/** The state when its signature holds and it has not expired; null otherwise. */
export async function readState(env: Bindings, token: string | undefined, nowS: number): Promise<AvsState | null> {
  if (!token || token.length > 1500) return null;
  const value = await unsign(avsSecret(env), token);
  if (!value?.startsWith(STATE_PREFIX)) return null;
  const json = fromB64url(value.slice(STATE_PREFIX.length));
  if (!json) return null;
  try {
    const s = JSON.parse(json) as Partial<AvsState>;
    if (typeof s.sid !== 'string' || typeof s.target !== 'string' || typeof s.exp !== 'number') return null;
    if (s.exp < nowS) return null;
    return { sid: s.sid, target: s.target, exp: s.exp, kjm: s.kjm === true };
  } catch {
    return null;
  }
}

/** HMAC-SHA256(secret, state + '.' + result), base64url: the sandbox's answer signature. */
export async function resultSignature(env: Bindings, state: string, result: AvsResult): Promise<string> {
  const signed = await sign(avsSecret(env), `${state}.${result}`);
  return signed.slice(signed.lastIndexOf('.') + 1);
}

/**
 * Development and staging: /avs/sandbox simulates the check with Pass and Fail buttons whose
 * links carry the signed result.
 */
export const sandboxProvider: AgeVerificationProvider = {
  start(c, { state }) {
    return c.redirect(`/avs/sandbox?state=${encodeURIComponent(state)}`, 302);
  },
  async verifyCallback(c) {
    const state = c.req.query('state');
    const result = c.req.query('result');
    const sig = c.req.query('sig');
    if (!state || !sig || (result !== 'pass' && result !== 'fail')) return null;
    if (!timingSafeEqual(sig, await resultSignature(c.env, state, result))) return null;
    return { state, passed: result === 'pass' };
  },
};

const PROVIDERS: Record<string, AgeVerificationProvider> = { sandbox: sandboxProvider };

/**
 * The configured provider (AVS_PROVIDER); the sandbox when unset outside production. In
 * production the sandbox (anyone can press Pass) must be chosen explicitly, else 503.
 */
export function avsProvider(env: Bindings): AgeVerificationProvider {
  const name = env.AVS_PROVIDER ?? (env.ENVIRONMENT === 'production' ? '' : 'sandbox');
  const provider = PROVIDERS[name];
  if (!provider) throw new ApiError(503, 'avs_unavailable');
  return provider;
}
