import type { Browser as PwBrowser } from 'playwright-core';
import { call } from './browser';
import { becomeOperator, newMember } from './members';
import { person } from './rooms-helpers';

// Uploads wait for an operator's review before the store shows them (issue 29 point 2): suites
// that upload in the studio and then look in the store approve the item first, as an operator does.

/** Approves an upload through the operators' API, as a new operator with the second factor. */
export async function approveUpload(browser: PwBrowser, kind: 'video' | 'gallery', id: number): Promise<void> {
  const page = await person(browser, 'en', 'desktop');
  await becomeOperator(page, await newMember(page));
  const res = await call(page, 'POST', `operator/moderation/${kind}/${id}`, { decision: 'approve' });
  if (res.status !== 200) throw new Error(`approval failed: ${res.status} ${JSON.stringify(res.body)}`);
  await page.context().close();
}
