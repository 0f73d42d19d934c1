import { Island } from '../../ui/island';
import LogoutPage from './logout-page.island';
import ResetFlow from './reset-flow.island';
import TokenAction, { type TokenMode } from './token-action.island';
import VerifyNotice from './verify-notice.island';
import { useT } from '../../state/context';
import { AuthCard } from '../../ui/card-page';

/** /users/reset and /users/reset/:token. */
export function ResetPage({ token, email }: { token: string | null; email: string }) {
  const t = useT();
  return (
    <AuthCard page={token ? 'reset-password' : 'reset-request'} title={t(token ? 'auth.reset.newTitle' : 'auth.reset.title')}>
      <Island name="ResetFlow" component={ResetFlow} props={{ token, email }} />
      {!token && (
        <p className="auth-switch">
          <a href="/login">{t('auth.common.backToLogin')}</a>
        </p>
      )}
    </AuthCard>
  );
}

const TOKEN_TITLES: Record<TokenMode, string> = {
  activate: 'auth.activate.title',
  email_validate: 'auth.activate.title',
  token_login: 'auth.tokenLogin.title',
};

/** /users/activate, /users/email_validate and /token_login. */
export function TokenPage({ mode, token }: { mode: TokenMode; token: string }) {
  const t = useT();
  return (
    <AuthCard page={mode} title={t(TOKEN_TITLES[mode])}>
      <Island name="TokenAction" component={TokenAction} props={{ mode, token }} />
    </AuthCard>
  );
}

/** /verify. */
export function VerifyPage() {
  const t = useT();
  return (
    <AuthCard page="verify" title={t('auth.verify.title')}>
      <Island name="VerifyNotice" component={VerifyNotice} props={{}} />
    </AuthCard>
  );
}

/** /logout: asks (a button that POSTs); a visitor who is not logged in reads that they are out. */
export function LogoutScreen({ loggedIn }: { loggedIn: boolean }) {
  const t = useT();
  return (
    <AuthCard page="logout" title={t('auth.logout.title')}>
      <Island name="LogoutPage" component={LogoutPage} props={{ loggedIn }} />
    </AuthCard>
  );
}
