import { Hono, type Context } from 'hono';
import type { ReactNode } from 'react';
import { Layout } from '../../../client/shell/layout';
import type { Crumb } from '../../../client/ui/breadcrumbs';
import { LoginPage } from '../../../client/features/account/login-page';
import { SignupPage } from '../../../client/features/account/signup-page';
import { SignupSuccessPage } from '../../../client/features/account/signup-success-page';
import { LogoutScreen, ResetPage, TokenPage, VerifyPage } from '../../../client/features/account/flow-pages';
import type { TokenMode } from '../../../client/features/account/token-action.island';
import type { AppEnv } from '../../env';
import { renderPage } from '../../render/render-page';
import { safeRedirect } from '../../../shared/safe-redirect';

// Account pages: login, sign-up, sign-up success, mailed links, reset, verify,
// logout. The forms are islands; these handlers render the frame, guard and prefill.

export const accountPages = new Hono<AppEnv>();

const MAX_PARAM = 256;
const param = (value: string | undefined | null) => (value ?? '').trim().slice(0, MAX_PARAM);

function page(
  c: Context<AppEnv>,
  opts: { titleKey: string; descriptionKey?: string; crumbs?: Crumb[]; index?: boolean; canonical?: string },
  body: ReactNode,
) {
  const t = c.get('t');
  const title = t(opts.titleKey);
  const url = new URL(c.req.url);
  return renderPage(c, <Layout breadcrumbs={[...(opts.crumbs ?? []), { label: title }]}>{body}</Layout>, {
    title: `${title} – ${t('common.brand')}`,
    description: opts.descriptionKey ? t(opts.descriptionKey) : undefined,
    canonical: opts.index ? `${url.origin}${opts.canonical ?? url.pathname}` : undefined,
    robots: opts.index ? undefined : 'noindex',
  });
}

function loginPage(c: Context<AppEnv>) {
  if (c.get('user')) return c.redirect('/', 302);
  const redirect = safeRedirect(c.req.query('redirect'), c.req.url, '') || null;
  return page(c, { titleKey: 'auth.login.title', descriptionKey: 'auth.login.metaDescription', index: true, canonical: '/login' }, <LoginPage redirect={redirect} />);
}
accountPages.get('/login', loginPage);
accountPages.get('/sessions/new', loginPage);

function signupPage(c: Context<AppEnv>) {
  if (c.get('user')) return c.redirect('/', 302);
  const email = param(c.req.query('email'));
  const code = param(c.req.param('code') ?? c.req.query('code')).slice(0, 64);
  const tab = c.req.query('tab') === 'login' ? 'login' : 'register';
  return page(
    c,
    { titleKey: 'auth.register.title', descriptionKey: 'auth.register.metaDescription', index: true, canonical: '/users/signup' },
    <SignupPage email={email} code={code} tab={tab} />,
  );
}
accountPages.get('/users/signup', signupPage);
accountPages.get('/users/signup/coupon/:code?', signupPage);

accountPages.get('/users/signup_success', (c) => {
  const email = c.get('session').register_email;
  if (!email) return c.redirect('/', 302);
  return page(c, { titleKey: 'auth.success.title' }, <SignupSuccessPage email={email} />);
});

function tokenPage(mode: TokenMode, titleKey: string) {
  return (c: Context<AppEnv>) => page(c, { titleKey }, <TokenPage mode={mode} token={param(c.req.query('token'))} />);
}
accountPages.get('/users/activate', tokenPage('activate', 'auth.activate.title'));
accountPages.get('/users/email_validate', tokenPage('email_validate', 'auth.activate.title'));
accountPages.get('/token_login', tokenPage('token_login', 'auth.tokenLogin.title'));

const loginCrumb = (c: Context<AppEnv>): Crumb[] => (c.get('user') ? [] : [{ label: c.get('t')('auth.login.title'), href: '/login' }]);

accountPages.get('/users/reset', (c) =>
  page(
    c,
    { titleKey: 'auth.reset.title', descriptionKey: 'auth.reset.metaDescription', crumbs: loginCrumb(c) },
    <ResetPage token={null} email={param(c.req.query('email'))} />,
  ),
);
accountPages.get('/users/reset/:token', (c) =>
  page(c, { titleKey: 'auth.reset.newTitle', crumbs: loginCrumb(c) }, <ResetPage token={param(c.req.param('token'))} email="" />),
);

accountPages.get('/verify', (c) => page(c, { titleKey: 'auth.verify.title' }, <VerifyPage />));
// A GET changes nothing: the page asks, and its button POSTs auth/logout.
accountPages.get('/logout', (c) => page(c, { titleKey: 'auth.logout.title' }, <LogoutScreen loggedIn={Boolean(c.get('user'))} />));
