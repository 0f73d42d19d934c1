import { safeRedirect } from '../../../shared/safe-redirect';
import { go } from './auth-actions';
import { LoginBox } from './login-box';
import type { PostedFailure } from '../../ui/form';

/** The login page's form (with the reset switch and Google); a login goes on to `redirect`. */
export default function LoginScreen({ redirect, mode = 'login', failure = null }: { redirect: string | null; mode?: 'login' | 'reset'; failure?: PostedFailure | null }) {
  return (
    <LoginBox
      idPrefix="page-login"
      signupLink
      initialMode={mode}
      redirect={redirect}
      failure={failure}
      autoFocus={!!failure}
      onSuccess={() => go(safeRedirect(redirect, location.origin, '/'))}
    />
  );
}
