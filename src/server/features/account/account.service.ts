import type { Context } from 'hono';
import type { AppEnv, Bindings } from '../../env';
import { mailOrigin } from '../../lib/config';
import { ApiError } from '../../lib/errors';
import { actionMail } from '../../lib/mail-templates';
import { mailerFor } from '../../lib/mailer';
import { ensureSession } from '../session/session.service';
import { logIn } from '../session/login.service';
import { nowSeconds } from '../../lib/clock';
import { loginState, markVerifySent, nameTaken, toWireUser, wireUser } from './account.repo';
import { endLogins } from './end-logins';
import { endLoginsStatement, issueToken } from './tokens.repo';

export const LOGIN_WINDOW_S = 15 * 60;
/** Failed logins allowed per account and per address in the window (well under 100 an hour). */
export const LOGIN_LIMIT_ACCOUNT = 8;
export const LOGIN_LIMIT_IP = 40;
/** Nicknames a member may have. */
export const NICKNAME_LIMIT = 10;

/**
 * Origin for links in mails: PUBLIC_ORIGIN (in development the dev origin), never the request's
 * Host. Without it in production nothing may be mailed: 503 mail_unavailable, before any work.
 */
export function publicOrigin(c: Context<AppEnv>): string {
  const origin = mailOrigin(c.env);
  if (!origin) throw new ApiError(503, 'mail_unavailable');
  return origin;
}

/** A free username derived from `base` (Latin letters, digits, dot, underscore, hyphen; 3 to 30). */
export async function uniqueUsername(db: D1Database, base: string): Promise<string> {
  // NFKD splits accents off (Jürgen -> Jurgen); what is still not Latin is dropped (shared/account-rules.ts).
  let stem = base
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9._-]+/g, '')
    .slice(0, 24);
  if (stem.length < 3) stem = `member${stem}`;
  if (!(await nameTaken(db, stem))) return stem;
  for (let i = 0; i < 20; i++) {
    const candidate = `${stem}${Math.floor(1000 + Math.random() * 9000)}`;
    if (!(await nameTaken(db, candidate))) return candidate;
  }
  return `${stem}${Date.now()}`.slice(0, 30);
}

/** The member behind a request's auth cookie as answered (the session middleware's `user`). */
// Kept: the middleware reaches account.repo only through this service (layout rules; no re-exports).
export const wireMember = toWireUser;

/** Logs in; the member and the session, which every successful auth call answers with. */
export async function logInPayload(c: Context<AppEnv>, userId: number) {
  // Every way in (password, mailed link, reset, Google) refuses blocked accounts alike.
  const blocked = await loginState(c.env.DB, userId, nowSeconds());
  if (blocked?.blocked) throw new ApiError(422, 'user_blocked');
  // Banned or suspended (issue 29): the mailed statement of reasons says why and how to appeal.
  if (blocked?.restriction) throw new ApiError(422, 'account_restricted', undefined, undefined, { restriction: blocked.restriction, ends_at: blocked.restricted_until });
  c.set('memberWelcomed', !!blocked?.welcome_shown_at);
  await ensureSession(c);
  await logIn(c, userId);
  const user = await wireUser(c.env.DB, userId);
  c.set('user', user);
  // A member who was welcomed once is not greeted "as a new member" again at the next login.
  if (blocked?.welcome_shown_at) c.set('session', { ...c.get('session'), welcome_dialog: null });
  return { user, session: c.get('session') };
}

/** Sends (again) the verification link to a member. */
export async function sendVerification(c: Parameters<typeof publicOrigin>[0], user: { id: number; name: string; email: string }) {
  const origin = publicOrigin(c);
  const token = await issueToken(c.env.DB, user.id, 'verify', user.email);
  await markVerifySent(c.env.DB, user.id, nowSeconds());
  await mailerFor(c.env).send(
    actionMail('verify', c.get('locale'), user.email, { name: user.name, link: `${origin}/users/activate?token=${token}` }),
  );
}

/**
 * Ends every login of the account at once (a ban or suspension): its auth tokens, then what they
 * had open (end-logins.ts: chats, the studio, lobby sockets told user:logout).
 */
export async function endEveryLogin(env: Bindings, userId: number): Promise<void> {
  await endLoginsStatement(env.DB, userId).run();
  await endLogins(env, userId, {});
}
