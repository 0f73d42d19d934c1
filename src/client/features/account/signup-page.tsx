import { Island } from '../../ui/island';
import RegisterScreen from './register-page.island';
import { useT } from '../../state/context';
import type { RegisterTab } from './register-screen';
import { AuthCard } from '../../ui/card-page';
import type { PostedFailure } from '../../ui/form';

/** /users/signup and /users/signup/coupon/:code: registration and login tabs. */
export function SignupPage({ email, code, tab, failure = null }: { email: string; code: string; tab: RegisterTab; failure?: PostedFailure | null }) {
  const t = useT();
  return (
    <AuthCard page="signup" title={t('auth.register.title')} titleId="signup-title" lead={t('auth.register.lead')}>
      <Island name="RegisterScreen" component={RegisterScreen} props={{ email, code, tab, failure }} />
    </AuthCard>
  );
}
