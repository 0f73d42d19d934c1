import { Hono, type Context } from 'hono';
import type { ReactNode } from 'react';
import { Layout } from '../../../client/shell/layout';
import type { ProfileTab } from '../../../client/features/account/profile-tabs';
import { CancelPage, CancelSuccessPage } from '../../../client/features/account/cancel-page';
import { ProfilePage } from '../../../client/features/account/profile-page';
import type { AppEnv } from '../../env';
import { renderPage } from '../../render/render-page';
import { memberFavorites } from '../favorites/favorites.service';

// The member's profile (/users/profile and its tabs) and deleting the account (/users/cancel).

/** Visitors go to the login, members who have not confirmed their address to /verify. */
function guard(c: Context<AppEnv>, { verified = true } = {}): Response | null {
  const user = c.get('user');
  if (!user) return c.redirect('/login', 302);
  if (verified && !user.is_verified) return c.redirect('/verify', 302);
  return null;
}

function page(c: Context<AppEnv>, title: string, trail: { label: string; href?: string }[], body: ReactNode): Response {
  const t = c.get('t');
  return renderPage(c, <Layout breadcrumbs={trail}>{body}</Layout>, { title: `${title} – ${t('common.brand')}`, robots: 'noindex', texts: ['chat'] });
}

const TAB_PATHS: [string, ProfileTab][] = [
  ['/profile', 'overview'],
  ['/profile/coupons', 'coupons'],
  ['/profile/favorites', 'favorites'],
  ['/profile/settings', 'settings'],
];

export const profilePages = new Hono<AppEnv>();

for (const [path, tab] of TAB_PATHS) {
  profilePages.get(path, async (c) => {
    const blocked = guard(c);
    if (blocked) return blocked;
    const t = c.get('t');
    const trail = tab === 'overview' ? [{ label: t('profile.title') }] : [{ label: t('profile.title'), href: '/users/profile' }, { label: t(`profile.tabs.${tab}`) }];
    const favorites = tab === 'favorites' ? await memberFavorites(c.env.DB, c.get('user')!.id, await c.var.hiddenShows()) : undefined;
    return page(c, tab === 'overview' ? t('profile.title') : `${t(`profile.tabs.${tab}`)} – ${t('profile.title')}`, trail, <ProfilePage tab={tab} favorites={favorites} />);
  });
}

profilePages.get('/cancel', (c) => {
  const blocked = guard(c, { verified: false });
  if (blocked) return blocked;
  const t = c.get('t');
  return page(c, t('profile.cancel.title'), [{ label: t('profile.title'), href: '/users/profile' }, { label: t('profile.cancel.title') }], <CancelPage />);
});

profilePages.get('/cancel_success', (c) => {
  const t = c.get('t');
  return page(c, t('profile.cancelSuccess.title'), [{ label: t('profile.cancelSuccess.title') }], <CancelSuccessPage />);
});
