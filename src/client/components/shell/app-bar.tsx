import AccountArea from '../../islands/account-area';
import DrawerToggle from '../../islands/drawer-toggle';
import { useT } from '../../state/context';
import { Icon } from '../icon';
import { Island } from '../island';
import { Logo } from '../logo';

export function AppBar() {
  const t = useT();
  return (
    <header className="app-bar">
      <div className="app-bar-inner">
        <Island name="DrawerToggle" component={DrawerToggle} props={{}} />
        <a href="/" className="brand" aria-label={t('nav.home')}>
          <Logo />
        </a>
        <form className="quicksearch" action="/search" method="get" role="search">
          <Icon name="search" size={20} />
          <input type="search" name="search" placeholder={t('nav.searchPlaceholder')} aria-label={t('nav.search')} minLength={3} />
        </form>
        <Island name="AccountArea" component={AccountArea} props={{}} />
      </div>
    </header>
  );
}
