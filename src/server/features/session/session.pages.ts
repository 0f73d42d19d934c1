import { Hono } from 'hono';
import { safeRedirect } from '../../../shared/safe-redirect';
import type { AppEnv } from '../../env';
import { checkedForm } from '../../middleware/csrf';
import { confirmSplash } from './session.service';
import { sessionWrite } from './session-limits';

/** The age splash's form when the page runs no script: it records the answer and goes back. */
export const sessionPages = new Hono<AppEnv>().post('/splash18', sessionWrite, async (c) => {
  const form = await checkedForm(c);
  await confirmSplash(c);
  // Back to the page the splash covered (the same-origin Referer keeps its query), else the
  // path the form named, else home; never another host.
  const origin = new URL(c.req.url).origin;
  const back = safeRedirect(c.req.header('Referer'), origin, '') || safeRedirect(form.redirect, origin, '/');
  return c.redirect(back, 303);
});
