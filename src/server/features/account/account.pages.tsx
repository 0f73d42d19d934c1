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
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { loginSchema, registerSchema } from '../../../shared/accounts';

const passwordLoginSchema = loginSchema.options[0];
import type { PostedFailure } from '../../../client/ui/form';
import { ApiError } from '../../lib/errors';
import { fieldErrors } from '../../lib/validation';
import { checkedForm } from '../../middleware/csrf';
import { logInPayload } from './account.service';
import { passwordLogin, registerAccount } from './auth.service';

// Account pages: login, sign-up, sign-up success, mailed links, reset, verify,
// logout. The forms are islands; these handlers render the frame, guard and prefill.

export const accountPages = new Hono<AppEnv>();

const MAX_PARAM = 256;
const param = (value: string | undefined | null) => (value ?? '').trim().slice(0, MAX_PARAM);

function page(
  c: Context<AppEnv>,
  opts: { titleKey: string; descriptionKey?: string; crumbs?: Crumb[]; index?: boolean; canonical?: string; status?: ContentfulStatusCode },
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
  }, opts.status);
}

function loginPage(c: Context<AppEnv>, failure: PostedFailure | null = null, status?: ContentfulStatusCode, posted?: string) {
  if (c.get('user')) return c.redirect('/', 302);
  const redirect = safeRedirect(posted ?? c.req.query('redirect'), c.req.url, '') || null;
  return page(
    c,
    { titleKey: 'auth.login.title', descriptionKey: 'auth.login.metaDescription', index: true, canonical: '/login', status },
    <LoginPage redirect={redirect} failure={failure} />,
  );
}
accountPages.get('/login', (c) => loginPage(c));
accountPages.get('/sessions/new', (c) => loginPage(c));

// The login form posted without script (the same checks and limits as POST /api/auth/login):
// on to the form's redirect target, or the form again with the error, rendered by the server.
accountPages.post('/login', async (c) => {
  const form = await checkedForm(c);
  const target = safeRedirect(form.redirect, c.req.url, '/');
  if (c.get('user')) return c.redirect(target, 303);
  const values = { username: param(form.username) };
  try {
    const missing: Record<string, string[]> = {};
    if (!values.username) missing.username = ['required'];
    if (!form.password) missing.password = ['required'];
    if (Object.keys(missing).length) throw new ApiError(422, 'validation_failed', missing);
    const parsed = passwordLoginSchema.safeParse({ username: form.username, password: form.password });
    if (!parsed.success) throw new ApiError(422, 'validation_failed', fieldErrors(parsed.error));
    await logInPayload(c, await passwordLogin(c, parsed.data.username, parsed.data.password));
    return c.redirect(target, 303);
  } catch (e) {
    const failure = refused(c, e, values);
    if (!failure) throw e;
    return loginPage(c, failure.failure, failure.status, form.redirect);
  }
});

function signupPage(c: Context<AppEnv>, failure: PostedFailure | null = null, status?: ContentfulStatusCode) {
  if (c.get('user')) return c.redirect('/', 302);
  const email = param(c.req.query('email'));
  const code = param(c.req.param('code') ?? c.req.query('code')).slice(0, 64);
  const tab = failure || c.req.query('tab') !== 'login' ? 'register' : 'login';
  return page(
    c,
    { titleKey: 'auth.register.title', descriptionKey: 'auth.register.metaDescription', index: true, canonical: '/users/signup', status },
    <SignupPage email={email} code={code} tab={tab} failure={failure} />,
  );
}
accountPages.get('/users/signup', (c) => signupPage(c));
accountPages.get('/users/signup/coupon/:code?', (c) => signupPage(c));

// The sign-up form posted without script (the same checks and limits as POST /api/register):
// on to the success page, or the form again with its errors, rendered by the server.
accountPages.post('/users/signup', async (c) => {
  const form = await checkedForm(c);
  if (c.get('user')) return c.redirect('/', 303);
  const values = { email: param(form.email), code: param(form.code).slice(0, 64), username: param(form.username) };
  try {
    // The same checks the form makes with script, then the API's schema.
    const missing: Record<string, string[]> = {};
    if (!values.email) missing.email = ['email_invalid'];
    if (!form.password) missing.password = ['required'];
    if (!values.username) missing.username = ['required'];
    if (form.terms_check !== 'on') missing.terms_check = ['terms_required'];
    if (Object.keys(missing).length) throw new ApiError(422, 'validation_failed', missing);
    const parsed = registerSchema.safeParse({ email: values.email, code: values.code, password: form.password, username: values.username, terms_check: true });
    if (!parsed.success) throw new ApiError(422, 'validation_failed', fieldErrors(parsed.error));
    const user = await registerAccount(c, parsed.data);
    await logInPayload(c, user.id);
    return c.redirect('/users/signup_success', 303);
  } catch (e) {
    const failure = refused(c, e, values);
    if (!failure) throw e;
    return signupPage(c, failure.failure, failure.status);
  }
});

/** A refusal (ApiError) of a form posted without script, as the form shows it; null for our own faults. */
function refused(c: Context<AppEnv>, e: unknown, values: Record<string, string>): { failure: PostedFailure; status: ContentfulStatusCode } | null {
  if (!(e instanceof ApiError) || e.status === 419) return null;
  for (const [name, value] of Object.entries(e.headers ?? {})) c.header(name, value);
  const fields = Object.fromEntries(Object.entries(e.errors ?? {}).map(([field, codes]) => [field, codes[0] ?? 'validation_failed']));
  const retryAfter = Number(e.headers?.['Retry-After']);
  return {
    failure: { code: Object.keys(fields).length ? null : e.message, fields, values, ...(retryAfter > 0 ? { retryAfter } : {}) },
    status: e.status as ContentfulStatusCode,
  };
}


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
