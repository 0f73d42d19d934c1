import type { RootState } from '../../state/store';

/** Opens the nickname dialog (settings, and later before a chat); the Overlays island shows it. */
export function openNicknameDialog(store: RootState): void {
  store.ui.nicknameDialog = true;
}

export function closeNicknameDialog(store: RootState): void {
  store.ui.nicknameDialog = false;
}
