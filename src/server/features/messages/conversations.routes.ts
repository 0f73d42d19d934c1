import { zValidator } from '@hono/zod-validator';
import { Hono, type Context } from 'hono';
import {
  MESSAGE_ERRORS,
  MESSAGES_PAGE_SIZE,
  READ_ALL_BATCH,
  SUPPORT_ID,
  type ConversationAnswers as A,
  type Message,
} from '../../../shared/messages';
import type { AppEnv } from '../../env';
import { nowSeconds } from '../../lib/clock';
import { ApiError } from '../../lib/errors';
import { validationHook } from '../../lib/validation';
import { requireUser } from '../session/session.service';
import { draftConversation, toConversation, toMessage } from './conversation-mapping';
import {
  blockOf,
  conversationById,
  conversationByKey,
  listConversations,
  memberCounts,
  memberMessage,
  memberMessages,
  showBrief,
  type ShowBrief,
} from './conversations.repo';
import { deleteMemberMessage, hideConversation, readAllBatch, setMemberBlock, setMemberRead } from './member-marks.repo';
import { idsBody, listQuery, pathId, queryId, showBody, supportBody, unreadBody } from './message-params';
import { pushCounts } from './notify';
import { resolvePseudo, sendMemberMessage } from './sending';

const notFound = () => new ApiError(404, MESSAGE_ERRORS.notFound);
const paged = <T>(data: T[], page: number, limit: number, total: number) => ({ data, current_page: page, last_page: Math.max(1, Math.ceil(total / limit)), total });

/** Pushes the new counts after the answer (within the request's lifetime). */
function later(c: Context<AppEnv>, userId: number | null, showId: number | null): void {
  c.executionCtx.waitUntil(pushCounts(c.env, userId, showId));
}

/** The member changed their messages: their other tabs learn the counts later, this answer has them now. */
async function countsAfterChange(c: Context<AppEnv>, userId: number) {
  later(c, userId, null);
  return c.json<A['count']>(await memberCounts(c.env.DB, userId));
}

async function existingShow(db: D1Database, showId: number | null): Promise<ShowBrief> {
  const show = showId === null || showId < 1 ? null : await showBrief(db, showId);
  if (!show) throw notFound();
  return show;
}

/** The conversation of GET {id}/messages: by id, `support`, or (id 0) by showid and pseudoid. */
async function threadOf(c: Context<AppEnv>, userId: number): Promise<A['conversation']> {
  const db = c.env.DB;
  const raw = c.req.param('id');
  if (raw === SUPPORT_ID) {
    const row = await conversationByKey(db, userId, 0, 0);
    return row ? toConversation(row) : draftConversation(null, 0, '', { by_member: 0, by_show: 0 });
  }
  if (raw === '0') {
    const showId = queryId(c.req.query('showid'));
    const pseudoId = queryId(c.req.query('pseudoid'));
    if (showId === null || pseudoId === null) throw new ApiError(422, 'validation_failed', { ...(showId === null ? { showid: [MESSAGE_ERRORS.invalid] } : {}), ...(pseudoId === null ? { pseudoid: [MESSAGE_ERRORS.invalid] } : {}) });
    return conversationFor(db, userId, showId, pseudoId);
  }
  const id = pathId(raw);
  const row = id === null ? null : await conversationById(db, userId, id);
  if (!row) throw notFound();
  return toConversation(row);
}

async function conversationFor(db: D1Database, userId: number, showId: number, pseudoId: number): Promise<A['conversation']> {
  const show = await existingShow(db, showId);
  const row = await conversationByKey(db, userId, show.id, pseudoId);
  if (row) return toConversation(row);
  const pseudo = pseudoId === 0 ? '' : await resolvePseudo(db, userId, pseudoId);
  return draftConversation(show, pseudoId, pseudo, await blockOf(db, userId, show.id));
}

async function block(c: Context<AppEnv>, blocked: boolean) {
  const userId = c.var.member.id;
  const show = await existingShow(c.env.DB, pathId(c.req.param('showid')));
  await setMemberBlock(c.env.DB, userId, show.id, blocked, nowSeconds());
  later(c, userId, show.id);
  const b = await blockOf(c.env.DB, userId, show.id);
  return c.json<A['block']>({ showid: show.id, block: { memberstatus: b.by_member ? 1 : 0, showstatus: b.by_show ? 1 : 0 }, counts: await memberCounts(c.env.DB, userId) });
}

