// The service worker of the installable web app (issue 30 point 5).
// It keeps nothing of a member: pages and /api answers always come from the network, never from a
// cache, so after a logout (or on a shared device) nothing personal can be served again. Only the
// static shell below is cached, for the offline page a failed navigation shows. It also shows the
// push notifications the member opted in to and opens their link.

const SHELL_CACHE = 'livecam-shell-v1';
// /offline serves public/offline.html (the assets' html_handling drops the extension).
const OFFLINE_URL = '/offline';
const SHELL = [OFFLINE_URL, '/static/offline.css', '/static/icons/icon-192.png', '/favicon.svg', '/manifest.webmanifest'];
const ICON = '/static/icons/icon-192.png';

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(SHELL_CACHE)
      .then((cache) => cache.addAll(SHELL.map((url) => new Request(url, { cache: 'reload' }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  // Older shells go; this worker takes the open pages over at once.
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== SHELL_CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === 'navigate') {
    // Network only; without a network the offline page (never a stored copy of a page).
    event.respondWith(fetch(request).catch(() => caches.match(OFFLINE_URL)));
    return;
  }
  if (SHELL.includes(url.pathname) && !url.search) {
    // The shell's own files: the network first, the cached copy offline.
    event.respondWith(fetch(request).catch(() => caches.match(url.pathname).then((hit) => hit || Response.error())));
  }
  // Everything else (/api, media, built assets) is not handled here: the browser fetches it as without a worker.
});

/** A path of this site only: a push can never open another site. */
function samePath(raw) {
  try {
    const url = new URL(typeof raw === 'string' ? raw : '/', self.location.origin);
    return url.origin === self.location.origin ? url.pathname + url.search : '/';
  } catch {
    return '/';
  }
}

self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = {};
  }
  const title = typeof data.title === 'string' && data.title ? data.title : 'LiveCam';
  const options = {
    body: typeof data.body === 'string' ? data.body : '',
    icon: ICON,
    badge: ICON,
    tag: typeof data.tag === 'string' ? data.tag : undefined,
    data: { url: samePath(data.url) },
  };
  event.waitUntil(self.registration.showNotification(title, options));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const path = samePath(event.notification.data && event.notification.data.url);
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      for (const client of windows) {
        if (new URL(client.url).pathname === path && 'focus' in client) return client.focus();
      }
      return self.clients.openWindow(path);
    }),
  );
});

/** An ArrayBuffer as base64url without padding (how subscriptions' keys travel). */
function base64url(buffer) {
  let bin = '';
  for (const byte of new Uint8Array(buffer)) bin += String.fromCharCode(byte);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

// The browser replaced the subscription (its push service rotated it, or it expired): subscribe
// again with the same key if the browser has not, and tell the site, the old subscription's auth
// secret standing for the member (no page, so no login token here). Without the old one (some
// browsers give none) the member turns notices on again in the settings, which show them off.
self.addEventListener('pushsubscriptionchange', (event) => {
  const old = event.oldSubscription;
  if (!old || !old.getKey('auth')) return;
  event.waitUntil(
    (event.newSubscription ? Promise.resolve(event.newSubscription) : self.registration.pushManager.subscribe(old.options)).then((next) =>
      fetch('/api/push/renew', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          old_endpoint: old.endpoint,
          old_auth: base64url(old.getKey('auth')),
          endpoint: next.endpoint,
          keys: { p256dh: base64url(next.getKey('p256dh')), auth: base64url(next.getKey('auth')) },
        }),
      }),
    ),
  );
});
