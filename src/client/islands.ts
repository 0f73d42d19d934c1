import type { ComponentType } from 'react';
import AccountArea from './features/account/account-area.island';
import Quicksearch from './features/search/quicksearch.island';
import Drawer from './shell/drawer.island';
import DrawerToggle from './shell/drawer-toggle.island';
import Overlays from './shell/overlays.island';

type IslandModule = { default: ComponentType<never> };

const inEntry = (component: ComponentType<never>) => () => Promise.resolve({ default: component });

/**
 * Every island by name. The top bar, drawer and overlays are on every page, so they are part of
 * the entry (one file compresses better than a handful of small chunks, and hydration does not
 * wait for a second round trip); every other island is its own lazily loaded chunk.
 */
export const islands = {
  DrawerToggle: inEntry(DrawerToggle),
  Drawer: inEntry(Drawer),
  AccountArea: inEntry(AccountArea),
  Overlays: inEntry(Overlays),
  AgeSplash: () => import('./features/session/age-splash.island'),
  ConsentBanner: () => import('./shell/consent-banner.island'),
  ProfileSettings: () => import('./features/account/profile-settings.island'),
  CancelAccount: () => import('./features/account/cancel-account.island'),
  LoginScreen: () => import('./features/account/login-screen.island'),
  RegisterScreen: () => import('./features/account/register-page.island'),
  ResetFlow: () => import('./features/account/reset-flow.island'),
  TokenAction: () => import('./features/account/token-action.island'),
  VerifyNotice: () => import('./features/account/verify-notice.island'),
  LogoutPage: () => import('./features/account/logout-page.island'),
  ShowList: () => import('./features/shows/show-list.island'),
  MediaList: () => import('./features/shows/media-list.island'),
  Quicksearch: inEntry(Quicksearch),
  ShowLive: () => import('./features/shows/show-live.island'),
  ShowGallery: () => import('./features/shows/show-gallery.island'),
  StoreClip: () => import('./features/store/store-clip.island'),
  StoreGallery: () => import('./features/store/store-gallery.island'),
  SearchForm: () => import('./features/search/search-form.island'),
  BillingPicker: () => import('./features/billing/billing-picker.island'),
  BillingTransfer: () => import('./features/billing/billing-transfer.island'),
  BillingBack: () => import('./features/billing/billing-back.island'),
  CouponsPanel: () => import('./features/billing/coupons-panel.island'),
  GameWheel: () => import('./features/game/game-wheel.island'),
  ContestBoard: () => import('./features/contest/contest-board.island'),
  Studio: () => import('./features/studio/studio.island'),
  OperatorInbox: () => import('./features/messages/operator-inbox.island'),
  SecondFactor: () => import('./features/operator/second-factor.island'),
  OperatorPayouts: () => import('./features/operator/operator-payouts.island'),
  RestrictForm: () => import('./features/operator/restrict-form.island'),
  LiftForm: () => import('./features/operator/lift-form.island'),
  AppealDecision: () => import('./features/operator/appeal-decision.island'),
  ReportResolve: () => import('./features/operator/report-resolve.island'),
  ReportButton: () => import('./features/reports/report-button.island'),
  ModerationDecision: () => import('./features/operator/moderation-decision.island'),
  LiveStop: () => import('./features/operator/live-stop.island'),
  ShowWatch: () => import('./features/operator/show-watch.island'),
  ApplicationDecision: () => import('./features/operator/application-decision.island'),
  CustodianForm: () => import('./features/operator/custodian-form.island'),
  ApplyForm: () => import('./features/applications/apply-form.island'),
  AppealForm: () => import('./features/restrictions/appeal-form.island'),
  ChatHistory: () => import('./features/chat/chat-history.island'),
  ExternalChat: () => import('./features/chat/external-chat.island'),
  Messages: () => import('./features/messages/messages.island'),
  MessagesMenu: () => import('./features/messages/messages-menu.island'),
  MessagePopup: () => import('./features/messages/message-popup.island'),
  FavoritesList: () => import('./features/favorites/favorites-list.island'),
  ShowFavorite: () => import('./features/favorites/show-favorite.island'),
  TopMenus: () => import('./features/favorites/top-menus.island'),
} satisfies Record<string, () => Promise<IslandModule>>;

export type IslandName = keyof typeof islands;
