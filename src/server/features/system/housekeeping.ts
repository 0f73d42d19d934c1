import type { Bindings } from '../../env';
import { nowSeconds } from '../../lib/clock';
import { deleteDueDocuments } from '../applications/applications.service';

/** Pages of due documents one run deletes at most (50 applications a page: a few subrequests each). */
const MAX_PAGES = 20;

/**
 * The worker's cron (wrangler.toml [triggers], daily): applicants' ID documents and selfies whose
 * retention has passed (rejected or sent back, DOCUMENT_RETENTION_SECONDS after the decision) are
 * deleted from the private bucket, whether or not an operator decides anything that day.
 */
export async function housekeeping(env: Bindings, now = nowSeconds()): Promise<{ documentsDeleted: number }> {
  let documentsDeleted = 0;
  for (let page = 0; page < MAX_PAGES; page++) {
    const n = await deleteDueDocuments(env, now);
    documentsDeleted += n;
    if (n === 0) break;
  }
  return { documentsDeleted };
}
