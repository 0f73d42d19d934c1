import { useT } from '../../state/context';

export const PROFILE_TABS = [
  ['overview', '/users/profile'],
  ['coupons', '/users/profile/coupons'],
  ['favorites', '/users/profile/favorites'],
  ['settings', '/users/profile/settings'],
] as const;

export type ProfileTab = (typeof PROFILE_TABS)[number][0];

/** The profile's sections as plain links; the current one is highlighted. */
export function ProfileTabs({ current }: { current: ProfileTab }) {
  const t = useT();
  return (
    <nav className="profile-tabs" aria-label={t('profile.tabs.label')}>
      <ul>
        {PROFILE_TABS.map(([key, href]) => (
          <li key={key}>
            <a
              href={href}
              data-tab={key}
              className={key === current ? 'profile-tab active' : 'profile-tab'}
              aria-current={key === current ? 'page' : undefined}
            >
              {t(`profile.tabs.${key}`)}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
