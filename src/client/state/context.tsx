import { createContext, useContext, type ReactNode } from 'react';
import { useSnapshot } from 'valtio';
import type { TFunction } from '../../shared/translate';
import type { RootState } from './store';

const StoreContext = createContext<RootState | null>(null);
const TContext = createContext<TFunction>((key) => key);

export function AppProviders({ store, t, children }: { store: RootState; t: TFunction; children: ReactNode }) {
  return (
    <StoreContext.Provider value={store}>
      <TContext.Provider value={t}>{children}</TContext.Provider>
    </StoreContext.Provider>
  );
}

/** The mutable store, for actions. */
export function useStore(): RootState {
  const store = useContext(StoreContext);
  if (!store) throw new Error('store missing: render inside <AppProviders>');
  return store;
}

/** A render snapshot of the store (re-renders on change). */
export function useSnap() {
  return useSnapshot(useStore());
}

export function useT(): TFunction {
  return useContext(TContext);
}
