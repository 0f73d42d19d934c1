import type { Context } from 'hono';
import type { LiveShow } from '../../../shared/moderation';
import type { AppEnv } from '../../env';
import { roomViewers } from '../chat/chat.service';
import { liveShowRows } from './live.repo';

/** The shows online now with the viewers their rooms hold (a room that does not answer counts 0). */
export async function liveShows(c: Context<AppEnv>): Promise<LiveShow[]> {
  const rows = await liveShowRows(c.env.DB);
  const viewers = await Promise.all(rows.map((r) => roomViewers(c.env, r.id).catch(() => 0)));
  return rows.map((r, i) => ({ ...r, viewers: viewers[i] }));
}
