// The installable web app's service worker (public/sw.js): registered once the page has loaded,
// so it never competes with the page's own first requests. Registering asks the member nothing;
// the push permission is asked only from the profile's "turn on notifications".

export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
  const register = () => void navigator.serviceWorker.register('/sw.js').catch(() => undefined);
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
