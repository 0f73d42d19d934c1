import { useEffect, useRef, type RefObject } from 'react';

// The modal behaviour every dialog and the drawer share: the page behind is inert (no focus, no
// clicks, hidden from assistive technology), it does not scroll, Tab and Shift+Tab cycle inside
// the dialog, Escape does what the dialog says (nothing when it gives no handler), and the focus
// goes back where it was when the dialog closes.

const FOCUSABLE = [
  'a[href]',
  'area[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type=hidden])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  'iframe',
  'audio[controls]',
  'video[controls]',
  'summary',
  '[contenteditable=""]',
  '[contenteditable=true]',
  '[tabindex]',
].join(',');

/** Set on elements the server rendered inert behind a modal it rendered open (the age splash). */
export const SSR_INERT_ATTR = 'data-modal-inert';

interface Layer {
  trap: () => HTMLElement | null;
  escape: () => void;
}

const layers: Layer[] = [];
/** How many open modals made an element inert: it stays inert until the last one closes. */
const inertBy = new Map<Element, number>();

/** The elements Tab may reach inside `root`, in document order. */
export function tabbables(root: HTMLElement): HTMLElement[] {
  const all = [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (el) => el.tabIndex >= 0 && !el.closest('[inert],[hidden]') && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden',
  );
  // A radio group is one stop, as in the browser's own order: its checked radio, else its first.
  const radios = (el: HTMLElement) => all.filter((o) => o instanceof HTMLInputElement && o.type === 'radio' && o.name === (el as HTMLInputElement).name);
  return all.filter((el) => {
    if (!(el instanceof HTMLInputElement) || el.type !== 'radio' || !el.name) return true;
    const group = radios(el);
    return el.checked || (!group.some((o) => (o as HTMLInputElement).checked) && group[0] === el);
  });
}

/** Makes everything outside `root` inert (siblings of root and of each of its ancestors), but `keep`. */
function inertOutside(root: HTMLElement, keep: (HTMLElement | null)[]): Element[] {
  const taken: Element[] = [];
  for (let node: HTMLElement | null = root; node && node !== document.body && node.parentElement; node = node.parentElement) {
    for (const sibling of node.parentElement.children) {
      if (sibling === node || sibling instanceof HTMLScriptElement || sibling instanceof HTMLStyleElement) continue;
      if (keep.some((k) => k && sibling.contains(k))) continue;
      const count = inertBy.get(sibling) ?? 0;
      const el = sibling as HTMLElement;
      // Inert for another reason than a modal: not ours to undo.
      if (count === 0 && el.inert && !el.hasAttribute(SSR_INERT_ATTR)) continue;
      el.removeAttribute(SSR_INERT_ATTR);
      el.inert = true;
      inertBy.set(sibling, count + 1);
      taken.push(sibling);
    }
  }
  return taken;
}

/**
 * A modal opened over another one may sit in a part the first made inert (the confirm dialog of
 * the Overlays island over the chat): its own ancestors are lifted while it is open.
 */
function liftAncestors(root: HTMLElement): HTMLElement[] {
  const lifted: HTMLElement[] = [];
  for (let node: HTMLElement | null = root; node && node !== document.body; node = node.parentElement) {
    if ((inertBy.get(node) ?? 0) > 0 && node.inert) {
      node.inert = false;
      lifted.push(node);
    }
  }
  return lifted;
}

function release(taken: Element[]): void {
  for (const el of taken) {
    const count = (inertBy.get(el) ?? 1) - 1;
    if (count > 0) {
      inertBy.set(el, count);
      continue;
    }
    inertBy.delete(el);
    (el as HTMLElement).inert = false;
  }
}

