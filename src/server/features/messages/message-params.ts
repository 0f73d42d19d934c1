import { z } from 'zod';
import {
  CONVERSATION_ORDERS,
  CONVERSATIONS_LIMIT_MAX,
  CONVERSATIONS_NOT_MAX,
  CONVERSATIONS_PAGE_SIZE,
  DEFAULT_CONVERSATION_ORDER,
  MESSAGE_BODY_MAX,
  MESSAGE_ERRORS,
  MESSAGE_TIP_MAX,
  READ_IDS_MAX,
  SHOWNAME_FILTER_MIN,
  type ConversationOrder,
} from '../../../shared/messages';
import { parsePage } from '../../../shared/pagination';

// Inputs of the conversation calls. List queries never refuse (each malformed value falls back to
// its default, spec section 4: "any other value is ignored"); bodies are validated (422).

const FILTER_MAX = 100;

/** A positive id (up to 9 digits), else null. */
export function pathId(value: string | undefined): number | null {
  return value && /^\d{1,9}$/.test(value) && Number(value) >= 1 ? Number(value) : null;
}

const text = (v: string | undefined) => (v ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, FILTER_MAX);

export interface ListQuery {
  page: number;
  order: ConversationOrder;
  unread: boolean;
  showname: string | null;
  pseudoId: number;
  nickname: string | null;
  limit: number;
  not: number[];
}

export function listQuery(q: (key: string) => string | undefined, all: (key: string) => string[] | undefined): ListQuery {
  const order = q('order_by');
  const showname = text(q('showname'));
  const nick = text(q('nickname'));
  const limitRaw = q('limit');
  const limit = limitRaw && /^\d{1,4}$/.test(limitRaw) && Number(limitRaw) >= 1 ? Math.min(CONVERSATIONS_LIMIT_MAX, Number(limitRaw)) : CONVERSATIONS_PAGE_SIZE;
  const not = [...(all('conversations_not') ?? []), ...(all('conversations_not[]') ?? [])]
    .flatMap((v) => v.split(','))
    .map((v) => pathId(v.trim()))
    .filter((v): v is number => v !== null)
    .slice(0, CONVERSATIONS_NOT_MAX);
  return {
    page: parsePage(q('page')),
    order: (CONVERSATION_ORDERS as readonly string[]).includes(order ?? '') ? (order as ConversationOrder) : DEFAULT_CONVERSATION_ORDER,
    unread: q('unread') === '1' || q('unread') === 'true',
    showname: showname.length >= SHOWNAME_FILTER_MIN ? showname : null,
    pseudoId: /^\d{1,9}$/.test(nick) ? Number(nick) : 0,
    nickname: nick.length > 0 && !/^\d+$/.test(nick) ? nick : null,
    limit,
    not,
  };
}

/** A non-negative id in a query (showid, pseudoid), else null. */
export function queryId(value: string | undefined): number | null {
  return value !== undefined && /^\d{1,9}$/.test(value) ? Number(value) : null;
}

const bodyText = z
  .string({ message: MESSAGE_ERRORS.bodyRequired })
  .transform((v) => v.replace(/\u0000/g, '').trim())
  .pipe(z.string().min(1, MESSAGE_ERRORS.bodyRequired).max(MESSAGE_BODY_MAX, MESSAGE_ERRORS.bodyTooLong));

const idValue = (min: number) =>
  z.union([z.number(), z.string().regex(/^\d{1,9}$/, MESSAGE_ERRORS.invalid).transform(Number)], { message: MESSAGE_ERRORS.invalid }).pipe(
    z.number({ message: MESSAGE_ERRORS.invalid }).int(MESSAGE_ERRORS.invalid).min(min, MESSAGE_ERRORS.invalid).max(999_999_999, MESSAGE_ERRORS.invalid),
  );

const flag = z
  .union([z.boolean(), z.literal(0), z.literal(1), z.literal('0'), z.literal('1')], { message: MESSAGE_ERRORS.invalid })
  .transform((v) => v === true || v === 1 || v === '1');

export const supportBody = z.object({ body: bodyText });

export const showBody = z
  .object({
    body: bodyText,
    showid: idValue(1),
    pseudoid: idValue(0),
    coins: z
      .union([z.number(), z.string().regex(/^\d{1,6}$/, MESSAGE_ERRORS.invalid).transform(Number)], { message: MESSAGE_ERRORS.invalid })
      .pipe(z.number().int(MESSAGE_ERRORS.invalid).min(0, MESSAGE_ERRORS.invalid).max(MESSAGE_TIP_MAX, MESSAGE_ERRORS.invalid))
      .optional(),
    tip: flag.optional(),
  })
  .superRefine((v, ctx) => {
    if (v.tip && !v.coins) ctx.addIssue({ code: 'custom', path: ['coins'], message: MESSAGE_ERRORS.invalid });
  });

export const idsBody = z.object({ ids: z.array(idValue(1), { message: MESSAGE_ERRORS.invalid }).min(1, MESSAGE_ERRORS.invalid).max(READ_IDS_MAX, MESSAGE_ERRORS.invalid) });

export const unreadBody = idsBody.extend({ unread: flag });

export const replyBody = z.object({ body: bodyText });
