import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { z } from 'zod';
import { TIP_GOAL_MAX, TIP_GOAL_MINUTES_MAX, TIP_MENU_MAX, TIP_PRICE_MAX, TIP_TEXT_MAX, type TipsView } from '../../../shared/tips';
import type { AppEnv } from '../../env';
import { ApiError } from '../../lib/errors';
import { validationHook } from '../../lib/validation';
import { requireUser } from '../session/session.service';
import { showById } from './chat.repo';
import { roomOf } from './chat.service';
import { bookTip } from './chat-tips';
import { ownSession, sessionIdParam } from './chatsession.routes';
import { createMiddleware } from 'hono/factory';
import { currentGoal, endGoal, replaceTipMenu, startGoal, tipMenu, tipMenuItem } from './tips.repo';

const text = z.string({ message: 'text_required' }).trim().min(1, 'text_required').max(TIP_TEXT_MAX, 'too_long');
const menuSchema = z.object({
  items: z
    .array(
      z.object({
        coins: z.number({ message: 'price_invalid' }).int('price_invalid').min(1, 'price_invalid').max(TIP_PRICE_MAX, 'price_invalid'),
        en: text,
        de: text,
      }),
      { message: 'items_invalid' },
    )
    .max(TIP_MENU_MAX, 'too_many_items'),
});
const goalSchema = z.object({
  amount: z.number({ message: 'goal_amount_invalid' }).int('goal_amount_invalid').min(1, 'goal_amount_invalid').max(TIP_GOAL_MAX, 'goal_amount_invalid'),
  text,
  minutes: z.number({ message: 'goal_minutes_invalid' }).int('goal_minutes_invalid').min(1, 'goal_minutes_invalid').max(TIP_GOAL_MINUTES_MAX, 'goal_minutes_invalid').nullable().optional(),
});

/** 401 logged out, 403 not_performer for members without a show (as the studio's own routes). */
const performer = createMiddleware<AppEnv>(async (c, next) => {
  const user = c.get('user');
  if (!user) throw new ApiError(401, 'unauthenticated');
  if (user.performer_show === null) throw new ApiError(403, 'not_performer');
  c.header('Cache-Control', 'no-store');
  await next();
});
const showOf = (u: { performer_show: number | null } | null): number => u?.performer_show ?? 0;

/**
 * /api/chat/tips: a show's tip menu and current goal as the viewer's chat shows them, and a tip
 * for one of the menu's actions (its price, announced with the action's texts); under /studio the
 * performer's own menu (replaced whole) and goal (a new one replaces the current; DELETE ends it),
 * each change told to the show's room at once.
 */
export const chatTipsRoutes = new Hono<AppEnv>()
  .get('/show/:showId', zValidator('param', z.object({ showId: z.string().regex(/^\d{1,9}$/, 'not_found') }), validationHook), async (c) => {
    const showId = Number(c.req.valid('param').showId);
    if (!(await showById(c.env.DB, showId))) throw new ApiError(404, 'not_found');
    const [menu, goal] = await Promise.all([tipMenu(c.env.DB, showId), currentGoal(c.env.DB, showId, Date.now())]);
    c.header('Cache-Control', 'no-store');
    return c.json<TipsView>({ menu, goal });
  })
  .post(
    '/menu/:sessionId',
    requireUser,
    zValidator('param', sessionIdParam, validationHook),
    zValidator(
      'json',
      z.object({
        item: z.number({ message: 'tip_item_invalid' }).int('tip_item_invalid').min(1, 'tip_item_invalid').max(2 ** 31, 'tip_item_invalid'),
        /** Optional idempotency key: a retried tip with the same key is booked once. */
        key: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'key_invalid').optional(),
      }),
      validationHook,
    ),
    async (c) => {
      const { item, key } = c.req.valid('json');
      const s = await ownSession(c, c.req.valid('param').sessionId, c.var.member.id);
      const action = await tipMenuItem(c.env.DB, s.show_id, item);
      // Not on this show's menu (any more: the performer may have just changed it).
      if (!action) throw new ApiError(422, 'chat.tip_item_gone', { item: ['chat.tip_item_gone'] });
      return c.json(await bookTip(c, s, action.coins, key, { en: action.en, de: action.de }, 'item'));
    },
  )
  .get('/studio', performer, async (c) => {
    const showId = showOf(c.get('user'));
    const [menu, goal] = await Promise.all([tipMenu(c.env.DB, showId), currentGoal(c.env.DB, showId, Date.now())]);
    return c.json<TipsView>({ menu, goal });
  })
  .put('/studio/menu', performer, zValidator('json', menuSchema, validationHook), async (c) => {
    const showId = showOf(c.get('user'));
    await replaceTipMenu(c.env.DB, showId, c.req.valid('json').items);
    const menu = await tipMenu(c.env.DB, showId);
    await roomOf(c.env, showId).tipsChanged({ menu });
    return c.json<TipsView>({ menu, goal: await currentGoal(c.env.DB, showId, Date.now()) });
  })
  .post('/studio/goal', performer, zValidator('json', goalSchema, validationHook), async (c) => {
    const showId = showOf(c.get('user'));
    const { amount, text, minutes } = c.req.valid('json');
    const goal = await startGoal(c.env.DB, showId, { amount, text, minutes: minutes ?? null }, Date.now());
    await roomOf(c.env, showId).tipsChanged({ goal });
    return c.json<TipsView>({ menu: await tipMenu(c.env.DB, showId), goal }, 201);
  })
  .delete('/studio/goal', performer, async (c) => {
    const showId = showOf(c.get('user'));
    if (!(await endGoal(c.env.DB, showId, Date.now()))) throw new ApiError(404, 'not_found');
    await roomOf(c.env, showId).tipsChanged({ goal: null });
    return c.json<TipsView>({ menu: await tipMenu(c.env.DB, showId), goal: null });
  });
