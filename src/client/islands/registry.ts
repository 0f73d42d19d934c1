import type { ComponentType } from 'react';

type IslandModule = { default: ComponentType<never> };

/** Every island by name; each is its own lazily loaded chunk. */
export const islands = {
  DrawerToggle: () => import('./drawer-toggle'),
  Drawer: () => import('./drawer'),
  AccountArea: () => import('./account-area'),
  Overlays: () => import('./overlays'),
  AgeSplash: () => import('./age-splash'),
  ConsentBanner: () => import('./consent-banner'),
  ProfileSettings: () => import('./profile-settings'),
  CancelAccount: () => import('./cancel-account'),
  LoginScreen: () => import('./login-screen'),
  RegisterScreen: () => import('./register-screen'),
  ResetFlow: () => import('./reset-flow'),
  TokenAction: () => import('./token-action'),
  VerifyNotice: () => import('./verify-notice'),
  LogoutPage: () => import('./logout-page'),
  ShowList: () => import('./show-list'),
  MediaList: () => import('./media-list'),
  Quicksearch: () => import('./quicksearch'),
  ShowLive: () => import('./show-live'),
  ShowGallery: () => import('./show-gallery'),
  SearchForm: () => import('./search-form'),
  BillingPicker: () => import('./billing-picker'),
  BillingTransfer: () => import('./billing-transfer'),
  BillingBack: () => import('./billing-back'),
  CouponsPanel: () => import('./coupons-panel'),
  GameWheel: () => import('./game-wheel'),
} satisfies Record<string, () => Promise<IslandModule>>;

export type IslandName = keyof typeof islands;
