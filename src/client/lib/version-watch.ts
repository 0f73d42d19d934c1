import { subscribe } from 'valtio';
import { UPDATE_NOTICE_DELAY_MS, UPDATE_NOTICE_POSTPONE_MS, VERSION_POLL_MS } from '../../shared/constants';
import { buildsDiffer, isSemver } from '../../shared/semver';
import type { RootState } from '../state/store';

/**
 * Polls /version every 30 s into store.serverBuild (the API layer also updates it from headers).
 * When it differs from the bundle's build the notice opens 10 s later; after a dismissal it
 * opens again 5 minutes later. Returns a stop function.
 */
export function startVersionWatch(store: RootState): () => void {
  let noticeTimer: ReturnType<typeof setTimeout> | null = null;
  let wasOpen = false;

  const schedule = (delay: number) => {
    if (noticeTimer) return;
    noticeTimer = setTimeout(() => {
      noticeTimer = null;
      if (buildsDiffer(store.clientBuild, store.serverBuild)) store.ui.updateNotice = true;
    }, delay);
  };

  const check = () => {
    if (store.ui.updateNotice) {
      wasOpen = true;
      return;
    }
    if (wasOpen) {
      // It was open and is closed now: the member dismissed it.
      wasOpen = false;
      schedule(UPDATE_NOTICE_POSTPONE_MS);
      return;
    }
    if (buildsDiffer(store.clientBuild, store.serverBuild)) schedule(UPDATE_NOTICE_DELAY_MS);
  };

  const poll = setInterval(async () => {
    try {
      const res = await fetch('/version', { cache: 'no-store' });
      const text = (await res.text()).trim();
      if (res.ok && isSemver(text)) store.serverBuild = text;
    } catch {
      // offline: try again on the next tick
    }
  }, VERSION_POLL_MS);

  const unsubscribe = subscribe(store, check);
  check();
  return () => {
    clearInterval(poll);
    unsubscribe();
    if (noticeTimer) clearTimeout(noticeTimer);
  };
}
