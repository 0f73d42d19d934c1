import { zValidator } from '@hono/zod-validator';
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { ChatSessionAnswer, SessionView } from '../../../shared/chat';
import type { AppEnv } from '../../env';
import { randomToken } from '../../lib/crypto';
import { ApiError } from '../../lib/errors';
import { signRoomToken } from '../../lib/room-token';
import { externalStart } from './chat-external';
import { validationHook } from '../../lib/validation';
import { envPositiveInt } from '../../lib/config';
import { utcDay } from './room/logic';
import { activeCall } from '../billing/billing.service';
import { bookTip } from './chat-tips';
import { realmOf, roomOf, showConf } from './chat.service';
import { minuteMs } from './chat-timings';
import { clientIp, ensureSession, requireUser } from '../session/session.service';
import { hit } from '../../lib/throttle.repo';
import { chatNick, effectiveType, parseSessionType, sessionPrice, startRefusal, type Refusal } from './chat-rules';
import {
  endSessionRow,
  findSession,
  insertSession,
  isBanned,
  latestRateable,
  lastUnansweredRequest,
  privateInUse,
  rateSession,
  reserveFreeMinute,
  showById,
  showByUniversalId,
  showRating,
  type ChatSessionRow,
} from './chat.repo';
import { FREE_CHAT_SECONDS_PER_DAY, PRIVATE_REQUEST_PAUSE_MS } from '../../../shared/chat';
import { nowSeconds } from '../../lib/clock';

/** Guest sessions one address may start per hour (a guest is only a browser session: new ones are free to make). */
export const GUEST_SESSIONS_PER_ADDRESS = 30;
const GUEST_WINDOW_SECONDS = 3_600;

/** Largest tip (coins) besides the offered amounts. */
export const TIP_MAX = 10_000;
const SESSION_ID = /^[A-Za-z0-9_-]{8,64}$/;

export function refusal(r: Refusal): never {
  if (r.status === 422) throw new ApiError(422, r.code, { [r.field ?? 'type']: [r.code] });
  throw new ApiError(r.status, r.code);
}

export const sessionIdParam = z.object({ sessionId: z.string().regex(SESSION_ID, 'not_found') });
const universalParam = z.object({ universalId: z.string().min(1).max(64) });

/** The member's own session (404 for an unknown id and for another member's, alike). */
export async function ownSession(c: Context<AppEnv>, sessionId: string, userId: number): Promise<ChatSessionRow> {
  const s = await findSession(c.env.DB, sessionId);
  if (!s || s.user_id !== userId) throw new ApiError(404, 'not_found');
  return s;
}

export function rowView(s: ChatSessionRow): SessionView {
  return { sessionId: s.id, nick: s.nick, type: s.type, state: s.state, started_at: s.started_at, minutes: s.minutes, coins: s.coins, price: s.price, balance: null, ended_reason: s.end_reason, by_call: s.phone_billing_id !== null };
}

