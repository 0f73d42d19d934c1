import { SNACKBAR_TIMEOUT_MS } from '../../shared/constants';
import type { RootState } from './store';
import type { ConfirmRequest } from './ui';

let snackbarSeq = 0;

export function showSnackbar(
  store: RootState,
  text: string,
  opts: { timeout?: number; action?: { label: string; href: string } } = {},
): void {
  store.ui.snackbar = { id: ++snackbarSeq, text, timeout: opts.timeout ?? SNACKBAR_TIMEOUT_MS, action: opts.action };
}

export function closeSnackbar(store: RootState): void {
  store.ui.snackbar = null;
}

/** Opens the shared confirm dialog; resolves true on confirm, false on cancel or Escape. */
export function confirmDialog(store: RootState, req: Omit<ConfirmRequest, 'resolve'>): Promise<boolean> {
  store.ui.confirm?.resolve(false);
  return new Promise((resolve) => {
    store.ui.confirm = { ...req, resolve };
  });
}

export function answerConfirm(store: RootState, ok: boolean): void {
  const req = store.ui.confirm;
  store.ui.confirm = null;
  req?.resolve(ok);
}

export function toggleDrawer(store: RootState, open?: boolean): void {
  store.ui.drawerOpen = open ?? !store.ui.drawerOpen;
}
