import type { RootState } from '../state/store';

const SHOW_AFTER_MS = 400;

/**
 * Shows the logo overlay when a same-site page navigation takes longer than 400 ms;
 * cleared when the page is shown again (back/forward cache).
 */
export function installLoadingOverlay(store: RootState): void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  document.addEventListener('click', (e) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const a = (e.target as Element | null)?.closest?.('a[href]') as HTMLAnchorElement | null;
    if (!a || a.target || a.hasAttribute('download') || a.origin !== location.origin) return;
    if (a.pathname === location.pathname && a.search === location.search) return; // hash links
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => (store.ui.loading = true), SHOW_AFTER_MS);
  });
  window.addEventListener('pageshow', () => {
    if (timer) clearTimeout(timer);
    store.ui.loading = false;
  });
}