/** /api/chatsession: start a session, tip, check and rate (the end call is in chat-end.routes.ts). */
export const chatSessionRoutes = new Hono<AppEnv>()
  // A fresh room token for a reconnect (the first one is short-lived): the session's own browser only.
  .post('/token/:sessionId', zValidator('param', sessionIdParam, validationHook), async (c) => {
    const s = await findSession(c.env.DB, c.req.valid('param').sessionId);
    const user = c.get('user');
    const mine = s && (user ? s.user_id === user.id : s.user_id === null && s.visitor === c.get('cookieSessionId'));
    if (!s || !mine) throw new ApiError(404, 'not_found');
    if (s.state === 'ended') throw new ApiError(410, 'chat.session_ended');
    const password = await signRoomToken(c.env, { sub: s.id, show: s.show_id, role: s.user_id ? 'member' : 'guest', uid: s.user_id, login: s.user_id ? c.get('loginId') : null });
    c.header('Cache-Control', 'no-store');
    return c.json({ login: s.id, password, realm: realmOf(c, s.show_id) });
  })
  .post(
    '/tip/:sessionId',
    requireUser,
    zValidator('param', sessionIdParam, validationHook),
    zValidator(
      'json',
      z.object({
        coins: z.number({ message: 'tip_invalid' }).int('tip_invalid').min(1, 'tip_invalid').max(TIP_MAX, 'tip_invalid'),
        /** Optional idempotency key: a retried tip with the same key is booked once. */
        key: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'key_invalid').optional(),
      }),
      validationHook,
    ),
    async (c) => {
      const { coins, key } = c.req.valid('json');
      const s = await ownSession(c, c.req.valid('param').sessionId, c.var.member.id);
      return c.json(await bookTip(c, s, coins, key, null, 'coins'));
    },
  )
  .post('/check_rating/:universalId', requireUser, zValidator('param', universalParam, validationHook), async (c) => {
    const show = await showByUniversalId(c.env.DB, c.req.valid('param').universalId);
    if (!show) throw new ApiError(404, 'not_found');
    const s = await latestRateable(c.env.DB, c.var.member.id, show.id);
    c.header('Cache-Control', 'no-store');
    return c.json({ rating: !!s && s.rating === null, sessionId: s?.id ?? null, contentProviderId: show.contentprovider_id, showId: show.id });
  })
  .post(
    '/rate_chat/:pair/:sessionId',
    requireUser,
    zValidator('param', z.object({ pair: z.string().regex(/^\d{1,9}-\d{1,9}$/, 'not_found'), sessionId: z.string().regex(SESSION_ID, 'not_found') }), validationHook),
    zValidator(
      'json',
      z.object({
        rating: z.number({ message: 'rating_invalid' }).int('rating_invalid').min(1, 'rating_invalid').max(100, 'rating_invalid'),
        comment: z.string().max(500, 'too_long').optional().nullable(),
      }),
      validationHook,
    ),
    async (c) => {
      const { pair, sessionId } = c.req.valid('param');
      const [providerId, showId] = pair.split('-').map(Number);
      const s = await ownSession(c, sessionId, c.var.member.id);
      const show = await showById(c.env.DB, s.show_id);
      if (!show || show.id !== showId || show.contentprovider_id !== providerId) throw new ApiError(404, 'not_found');
      if (s.rating !== null) throw new ApiError(409, 'chat.already_rated');
      if (s.state !== 'ended' || s.started_at === null || (s.type !== 'private' && s.type !== 'exclusive')) {
        throw new ApiError(422, 'chat.rating_not_due', { rating: ['chat.rating_not_due'] });
      }
      const { rating, comment } = c.req.valid('json');
      if (!(await rateSession(c.env.DB, s.id, c.var.member.id, show.id, rating, (comment ?? '').trim(), nowSeconds()))) {
        throw new ApiError(409, 'chat.already_rated');
      }
      const now = await showRating(c.env.DB, show.id);
      return c.json({ ok: true, showRating: now?.rating ?? null });
    },
  )
  .post(
    '/:universalId',
    zValidator('param', universalParam, validationHook),
    zValidator('json', z.object({ type: z.unknown().optional(), nickname: z.string().max(64, 'nickname_pattern').nullable().optional() }), validationHook),
    async (c) => {
      const body = c.req.valid('json');
      const requested = parseSessionType(body.type);
      if (!requested) refusal({ status: 422, code: 'chat.invalid_session_type', field: 'type' });
      const db = c.env.DB;
      const show = await showByUniversalId(db, c.req.valid('param').universalId);
      if (!show) throw new ApiError(404, 'not_found');
      const user = c.get('user');
      const type = effectiveType(requested, show);
      const inUse = type === 'free' ? null : ((await privateInUse(db, show.id))?.type ?? null);
      // Voice-call mode: the connected phone call pays for a paid session's time, not the coins.
      const call = user && type !== 'free' && c.get('session').voicecall ? await activeCall(db, c.get('sessionId'), user.id) : null;
      const refused = startRefusal({ type, show, user, agechecked: c.get('session').agechecked, inUse, byCall: call !== null });
      if (refused) refusal(refused);
      const nick = chatNick(user, body.nickname);
      if ('code' in nick) refusal(nick);
      if (user && (type === 'private' || type === 'exclusive')) {
        const at = await lastUnansweredRequest(db, show.id, user.id, Date.now() - PRIVATE_REQUEST_PAUSE_MS);
        if (at !== null) throw new ApiError(429, 'chat.request_pause', undefined, { 'Retry-After': String(Math.max(1, Math.ceil((at + PRIVATE_REQUEST_PAUSE_MS - Date.now()) / 1000))) });
      }
      const visitor = await ensureSession(c);
      if (await isBanned(db, show.id, [...(user ? [`u:${user.id}`] : []), `v:${visitor}`])) throw new ApiError(403, 'chat.banned');
      if (!user) {
        // Counted atomically before anything is reserved, so a burst of fresh guest sessions cannot pass it.
        const tries = await hit(db, `chat:guest:ip:${clientIp(c)}`, GUEST_WINDOW_SECONDS);
        if (tries.count > envPositiveInt(c.env.CHAT_GUEST_SESSIONS_PER_ADDRESS, GUEST_SESSIONS_PER_ADDRESS)) throw new ApiError(429, 'too_many_attempts', undefined, { 'Retry-After': String(tries.retryAfter) });
      }
      if (type === 'free' && !(await reserveFreeMinute(db, user ? `u:${user.id}` : `v:${visitor}`, utcDay(Date.now()), Math.floor(FREE_CHAT_SECONDS_PER_DAY / 60)))) {
        refusal({ status: 422, code: 'chat.free_expired', field: 'type' });
      }
      const id = randomToken(18);
      const price = sessionPrice(type, show);
      const pending = type === 'private' || type === 'exclusive';
      const now = Date.now();
      const row = { id, show_id: show.id, user_id: user?.id ?? null, visitor, nick: nick.nick, type, state: pending ? ('pending' as const) : ('active' as const), price, created_at: now, started_at: pending ? null : now, minutes: type === 'free' ? 1 : 0, phone_billing_id: call };
      if (!(await insertSession(db, row))) {
        const again = (await privateInUse(db, show.id))?.type;
        refusal({ status: 422, code: again === 'exclusive' ? 'chat.show_not_available_exclusive_in_use' : 'chat.show_not_available_private', field: 'type' });
      }
      const registered = await roomOf(c.env, show.id).register({ id, uid: user?.id ?? null, visitor, nick: nick.nick, type, price, phone: call }, showConf(show));
      if (!registered.ok) {
        await endSessionRow(db, id, registered.code === 'chat.no_coins' ? 'no_coins' : 'declined', Date.now());
        refusal({ status: 422, code: registered.code, field: 'type' });
      }
      const password = await signRoomToken(c.env, { sub: id, show: show.id, role: user ? 'member' : 'guest', uid: user?.id ?? null, login: user ? c.get('loginId') : null });
      c.header('Cache-Control', 'no-store');
      return c.json<ChatSessionAnswer>({
        realm: realmOf(c, show.id),
        login: id,
        password,
        buddyaddr: 'performer',
        session_type: type,
        sessionId: id,
        contentProviderId: show.contentprovider_id,
        showId: show.id,
        price,
        minute_ms: minuteMs(c.env),
        nickname: nick.nick,
        voicecall: call !== null,
        // A partner show's session: the frame to embed and the lease its page extends.
        ...(await externalStart(c.env, show, id)),
      });
    },
  );
