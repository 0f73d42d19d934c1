import { zValidator } from '@hono/zod-validator';
import { Hono, type Context } from 'hono';
import { reportSchema, REPORTS_PER_HOUR } from '../../../shared/reports';
import type { AppEnv } from '../../env';
import { bodyCap, mailReservations, perAddress, reserveOrThrow } from '../../lib/limits';
import { reserve } from '../../lib/throttle.repo';
import { validationHook } from '../../lib/validation';
import { clientIp } from '../session/session.service';
import { acknowledge, fileReport, type Reporter } from './reports.service';

const HOUR = 3600;
/** A report of up to 2,000 characters in any script, and a few short fields. */
const REPORT_BODY_MAX = 16 * 1024;
/** Reports from one client address per hour (visitors can start new sessions). */
const REPORTS_PER_ADDRESS = 30;

function reporter(c: Context<AppEnv>, email: string | undefined): Reporter {
  const user = c.get('user');
  const locale = c.get('locale');
  if (user) return { userId: user.id, key: `u:${user.id}`, name: user.name, email: user.email, locale };
  const session = c.get('sessionId') ?? c.get('cookieSessionId');
  return { userId: null, key: session ? `s:${session}` : `ip:${clientIp(c)}`, name: null, email: email ?? null, locale };
}

/**
 * /api/reports: a member or a visitor reports a show, a chat line, a message, a video or a
 * picture (issue 29 point 3). Bad input is refused before any counter moves; then at most
 * REPORTS_PER_HOUR per reporter (and a cap per address) are reserved atomically, and handed back
 * when the target is unknown or already reported by them.
 */
export const reportsRoutes = new Hono<AppEnv>().post('/', bodyCap(REPORT_BODY_MAX), zValidator('json', reportSchema, validationHook), async (c) => {
  c.header('Cache-Control', 'no-store');
  const input = c.req.valid('json');
  const who = reporter(c, input.email);
  const refund = await reserveOrThrow(c, [
    { key: `report:${who.key}`, limit: REPORTS_PER_HOUR, windowSeconds: HOUR },
    { key: `report:ip:${clientIp(c)}`, limit: perAddress(c.env, REPORTS_PER_ADDRESS), windowSeconds: HOUR },
  ]);
  let id: number;
  try {
    id = await fileReport(c.env, input, who);
  } catch (e) {
    await refund();
    throw e;
  }
  // The acknowledgement goes out within the mail caps (a visitor's address is anyone's); the answer says "received" either way.
  // The report is stored: a mail that cannot go out now does not turn its answer into an error.
  if (who.email && (await reserve(c.env.DB, mailReservations(c, who.email))).ok) {
    await acknowledge(c.env, id, input, who).catch((e: unknown) => console.error('reports: acknowledgement not sent', (e as Error).message));
  }
  return c.json({ report: { id, state: 'open' }, message: 'received' }, 201);
});
