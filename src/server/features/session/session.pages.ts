import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { CONSENT_ANSWERS } from '../../../shared/constants';
import { safeRedirect } from '../../../shared/safe-redirect';
import type { AppEnv } from '../../env';
import { checkedForm } from '../../middleware/csrf';
import { ApiError } from '../../lib/errors';
import { fieldErrors } from '../../lib/validation';
import { confirmSplash, recordConsent } from './session.service';
import { sessionWrite } from './session-limits';

const consentFormSchema = z.object({ answer: z.enum(CONSENT_ANSWERS) });

/**
 * Back to the page the form sat on (the same-origin Referer keeps its query), else the path the
 * form named, else home; never another host.
 */
function back(c: Context<AppEnv>, named: string | undefined): string {
  const origin = new URL(c.req.url).origin;
  return safeRedirect(c.req.header('Referer'), origin, '') || safeRedirect(named, origin, '/');
}

/** The forms of the age splash and the consent banner when the page runs no script: each records the answer and goes back. */
export const sessionPages = new Hono<AppEnv>()
  .post('/splash18', sessionWrite, async (c) => {
    const form = await checkedForm(c);
    await confirmSplash(c);
    return c.redirect(back(c, form.redirect), 303);
  })
  .post('/consent', sessionWrite, async (c) => {
    const form = await checkedForm(c);
    const parsed = consentFormSchema.safeParse({ answer: form.answer });
    // A missing or unknown answer: 422 with the field, and no cookie.
    if (!parsed.success) throw new ApiError(422, 'validation_failed', fieldErrors(parsed.error));
    recordConsent(c, parsed.data.answer);
    return c.redirect(back(c, form.redirect), 303);
  });
