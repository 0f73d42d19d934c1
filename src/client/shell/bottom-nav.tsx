import { useSnap, useT } from '../state/context';
import { Icon, type IconName } from '../ui/icon';

/** Phone-sized screens only (below 600 px, CSS); hidden in voice-call mode. */
export function BottomNav() {
  const snap = useSnap();
  const t = useT();
  if (snap.session.voicecall) return null;
  const items: [string, string, IconName][] = [
    ['nav.home', '/', 'home'],
    ['nav.allShows', '/shows/all-shows', 'live'],
    ['nav.search', '/search', 'search'],
    snap.user ? ['nav.profile', '/users/profile', 'person'] : ['nav.login', '/login', 'login'],
  ];
  return (
    <nav className="bottom-nav" aria-label={t('nav.bottom')}>
      {items.map(([label, href, icon]) => (
        <a key={href} href={href} className={snap.path === href ? 'active' : undefined} aria-current={snap.path === href ? 'page' : undefined}>
          <Icon name={icon} size={22} />
          <span>{t(label)}</span>
        </a>
      ))}
    </nav>
  );
}
