import { Island } from '../../components/island';
import LoginScreen from '../../islands/login-screen';
import { useT } from '../../state/context';
import { AuthCard } from './auth-card';

/** /login and /sessions/new. */
export function LoginPage({ redirect }: { redirect: string | null }) {
  const t = useT();
  return (
    <AuthCard page="login" title={t('auth.login.title')} lead={t('auth.login.lead')}>
      <Island name="LoginScreen" component={LoginScreen} props={{ redirect }} />
    </AuthCard>
  );
}
