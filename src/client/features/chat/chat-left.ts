import type { SessionType } from '../../../shared/chat';

// A paid chat the browser left without seeing its end (the tab closed mid-private, a crash): it
// is remembered in localStorage while it runs, so the show page can tell the member on their
// return that it ended and what it cost. Small and without imports, so the show page checks it
// without loading the chat.

const KEY = 'chat_running';

export interface LeftChat {
  sessionId: string;
  name: string;
  type: SessionType;
}

export function rememberRunning(c: LeftChat | null): void {
  try {
    if (c) localStorage.setItem(KEY, JSON.stringify(c));
    else localStorage.removeItem(KEY);
  } catch {
    // storage blocked: the member just is not told on return
  }
}

export function leftChat(): LeftChat | null {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) ?? 'null') as Partial<LeftChat> | null;
    return v && typeof v.sessionId === 'string' && typeof v.name === 'string' && typeof v.type === 'string' ? (v as LeftChat) : null;
  } catch {
    return null;
  }
}
