import AccountArea from '../features/account/account-area.island';
import MessagesMenu from '../features/messages/messages-menu.island';
import DrawerToggle from './drawer-toggle.island';
import Quicksearch from '../features/search/quicksearch.island';
import TopMenus from '../features/favorites/top-menus.island';
import { useT } from '../state/context';
import { Island } from '../ui/island';
import { Logo } from '../ui/logo';

export function AppBar({ withDrawer }: { withDrawer: boolean }) {
  const t = useT();
  return (
    <header className="app-bar">
      <div className="app-bar-inner">
        {withDrawer && <Island name="DrawerToggle" component={DrawerToggle} props={{}} />}
        <a href="/" className="brand" aria-label={t('nav.brandHome', { brand: t('common.brand') })}>
          <Logo />
        </a>
        <Island name="Quicksearch" component={Quicksearch} props={{}} />
        <Island name="TopMenus" component={TopMenus} props={{}} members />
        <Island name="MessagesMenu" component={MessagesMenu} props={{}} members />
        <Island name="AccountArea" component={AccountArea} props={{}} />
      </div>
    </header>
  );
}
