import { ERROR_LOG_MAX, ERROR_LOG_SEND_DELAY_MS } from '../../shared/constants';
import type { ErrorLogEntry, RootState } from '../state/store';
import type { ApiClient } from './api';

let timer: ReturnType<typeof setTimeout> | null = null;
let prevRoute: string | null = null;

/** Stores an error (at most 10 kept) and sends the batch to /api/log 5 s after the last one. */
export function logClientError(store: RootState, api: ApiClient, message: string, objects: unknown[] = [], level: ErrorLogEntry['level'] = 1): void {
  store.errorLog.push({
    created: Date.now(),
    message: message.slice(0, 2000),
    level,
    userAgent: navigator.userAgent,
    prevRoute,
    currentRoute: location.pathname + location.search,
    objects: objects.map((o) => (o instanceof Error ? { name: o.name, stack: o.stack?.slice(0, 4000) } : o)),
  });
  if (store.errorLog.length > ERROR_LOG_MAX) store.errorLog.splice(0, store.errorLog.length - ERROR_LOG_MAX);
  if (timer) clearTimeout(timer);
  timer = setTimeout(() => {
    timer = null;
    const entries = store.errorLog.splice(0);
    if (entries.length) api.post('log', { entries }).catch(() => undefined);
  }, ERROR_LOG_SEND_DELAY_MS);
}

export function installErrorLog(store: RootState, api: ApiClient): void {
  prevRoute = document.referrer ? new URL(document.referrer, location.href).pathname : null;
  window.addEventListener('error', (e) => logClientError(store, api, e.message || 'error', [e.error]));
  window.addEventListener('unhandledrejection', (e) =>
    logClientError(store, api, e.reason instanceof Error ? e.reason.message : String(e.reason), [e.reason]),
  );
}
