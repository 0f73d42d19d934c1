import { proxy } from 'valtio';
import { BUILD_ID } from '../../shared/build';
import type { Session } from '../../shared/session';
import type { EmbeddedState } from '../../shared/state';
import { accountSlice, type AccountSlice } from '../features/account/account.slice';
import { billingSlice, type BillingSlice } from '../features/billing/billing.slice';
import { chatSlice, type ChatSlice } from '../features/chat/chat.slice';
import { favoritesSlice, type FavoritesSlice } from '../features/favorites/favorites.slice';
import { liveSlice, type LiveSlice } from './live';
import { playerSlice, type PlayerSlice } from '../features/store/player.slice';
import { studioSlice, type StudioSlice } from '../features/studio/studio.slice';
import { videoSlice, type VideoSlice } from '../features/video/video.slice';
import { uiSlice, type UiSlice } from './ui';

export interface ErrorLogEntry {
  created: number;
  message: string;
  level: 1 | 2 | 3 | 4;
  userAgent: string;
  prevRoute: string | null;
  currentRoute: string;
  objects: unknown[];
}

/** What the document says about itself: layout, language, path, builds, session, settings. */
interface DocumentSlice {
  layout: EmbeddedState['layout'];
  headerHidden: boolean;
  locale: EmbeddedState['locale'];
  path: string;
  now: number;
  clientBuild: string;
  serverBuild: string;
  session: Session;
  config: { supportEmail: string; exitUrl: string; googleClientId: string | null; csrfToken: string };
  errorLog: ErrorLogEntry[];
}

/** The root state shared by every island, assembled from its slices. */
export type RootState = DocumentSlice & AccountSlice & UiSlice & BillingSlice & LiveSlice & PlayerSlice & FavoritesSlice & VideoSlice & ChatSlice & StudioSlice;

/** One store per document in the browser, one per request on the server. */
export function createStore(init: EmbeddedState): RootState {
  return proxy<RootState>({
    layout: init.layout,
    headerHidden: init.headerHidden,
    locale: init.locale,
    path: init.path,
    now: init.now,
    clientBuild: BUILD_ID,
    serverBuild: init.serverBuild,
    session: init.session,
    config: { supportEmail: init.supportEmail, exitUrl: init.exitUrl, googleClientId: init.googleClientId ?? null, csrfToken: init.csrfToken ?? '' },
    errorLog: [],
    ...accountSlice(init),
    ...uiSlice(init),
    ...billingSlice(),
    ...liveSlice(),
    ...playerSlice(),
    ...favoritesSlice(),
    ...videoSlice(),
    ...chatSlice(),
    ...studioSlice(),
  });
}
