import type { ComponentType } from 'react';

type IslandModule = { default: ComponentType<never> };

/** Every island by name; each is its own lazily loaded chunk. */
export const islands = {
  DrawerToggle: () => import('./drawer-toggle'),
  Drawer: () => import('./drawer'),
  AccountArea: () => import('./account-area'),
  Overlays: () => import('./overlays'),
} satisfies Record<string, () => Promise<IslandModule>>;

export type IslandName = keyof typeof islands;