/** /api/conversations: the member's own conversations only. */
export const conversationsRoutes = new Hono<AppEnv>()
  .use(requireUser, async (c, next) => {
    c.header('Cache-Control', 'no-store');
    await next();
  })
  .get('/', async (c) => {
    const q = listQuery(
      (k) => c.req.query(k),
      (k) => c.req.queries(k),
    );
    const { rows, total } = await listConversations(c.env.DB, {
      userId: c.var.member.id,
      unread: q.unread,
      showname: q.showname,
      pseudoId: q.pseudoId,
      nickname: q.nickname,
      not: q.not,
      order: q.order,
      limit: q.limit,
      offset: (q.page - 1) * q.limit,
    });
    return c.json<A['list']>(paged(rows.map(toConversation), q.page, q.limit, total));
  })
  .get('/count', async (c) => c.json<A['count']>(await memberCounts(c.env.DB, c.var.member.id)))
  .get('/conversation', async (c) => {
    const showId = queryId(c.req.query('showid'));
    const pseudoId = queryId(c.req.query('pseudoid'));
    if (showId === null || pseudoId === null) {
      throw new ApiError(422, 'validation_failed', { ...(showId === null ? { showid: [MESSAGE_ERRORS.invalid] } : {}), ...(pseudoId === null ? { pseudoid: [MESSAGE_ERRORS.invalid] } : {}) });
    }
    return c.json<A['conversation']>(await conversationFor(c.env.DB, c.var.member.id, showId, pseudoId));
  })
  .get('/message/:messageid', async (c) => {
    const id = pathId(c.req.param('messageid'));
    const row = id === null ? null : await memberMessage(c.env.DB, c.var.member.id, id);
    if (!row) throw notFound();
    return c.json<Message>(toMessage(row, 'member'));
  })
  .delete('/message/:messageid', async (c) => {
    const userId = c.var.member.id;
    const id = pathId(c.req.param('messageid'));
    if (id === null || !(await deleteMemberMessage(c.env.DB, userId, id))) throw notFound();
    return countsAfterChange(c, userId);
  })
  .post('/read', zValidator('json', idsBody, validationHook), async (c) => {
    const userId = c.var.member.id;
    await setMemberRead(c.env.DB, userId, c.req.valid('json').ids, true);
    return countsAfterChange(c, userId);
  })
  .post('/read_all', async (c) => {
    const userId = c.var.member.id;
    await readAllBatch(c.env.DB, userId, READ_ALL_BATCH);
    return countsAfterChange(c, userId);
  })
  .post('/unread', zValidator('json', unreadBody, validationHook), async (c) => {
    const userId = c.var.member.id;
    const { ids, unread } = c.req.valid('json');
    await setMemberRead(c.env.DB, userId, ids, !unread);
    return countsAfterChange(c, userId);
  })
  .post('/block/:showid', (c) => block(c, true))
  .post('/unblock/:showid', (c) => block(c, false))
  .post('/support', zValidator('json', supportBody, validationHook), async (c) => {
    const answer = await sendMemberMessage(c, { showId: 0, pseudoId: 0, body: c.req.valid('json').body, tip: 0 });
    return c.json<A['support']>(answer);
  })
  .post('/show', zValidator('json', showBody, validationHook), async (c) => {
    const b = c.req.valid('json');
    const answer = await sendMemberMessage(c, { showId: b.showid, pseudoId: b.pseudoid, body: b.body, tip: b.tip ? (b.coins ?? 0) : 0 });
    return c.json<A['show']>(answer);
  })
  .get('/:id/messages', async (c) => {
    const userId = c.var.member.id;
    const conversation = await threadOf(c, userId);
    const page = queryId(c.req.query('page')) || 1;
    const safePage = Math.min(page, 100_000);
    const { rows, total } = conversation.id === 0 ? { rows: [], total: 0 } : await memberMessages(c.env.DB, conversation.id, MESSAGES_PAGE_SIZE, (safePage - 1) * MESSAGES_PAGE_SIZE);
    return c.json<A['messages']>({
      conversation,
      messages: paged(
        rows.map((r) => toMessage(r, 'member')),
        safePage,
        MESSAGES_PAGE_SIZE,
        total,
      ),
    });
  })
  .delete('/:id', async (c) => {
    const userId = c.var.member.id;
    const id = pathId(c.req.param('id'));
    if (id === null || !(await hideConversation(c.env.DB, userId, id))) throw notFound();
    return countsAfterChange(c, userId);
  });
