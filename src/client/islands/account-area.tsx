import { Icon } from '../components/icon';
import { useSnap, useT } from '../state/context';

/** Top bar right side: sign-up and login for visitors; coins and the member menu for members. */
export default function AccountArea() {
  const snap = useSnap();
  const t = useT();
  if (!snap.user) {
    return (
      <div className="account-area">
        <a className="btn btn-text hide-xs" href="/login">
          <Icon name="login" size={20} />
          <span>{t('nav.login')}</span>
        </a>
        <a className="btn btn-primary" href="/users/signup">
          <span className="hide-xs">{t('nav.signup')}</span>
          <span className="show-xs">{t('nav.signupShort')}</span>
        </a>
      </div>
    );
  }
  return (
    <div className="account-area">
      {!snap.session.voicecall && (
        <a className="chip coins" href="/billing" title={t('nav.buyCoins')}>
          <Icon name="coins" size={18} />
          <span data-testid="coins">{snap.user.coins}</span>
        </a>
      )}
      <a className="btn btn-text" href="/users/profile">
        <Icon name="person" size={20} />
        <span className="hide-xs nickname">{snap.user.name}</span>
      </a>
    </div>
  );
}
