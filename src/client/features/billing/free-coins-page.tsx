import type { Session, User } from '../../../shared/session';
import { Icon, type IconName } from '../../ui/icon';
import { useSnap, useT } from '../../state/context';
import { PageHeader } from '../../ui/page-header';

/** The drawer's free-coins rule without the voice-call part (those sessions never get here). */
export function freeCoinsAvailable(session: Pick<Session, 'sms_coins_disabled' | 'sms_coins_available'>, user: unknown): boolean {
  return !session.sms_coins_disabled && !(user !== null && !session.sms_coins_available);
}

interface Way {
  key: 'vouchers' | 'game' | 'welcome';
  icon: IconName;
  href: string;
  linkKey: string;
}

/** /users/free_coins: the ways to coins without paying, or why there are none right now. */
export function FreeCoinsPage() {
  const t = useT();
  const snap = useSnap();
  const user = snap.user as User | null;
  const available = freeCoinsAvailable(snap.session, user);
  const ways: Way[] = [
    user
      ? { key: 'vouchers', icon: 'gift', href: '/users/profile/coupons', linkKey: 'freeCoins.vouchers.link' }
      : { key: 'vouchers', icon: 'gift', href: '/login?redirect=%2Fusers%2Fprofile%2Fcoupons', linkKey: 'freeCoins.vouchers.linkVisitor' },
    { key: 'game', icon: 'game', href: '/game', linkKey: 'freeCoins.game.link' },
    user
      ? { key: 'welcome', icon: 'star', href: '/users/profile/coupons', linkKey: 'freeCoins.welcome.linkMember' }
      : { key: 'welcome', icon: 'star', href: '/users/signup', linkKey: 'freeCoins.welcome.link' },
  ];
  return (
    <section className="free-coins-page" data-testid="free-coins" data-available={available ? '1' : '0'}>
      <PageHeader title={t('freeCoins.title')} lead={t('freeCoins.lead')} />
      {!available ? (
        <div className="free-coins-unavailable" role="status" data-testid="free-coins-unavailable">
          <Icon name="warning" size={36} />
          <h2>{t('freeCoins.unavailable.title')}</h2>
          <p className="muted">{t('freeCoins.unavailable.text')}</p>
          <a className="btn btn-primary" href={user ? '/billing' : '/'}>
            {t(user ? 'freeCoins.unavailable.buy' : 'freeCoins.unavailable.home')}
          </a>
        </div>
      ) : (
        <ul className="free-coins-ways">
          {ways.map((w) => (
            <li key={w.key} className="free-coins-way" data-way={w.key}>
              <div className="free-coins-icon" aria-hidden="true">
                <Icon name={w.icon} size={28} />
              </div>
              <h2>{t(`freeCoins.${w.key}.title`)}</h2>
              <p className="muted">{t(`freeCoins.${w.key}.${w.key === 'welcome' && user ? 'textMember' : 'text'}`)}</p>
              <a className="btn btn-outline" href={w.href}>
                {t(w.linkKey)}
              </a>
            </li>
          ))}
        </ul>
      )}
      {available && user && (
        <p className="free-coins-buy muted">
          {t('freeCoins.buyHint')}{' '}
          <a href="/billing">{t('freeCoins.buy')}</a>
        </p>
      )}
    </section>
  );
}
