import type { ReactNode } from 'react';
import type { Category } from '../../shared/shows';
import Drawer from './drawer.island';
import AgeSplash from '../features/session/age-splash.island';
import ConsentBanner from './consent-banner.island';
import Overlays from './overlays.island';
import { useSnap, useT } from '../state/context';
import { Breadcrumbs, type Crumb } from '../ui/breadcrumbs';
import { behindModal, Island } from '../ui/island';
import { AppBar } from './app-bar';
import { BottomNav } from './bottom-nav';
import { CategoryBar } from './category-bar';
import { Footer } from './footer';

export interface LayoutProps {
  /** 'basic' is the bare frame (no drawer, no footer links) for flows such as billing popups. */
  variant?: 'default' | 'basic';
  categoryBar?: { categories: Category[]; activeId?: number | null } | null;
  breadcrumbs?: Crumb[] | null;
  children: ReactNode;
}

export function Layout({ variant = 'default', categoryBar, breadcrumbs, children }: LayoutProps) {
  const snap = useSnap();
  const t = useT();
  const basic = variant === 'basic';
  // The age splash is a modal from the first byte: what it covers is inert until it is answered.
  const covered = snap.ui.splashOpen;
  return (
    <>
      <a className="skip-link" href="#main" {...behindModal(covered)}>
        {t('nav.skip')}
      </a>
      <noscript>
        <div className="noscript">{t('common.noscript')}</div>
      </noscript>
      <div className={basic ? 'app app-basic' : 'app'} {...behindModal(covered)}>
        {!snap.headerHidden && <AppBar withDrawer={!basic} />}
        {!basic && <Island name="Drawer" component={Drawer} props={{}} />}
        <div className="app-main">
          {!basic && categoryBar && <CategoryBar categories={categoryBar.categories} activeId={categoryBar.activeId} />}
          <main id="main" className="content">
            {breadcrumbs && <Breadcrumbs trail={breadcrumbs} />}
            {children}
          </main>
          {!basic && <Footer />}
        </div>
        {!basic && <BottomNav />}
      </div>
      <Island name="Overlays" component={Overlays} props={{}} inert={covered} />
      {snap.ui.consentOpen && <Island name="ConsentBanner" component={ConsentBanner} props={{}} inert={covered} />}
      {snap.ui.splashOpen && <Island name="AgeSplash" component={AgeSplash} props={{}} />}
    </>
  );
}
