import { POPUP_WINDOW } from '../../../shared/constants';
import { safeRedirect } from '../../../shared/safe-redirect';

// The payment window: the opener opens a named, centred popup
// on /billing/transfer; the popup ends on /billing/back (or the sandbox phone line) and talks to
// the opener with window messages of the same origin.

export const BILLING_POPUP_NAME = 'billing_popup';
/** Emitted on window after a successful payment (detail: { billingId }). */
export const BILLING_SUCCESS_EVENT = 'billing:success';

export type BillingResult = 'billing.success' | 'billing.cancel' | 'billing.error';
export const BILLING_RESULTS: readonly BillingResult[] = ['billing.success', 'billing.cancel', 'billing.error'];

/** What the popup posts to its opener. */
export type BillingMessage =
  | { kind: 'result'; result: BillingResult; billingId: number | null; errors: string[]; isPhoneCall: boolean }
  | { kind: 'initVoicecall'; billingId: number | null }
  | { kind: 'fetchUser' };

let popup: Window | null = null;

/** Window features of a 870 x 700 popup centred over the current window. */
export function popupFeatures(win: Pick<Window, 'screenX' | 'screenY' | 'outerWidth' | 'outerHeight'> = window): string {
  const { width, height } = POPUP_WINDOW;
  const left = Math.max(0, Math.round(win.screenX + (win.outerWidth - width) / 2));
  const top = Math.max(0, Math.round(win.screenY + (win.outerHeight - height) / 2));
  return `popup=yes,width=${width},height=${height},left=${left},top=${top},resizable=yes,scrollbars=yes`;
}

/** Opens (or reuses) the payment window; null when the browser blocked it. */
export function openBillingPopup(url: string): Window | null {
  let win: Window | null = null;
  try {
    win = window.open(url, BILLING_POPUP_NAME, popupFeatures());
  } catch {
    win = null;
  }
  if (!win || win.closed) return null;
  popup = win;
  try {
    win.focus();
  } catch {
    // focusing is a courtesy
  }
  return win;
}

/** The payment window this page opened, if it is still open. */
export function currentPopup(): Window | null {
  return popup && !popup.closed ? popup : null;
}

/** True once this page opened a payment window (so a closed one means the user closed it). */
export function popupWasOpened(): boolean {
  return popup !== null;
}

/** Closes the payment window (after `delayMs`); `other` is a window that posted a message. */
export function closeBillingPopup(delayMs = 0, other?: Window | null): void {
  const targets = [popup, other].filter((w, i, all): w is Window => !!w && all.indexOf(w) === i);
  const close = () => {
    for (const w of targets) {
      try {
        if (!w.closed) w.close();
      } catch {
        // a window we may not close
      }
    }
    if (popup && targets.includes(popup)) popup = null;
  };
  if (delayMs > 0) setTimeout(close, delayMs);
  else close();
}

/** True inside the payment window itself (it must not run the opener's handlers). */
export function isBillingPopupWindow(): boolean {
  return typeof window !== 'undefined' && window.name === BILLING_POPUP_NAME;
}

export interface TransferParams {
  paymentTypeId: number;
  productId: number;
  paymentTypeName: string;
  code?: string | null;
}

export function transferUrl(p: TransferParams): string {
  const q = new URLSearchParams({
    paymenttypeid: String(p.paymentTypeId),
    productid: String(p.productId),
    paymenttypename: p.paymentTypeName,
  });
  if (p.code) q.set('code', p.code);
  return `/billing/transfer?${q.toString()}`;
}

function toId(v: unknown): number | null {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : null;
}

/** Reads a window message of the payment flow; anything else gives null. */
export function parseBillingMessage(data: unknown): BillingMessage | null {
  if (data === 'initVoicecall') return { kind: 'initVoicecall', billingId: null };
  if (data === 'fetchUser') return { kind: 'fetchUser' };
  if (!data || typeof data !== 'object') return null;
  const d = data as Record<string, unknown>;
  const type = d.type ?? d.action;
  if (type === 'initVoicecall') return { kind: 'initVoicecall', billingId: toId(d.billingid) };
  if (type === 'fetchUser') return { kind: 'fetchUser' };
  if (typeof d.result === 'string' && (BILLING_RESULTS as readonly string[]).includes(d.result)) {
    const errors = Array.isArray(d.errors) ? d.errors.filter((e): e is string => typeof e === 'string').slice(0, 10) : [];
    return { kind: 'result', result: d.result as BillingResult, billingId: toId(d.billingid), errors, isPhoneCall: d.isPhoneCall === true };
  }
  return null;
}

/** Posts to the opener (same origin only); false without one. */
export function postToOpener(message: unknown): boolean {
  const opener = window.opener as Window | null;
  if (!opener || opener.closed) return false;
  try {
    opener.postMessage(message, location.origin);
    return true;
  } catch {
    return false;
  }
}

/** The process id as support sees it. */
export const processId = (id: number | null | undefined): string => (id ? `BS${id}` : '');

// The billing pages go back to where the member came from when a voice call starts.
const PREV_KEY = 'billing:prev';
const BILLING_PATH = /^\/(billing|bill)(\/|$)/;

export const isBillingPath = (path: string): boolean => BILLING_PATH.test(path);

/** Remembers the page before the billing page (from the referrer, same origin only). */
export function rememberPreviousRoute(): void {
  try {
    const ref = document.referrer ? new URL(document.referrer) : null;
    if (ref && ref.origin === location.origin && !isBillingPath(ref.pathname)) sessionStorage.setItem(PREV_KEY, ref.pathname + ref.search);
    else if (!ref) sessionStorage.removeItem(PREV_KEY);
  } catch {
    // storage may be unavailable
  }
}

/** The remembered previous route, or home. */
export function previousRoute(): string {
  try {
    const prev = sessionStorage.getItem(PREV_KEY);
    const target = safeRedirect(prev, location.origin, '');
    if (target && !isBillingPath(target)) return target;
  } catch {
    // storage may be unavailable
  }
  return '/';
}
