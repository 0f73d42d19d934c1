import type { ReactNode } from 'react';
import type { Favorite } from '../../../shared/favorites';
import { Icon } from '../../ui/icon';
import { Island } from '../../ui/island';
import { NicknameText } from './nickname-text';
import { ProfileTabs, type ProfileTab } from './profile-tabs';
import CouponsPanel from '../billing/coupons-panel.island';
import ChatHistory from '../chat/chat-history.island';
import FavoritesList from '../favorites/favorites-list.island';
import ProfileSettings from './profile-settings.island';
import { useSnap, useT } from '../../state/context';
import { LinkButton } from '../../ui/link-button';

/** Heading, the section tabs and the current section. */
export function ProfilePage({ tab, favorites = [] }: { tab: ProfileTab; favorites?: Favorite[] }) {
  const t = useT();
  return (
    <section className="profile-page" data-profile-tab={tab}>
      <header className="profile-header">
        <h1>{t('profile.title')}</h1>
      </header>
      <ProfileTabs current={tab} />
      <div className="profile-body">
        {tab === 'overview' && <OverviewTab />}
        {tab === 'coupons' && <Island name="CouponsPanel" component={CouponsPanel} props={{}} />}
        {tab === 'favorites' && (
          <Island
            name="FavoritesList"
            component={FavoritesList}
            props={{ initial: favorites, empty: { title: t('profile.favorites.title'), text: t('profile.favorites.text'), href: '/', link: t('profile.favorites.link') } }}
          />
        )}
        {tab === 'settings' && <Island name="ProfileSettings" component={ProfileSettings} props={{}} />}
      </div>
    </section>
  );
}

function Card({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <div className="profile-card">
      <h2 className="profile-card-title">{title}</h2>
      <div className="profile-card-value">{children}</div>
      {action && <div className="profile-card-action">{action}</div>}
    </div>
  );
}

function OverviewTab() {
  const t = useT();
  const snap = useSnap();
  const user = snap.user;
  if (!user) return null;
  const current = user.nicknames.data.find((n) => n.id === user.nicknames.current_nickname) ?? null;
  return (
    <div className="profile-overview">
      <p className="lead profile-greeting">{t('profile.overview.greeting', { name: user.name })}</p>
      <p className="muted">{t('profile.overview.lead')}</p>
      <div className="profile-cards">
        <Card
          title={t('profile.overview.coins')}
          action={<LinkButton kind="outline" href="/billing">{t('profile.overview.buyCoins')}</LinkButton>}
        >
          <span className="profile-coins" data-testid="profile-coins">
            <Icon name="coins" size={22} />
            {user.coins}
          </span>
        </Card>
        <Card
          title={t('profile.overview.nickname')}
          action={<LinkButton kind="outline" href="/users/profile/settings#nicknames">{t(current ? 'profile.overview.manageNicknames' : 'profile.overview.chooseNickname')}</LinkButton>}
        >
          {current ? <NicknameText nickname={current.nickname} /> : <span className="muted">{t('profile.overview.noNickname')}</span>}
        </Card>
        <Card
          title={t('profile.overview.age')}
          action={
            !user.age_verified && (
              <LinkButton kind="primary" href="/avs?kjm=1&target=%2Fusers%2Fprofile" data-action="verify-age">{t('profile.overview.verifyAge')}</LinkButton>
            )
          }
        >
          {user.age_verified ? (
            <span className="profile-status ok" data-testid="age-status">
              {t('profile.overview.ageVerified')}
            </span>
          ) : (
            <span className="profile-status" data-testid="age-status">
              {t('profile.overview.ageOpen')}
            </span>
          )}
        </Card>
        <Card
          title={t('profile.overview.email')}
          action={<LinkButton kind="outline" href="/users/profile/settings">{t('profile.overview.editSettings')}</LinkButton>}
        >
          <span className="profile-email">{user.email}</span>
        </Card>
      </div>
      <Island name="ChatHistory" component={ChatHistory} props={{}} />
    </div>
  );
}
