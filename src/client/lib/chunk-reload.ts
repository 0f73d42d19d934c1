import { CHUNK_RELOAD_MIN_INTERVAL_MS } from '../../shared/constants';

const KEY = 'chunk-reload-at';

/** After a failed chunk load (usually a new deploy), reload the page, at most once a minute. */
export function reloadAfterChunkFailure(now = Date.now()): boolean {
  let last = 0;
  try {
    last = Number(sessionStorage.getItem(KEY) ?? 0);
  } catch {
    // storage may be unavailable (privacy mode); then reload without the record
  }
  if (now - last < CHUNK_RELOAD_MIN_INTERVAL_MS) return false;
  try {
    sessionStorage.setItem(KEY, String(now));
  } catch {
    /* see above */
  }
  location.reload();
  return true;
}
