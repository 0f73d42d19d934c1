import { FINGERPRINT_MAX_TRIES } from '../../../shared/constants';
import type { Session } from '../../../shared/session';
import { api } from '../../lib/api';
import type { RootState } from '../../state/store';

// The visitor id: a hash over stable browser traits,
// computed on the first click (not during page load) and sent with POST session/vid. Silent.

type Trait = string | null;

function canvasTrait(): Trait {
  try {
    const canvas = document.createElement('canvas');
    canvas.width = 240;
    canvas.height = 60;
    const ctx = canvas.getContext('2d');
    if (!ctx) return null;
    ctx.textBaseline = 'top';
    ctx.font = '16px Arial';
    ctx.fillStyle = '#f60';
    ctx.fillRect(100, 1, 62, 20);
    ctx.fillStyle = '#069';
    ctx.fillText('LiveCam fp 18+ \u{1F3A5}', 2, 15);
    ctx.fillStyle = 'rgba(102, 204, 0, 0.7)';
    ctx.fillText('LiveCam fp 18+ \u{1F3A5}', 4, 17);
    return canvas.toDataURL();
  } catch {
    return null;
  }
}

/** The traits in a fixed order; null where the browser does not tell. */
export function collectTraits(): Trait[] {
  const nav = typeof navigator === 'undefined' ? null : navigator;
  const scr = typeof screen === 'undefined' ? null : screen;
  let tz: Trait = null;
  try {
    tz = Intl.DateTimeFormat().resolvedOptions().timeZone || null;
  } catch {
    tz = null;
  }
  return [
    nav?.userAgent || null,
    nav?.language || null,
    nav?.languages?.join(',') || null,
    scr ? `${scr.width}x${scr.height}x${scr.colorDepth}` : null,
    tz,
    nav?.hardwareConcurrency ? String(nav.hardwareConcurrency) : null,
    nav ? String(nav.maxTouchPoints ?? 0) : null,
    canvasTrait(),
  ];
}

/** 0.5 with no trait known, up to 0.9 with all of them. */
export function confidenceOf(traits: Trait[]): number {
  const known = traits.filter((x) => x !== null).length;
  return Math.round((0.5 + (0.4 * known) / traits.length) * 100) / 100;
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export async function computeVisitorId(): Promise<{ vid: string; confidence: number }> {
  const traits = collectTraits();
  return { vid: await sha256Hex(JSON.stringify(traits)), confidence: confidenceOf(traits) };
}

/**
 * Listens for clicks until the id is stored: a failed try is repeated on a later click, at most
 * FINGERPRINT_MAX_TRIES times, then store.ui.fingerprintFailed is set. runNow: the first try at
 * once (the click that loaded this module). Returns the uninstaller.
 */
export function installFingerprint(store: RootState, { runNow = false } = {}): () => void {
  let tries = 0;
  let busy = false;
  const stop = () => document.removeEventListener('click', onClick, true);
  async function onClick() {
    if (busy) return;
    if (store.session.visitor_id) return stop();
    busy = true;
    tries++;
    try {
      const { vid, confidence } = await computeVisitorId();
      const res = await api().post<{ session: Session }>('session/vid', { vid, confidence });
      store.session = res.session;
      stop();
    } catch {
      if (tries >= FINGERPRINT_MAX_TRIES) {
        store.ui.fingerprintFailed = true;
        stop();
      }
    } finally {
      busy = false;
    }
  }
  if (store.session.visitor_id || store.ui.fingerprintFailed) return () => undefined;
  document.addEventListener('click', onClick, true);
  if (runNow) void onClick();
  return stop;
}
