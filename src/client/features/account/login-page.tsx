import { Island } from '../../ui/island';
import LoginScreen from './login-screen.island';
import { useT } from '../../state/context';
import { AuthCard } from '../../ui/card-page';
import type { PostedFailure } from '../../ui/form';

/** /login and /sessions/new. */
export function LoginPage({ redirect, failure = null }: { redirect: string | null; failure?: PostedFailure | null }) {
  const t = useT();
  return (
    <AuthCard page="login" title={t('auth.login.title')} lead={t('auth.login.lead')}>
      <Island name="LoginScreen" component={LoginScreen} props={{ redirect, failure }} />
    </AuthCard>
  );
}
