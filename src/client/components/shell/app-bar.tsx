import AccountArea from '../../islands/account-area';
import DrawerToggle from '../../islands/drawer-toggle';
import Quicksearch from '../../islands/quicksearch';
import { useT } from '../../state/context';
import { Island } from '../island';
import { Logo } from '../logo';

export function AppBar({ withDrawer }: { withDrawer: boolean }) {
  const t = useT();
  return (
    <header className="app-bar">
      <div className="app-bar-inner">
        {withDrawer && <Island name="DrawerToggle" component={DrawerToggle} props={{}} />}
        <a href="/" className="brand" aria-label={t('nav.home')}>
          <Logo />
        </a>
        <Island name="Quicksearch" component={Quicksearch} props={{}} />
        <Island name="AccountArea" component={AccountArea} props={{}} />
      </div>
    </header>
  );
}
