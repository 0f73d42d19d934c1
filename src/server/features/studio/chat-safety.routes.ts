import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { ApiError } from '../../lib/errors';
import { cleanWordList } from '../../../shared/chat-safety';
import { appointModerator, chatSafetySettings, dismissModerator, saveBlockedWords } from '../chat/chat-safety.service';
import { requirePerformer } from './studio.routes';

// /api/studio/chat-safety (issue 30 point 4): the performer's word list and moderators. GET answers
// both and the show's regulars (who may be appointed); PUT /words replaces the list; POST
// /moderators {userId} appoints a regular (422 not_regular; 409 too_many beyond the cap); DELETE
// /moderators/{userId} dismisses. The live room enforces all of it (room/safety.ts).

const showOf = (u: { performer_show: number | null } | null): number => u?.performer_show ?? 0;

async function jsonBody(c: { req: { json: () => Promise<unknown> } }): Promise<Record<string, unknown>> {
  const body = await c.req.json().catch(() => null);
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ApiError(422, 'validation_failed', { _: ['object_required'] });
  return body as Record<string, unknown>;
}

function userIdOf(raw: unknown, field: string): number {
  const n = typeof raw === 'string' && /^\d{1,15}$/.test(raw) ? Number(raw) : raw;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1) throw new ApiError(422, 'validation_failed', { [field]: ['invalid'] });
  return n;
}

export const chatSafetyRoutes = new Hono<AppEnv>()
  .use(requirePerformer)
  .get('/', async (c) => c.json(await chatSafetySettings(c.env.DB, showOf(c.get('user')))))
  .put('/words', async (c) => {
    const body = await jsonBody(c);
    const extra = Object.keys(body).filter((k) => k !== 'words');
    if (extra.length) throw new ApiError(422, 'validation_failed', Object.fromEntries(extra.map((k) => [k, ['not_allowed']])));
    const list = cleanWordList(body.words);
    if ('error' in list) throw new ApiError(422, 'validation_failed', { words: [list.error] });
    await saveBlockedWords(c.env, showOf(c.get('user')), list.words);
    return c.json(await chatSafetySettings(c.env.DB, showOf(c.get('user'))));
  })
  .post('/moderators', async (c) => {
    const body = await jsonBody(c);
    const show = showOf(c.get('user'));
    const res = await appointModerator(c.env, show, userIdOf(body.userId, 'userId'));
    if (res === 'not_regular') throw new ApiError(422, 'validation_failed', { userId: ['not_regular'] });
    if (res === 'too_many') throw new ApiError(409, 'too_many_moderators');
    return c.json(await chatSafetySettings(c.env.DB, show), res === 'added' ? 201 : 200);
  })
  .delete('/moderators/:userId', async (c) => {
    const show = showOf(c.get('user'));
    const removed = await dismissModerator(c.env, show, userIdOf(c.req.param('userId'), 'userId'));
    if (!removed) throw new ApiError(404, 'not_found');
    return c.json(await chatSafetySettings(c.env.DB, show));
  });
