import { zValidator } from '@hono/zod-validator';
import { Hono, type Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { InboxConversation, InboxList, InboxMessages, InboxReplyAnswer } from '../../../shared/inbox';
import { CONVERSATIONS_PAGE_SIZE, MESSAGE_ERRORS, MESSAGES_PAGE_SIZE } from '../../../shared/messages';
import { parsePage } from '../../../shared/pagination';
import type { AppEnv } from '../../env';
import { nowSeconds } from '../../lib/clock';
import { ApiError } from '../../lib/errors';
import { validationHook } from '../../lib/validation';
import { toMessage } from './conversation-mapping';
import { inboxConversation, inboxList, insertReply, markSideRead, setShowBlock, sideMessages, sideUnread, supportMember } from './inbox.repo';
import { pathId, replyBody } from './message-params';
import { pushCounts } from './notify';
import { audit, requireOperator } from '../operator/operator.service';
import { pushToMember } from '../push/push.service';

// The other side of conversations: /api/studio/conversations (the performer of a show answers
// the members who wrote to it, under their pseudonyms) and /api/support/conversations (operators
// answer the support threads). The side is fixed by who is asking: the performer's own show, or
// show 0 for operators; a conversation id of another side answers 404.

type Side = { side: number };

/** The operators' side: support threads have show id 0. */
const SUPPORT_SIDE = 0;

const requirePerformer = createMiddleware<AppEnv & { Variables: Side }>(async (c, next) => {
  const user = c.get('user');
  if (!user) throw new ApiError(401, 'unauthenticated');
  if (user.performer_show == null) throw new ApiError(403, 'not_performer');
  c.set('side', user.performer_show);
  c.header('Cache-Control', 'no-store');
  await next();
});

/** An operator with the second factor in this login (operator.service.ts). */
const operatorDoor = requireOperator<AppEnv & { Variables: Side }>();
const requireSupport = createMiddleware<AppEnv & { Variables: Side }>((c, next) =>
  operatorDoor(c, async () => {
    c.set('side', SUPPORT_SIDE);
    await next();
  }),
);

type Ctx = Context<AppEnv & { Variables: Side }>;

async function own(c: Ctx): Promise<{ conversation: InboxConversation; userId: number }> {
  const id = pathId(c.req.param('id'));
  const found = id === null ? null : await inboxConversation(c.env.DB, c.get('side'), id);
  if (!found) throw new ApiError(404, MESSAGE_ERRORS.notFound);
  return found;
}

function routes(guard: typeof requirePerformer, blocking: boolean) {
  const r = new Hono<AppEnv & { Variables: Side }>()
    .use(guard)
    .get('/', async (c) => {
      const page = parsePage(c.req.query('page'));
      const { rows, total, unread } = await inboxList(c.env.DB, c.get('side'), CONVERSATIONS_PAGE_SIZE, (page - 1) * CONVERSATIONS_PAGE_SIZE);
      return c.json<InboxList>({ data: rows, current_page: page, last_page: Math.max(1, Math.ceil(total / CONVERSATIONS_PAGE_SIZE)), total, unread });
    })
    .get('/:id/messages', async (c) => {
      const { conversation, userId } = await own(c);
      const page = parsePage(c.req.query('page'));
      const { rows, total } = await sideMessages(c.env.DB, conversation.id, MESSAGES_PAGE_SIZE, (page - 1) * MESSAGES_PAGE_SIZE);
      // Support has to find the payment or chat a member writes about; a performer keeps seeing the pseudonym only.
      const member = c.get('side') === SUPPORT_SIDE ? await supportMember(c.env.DB, userId) : null;
      return c.json<InboxMessages>({
        conversation,
        messages: { data: rows.map((m) => toMessage(m, 'side')), current_page: page, last_page: Math.max(1, Math.ceil(total / MESSAGES_PAGE_SIZE)), total },
        ...(member ? { member } : {}),
      });
    })
    .post('/:id/read', async (c) => {
      const side = c.get('side');
      const { conversation } = await own(c);
      await markSideRead(c.env.DB, side, conversation.id);
      c.executionCtx.waitUntil(pushCounts(c.env, null, side));
      return c.json({ unread: await sideUnread(c.env.DB, side) });
    })
    .post('/:id/reply', zValidator('json', replyBody, validationHook), async (c) => {
      const side = c.get('side');
      const { conversation, userId } = await own(c);
      if (conversation.block.memberstatus || conversation.block.showstatus) throw new ApiError(403, MESSAGE_ERRORS.blocked);
      const now = nowSeconds();
      const row = await insertReply(c.env.DB, side, conversation.id, c.get('user')!.id, c.req.valid('json').body, now);
      if (!row) throw new ApiError(404, MESSAGE_ERRORS.notFound);
      if (side === SUPPORT_SIDE) await audit(c, { action: 'support.reply', target: `conversation:${conversation.id}`, detail: { message: row.id } });
      // Answering reads the member's messages on this side.
      await markSideRead(c.env.DB, side, conversation.id);
      // The member's opted-in browsers hear of it too; the text never quotes the message (a lock screen is not private).
      const support = side === SUPPORT_SIDE;
      const notice = { key: support ? 'supportMessage' : 'message', url: support ? '/messages/support' : '/messages', tag: `conversation-${conversation.id}` };
      c.executionCtx.waitUntil(Promise.all([pushCounts(c.env, userId, side), pushToMember(c.env, userId, 'message', notice).catch(() => 0)]));
      const after = await inboxConversation(c.env.DB, side, conversation.id);
      return c.json<InboxReplyAnswer>({ message: toMessage(row, 'side'), conversation: after?.conversation ?? conversation });
    });
  if (!blocking) return r;
  const block = async (c: Ctx, blocked: boolean) => {
    const side = c.get('side');
    const { conversation, userId } = await own(c);
    await setShowBlock(c.env.DB, userId, side, blocked, nowSeconds());
    c.executionCtx.waitUntil(pushCounts(c.env, userId, side));
    const after = await inboxConversation(c.env.DB, side, conversation.id);
    return c.json({ conversation: after?.conversation ?? conversation });
  };
  return r.post('/:id/block', (c) => block(c, true)).post('/:id/unblock', (c) => block(c, false));
}

/** /api/studio/conversations */
export const studioInboxRoutes = routes(requirePerformer, true);
/** /api/support/conversations */
export const supportInboxRoutes = routes(requireSupport, false);