function onKeyDown(e: KeyboardEvent): void {
  const top = layers[layers.length - 1];
  // A dialog that handled the key itself (the picture viewer's arrows and Tab) has the last word.
  if (!top || e.defaultPrevented) return;
  if (e.key === 'Escape') {
    top.escape();
    return;
  }
  if (e.key !== 'Tab' || e.altKey || e.ctrlKey || e.metaKey) return;
  const trap = top.trap();
  if (!trap) return;
  // Every Tab is moved here, so the focus can never leave for the page behind or the browser.
  e.preventDefault();
  const items = tabbables(trap);
  if (items.length === 0) {
    trap.focus();
    return;
  }
  const active = document.activeElement;
  let index = items.findIndex((el) => el === active);
  if (index < 0 && active && trap.contains(active)) {
    // Focus sits on something not tabbable (the dialog itself, a text): go on from its place.
    const after = items.findIndex((el) => active.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING);
    index = after < 0 ? items.length : after;
    index = e.shiftKey ? index : index - 1;
  }
  const next = e.shiftKey ? (index <= 0 ? items.length - 1 : index - 1) : index < 0 || index >= items.length - 1 ? 0 : index + 1;
  items[next].focus();
}

export interface ModalOptions {
  /** The element that stays usable: everything outside it becomes inert. */
  rootRef: RefObject<HTMLElement | null>;
  /** Where Tab cycles (default: the root). */
  trapRef?: RefObject<HTMLElement | null>;
  /** What Escape does; without it Escape leaves the dialog open. */
  onEscape?: () => void;
  /** Focus this when nothing inside has the focus yet (default: the first tabbable element). */
  initialFocusRef?: RefObject<HTMLElement | null>;
  /** Stays usable beside the modal (the login panel's toggle closes it by a click). */
  keepRef?: RefObject<HTMLElement | null>;
}

/** Modal behaviour while `open` (see the top of this file). */
export function useModal(open: boolean, { rootRef, trapRef, onEscape, initialFocusRef, keepRef }: ModalOptions): void {
  const escapeRef = useRef(onEscape);
  escapeRef.current = onEscape;
  // Where the focus was when the modal opened, read while rendering: before the dialog's own
  // effects move it inside.
  const previousRef = useRef<HTMLElement | null>(null);
  const wasOpen = useRef(false);
  if (open && !wasOpen.current && typeof document !== 'undefined') previousRef.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  wasOpen.current = open;

  useEffect(() => {
    const root = rootRef.current;
    if (!open || !root) return;
    const previous = previousRef.current;
    const trap = () => trapRef?.current ?? rootRef.current;
    const layer: Layer = { trap, escape: () => escapeRef.current?.() };
    const lifted = liftAncestors(root);
    const taken = inertOutside(root, [keepRef?.current ?? null]);
    if (layers.length === 0) document.addEventListener('keydown', onKeyDown);
    layers.push(layer);
    document.documentElement.classList.add('modal-open');

    const initial = initialFocusRef?.current;
    if (initial && !trap()?.contains(document.activeElement)) initial.focus();
    // After the dialog's own effects and lazy parts (which may focus a field): only if the focus is still outside.
    const frame = requestAnimationFrame(() => {
      const scope = trap();
      if (!scope || scope.contains(document.activeElement)) return;
      const target = initialFocusRef?.current ?? tabbables(scope)[0] ?? scope;
      if (target === scope && scope.tabIndex < 0 && !scope.hasAttribute('tabindex')) scope.setAttribute('tabindex', '-1');
      target.focus();
    });

    return () => {
      cancelAnimationFrame(frame);
      const at = layers.indexOf(layer);
      if (at >= 0) layers.splice(at, 1);
      if (layers.length === 0) {
        document.removeEventListener('keydown', onKeyDown);
        document.documentElement.classList.remove('modal-open');
      }
      const focusWasInside = !document.activeElement || document.activeElement === document.body || root.contains(document.activeElement);
      release(taken);
      for (const node of lifted) if ((inertBy.get(node) ?? 0) > 0) node.inert = true;
      // Back to where the focus was, unless the closing action moved it somewhere on purpose.
      if (focusWasInside && previous && previous.isConnected && !root.contains(previous) && !previous.closest('[inert]')) previous.focus();
    };
  }, [open, rootRef, trapRef, initialFocusRef, keepRef]);
}
