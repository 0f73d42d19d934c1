import { useEffect, useRef, useState } from 'react';
import { BREAKPOINTS } from '../../shared/constants';
import { drawerItems, type DrawerItemKey } from '../../shared/drawer';
import type { Session, User } from '../../shared/session';
import { Icon, type IconName } from '../ui/icon';
import { useModal } from '../ui/use-modal';
import { useLazy, type Loader } from '../lib/use-lazy';
import { toggleDrawer } from '../state/actions';
import { useSnap, useStore, useT } from '../state/context';

const ICONS: Record<DrawerItemKey, IconName> = {
  home: 'home',
  allShows: 'live',
  categories: 'grid',
  search: 'search',
  freeshow: 'live',
  freevideo: 'video',
  game: 'game',
  contest: 'star',
  special: 'star',
  freeCoins: 'gift',
  charge: 'coins',
  studio: 'video',
  voicecall: 'phone',
  faq: 'help',
  contact: 'mail',
};

// Only sessions in voice-call mode download the notice (why the menu is limited, "End call").
const loadVoicecallNotice: Loader = () => import('../features/billing/voicecall-notice');

/** The left drawer: a sidebar on wide screens, a sliding panel with a scrim below 1264 px. */
export default function Drawer() {
  const store = useStore();
  const snap = useSnap();
  const t = useT();
  const open = snap.ui.drawerOpen;
  const items = drawerItems(snap.session as Session, snap.user as User | null, new Date(snap.now));
  const VoicecallNotice = useLazy(loadVoicecallNotice, snap.session.voicecall);

  // Below 1264 px the open drawer is a modal panel (page behind inert and still, Tab stays in
  // it, Escape closes it); wider it is a sidebar beside the page.
  const [narrow, setNarrow] = useState(false);
  useEffect(() => {
    const query = window.matchMedia(`(max-width: ${BREAKPOINTS.lg - 0.02}px)`);
    const update = () => setNarrow(query.matches);
    update();
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }, []);
  const layerRef = useRef<HTMLDivElement>(null);
  const navRef = useRef<HTMLElement>(null);
  useModal(open && narrow, { rootRef: layerRef, trapRef: navRef, onEscape: () => toggleDrawer(store, false) });

  return (
    <div ref={layerRef} className="drawer-layer">
      <div className={open ? 'scrim scrim-open' : 'scrim'} aria-hidden="true" onClick={() => toggleDrawer(store, false)} />
      <nav ref={navRef} id="app-drawer" className={open ? 'drawer drawer-open' : 'drawer'} aria-label={t('nav.main')}>
        {VoicecallNotice && snap.session.voicecall && <VoicecallNotice />}
        <ul>
          {items.map((item) => (
            <li key={item.key}>
              <a
                href={item.href}
                data-drawer-item={item.key}
                className={snap.path === item.href ? 'drawer-item active' : 'drawer-item'}
                aria-current={snap.path === item.href ? 'page' : undefined}
              >
                <Icon name={ICONS[item.key]} size={22} />
                <span>{t(`drawer.${item.key}`)}</span>
              </a>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}
