import { toggleDrawer } from '../state/actions';
import { useSnap, useStore, useT } from '../state/context';
import { Icon } from '../ui/icon';

export default function DrawerToggle() {
  const store = useStore();
  const snap = useSnap();
  const t = useT();
  return (
    <button
      type="button"
      className="icon-btn drawer-toggle"
      aria-label={t('nav.menu')}
      aria-controls="app-drawer"
      aria-expanded={snap.ui.drawerOpen}
      onClick={() => toggleDrawer(store)}
    >
      <Icon name="menu" />
    </button>
  );
}
