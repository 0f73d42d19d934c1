import { Island } from '../../ui/island';
import CancelAccount from './cancel-account.island';
import { useT } from '../../state/context';
import { LinkButton } from '../../ui/link-button';

/** What deleting the account means, then the password confirmation (an island). */
export function CancelPage() {
  const t = useT();
  const points = ['data', 'coins', 'nicknames', 'mails'] as const;
  return (
    <section className="profile-page cancel-page">
      <h1>{t('profile.cancel.title')}</h1>
      <p className="lead">{t('profile.cancel.lead')}</p>
      <ul className="cancel-points">
        {points.map((p) => (
          <li key={p}>{t(`profile.cancel.points.${p}`)}</li>
        ))}
      </ul>
      <Island name="CancelAccount" component={CancelAccount} props={{}} />
      <p>
        <a href="/users/profile/settings">{t('profile.cancel.back')}</a>
      </p>
    </section>
  );
}

/** After the account was deleted (also shown to anyone who opens the address). */
export function CancelSuccessPage() {
  const t = useT();
  return (
    <section className="profile-page cancel-success" data-testid="cancel-success">
      <h1>{t('profile.cancelSuccess.title')}</h1>
      <p className="lead">{t('profile.cancelSuccess.text')}</p>
      <div className="profile-actions">
        <LinkButton kind="primary" href="/">{t('profile.cancelSuccess.home')}</LinkButton>
      </div>
    </section>
  );
}
