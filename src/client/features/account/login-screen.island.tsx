import { safeRedirect } from '../../../shared/safe-redirect';
import { go } from './auth-actions';
import { LoginBox } from './login-box';

/** The login page's form (with the reset switch and Google); a login goes on to `redirect`. */
export default function LoginScreen({ redirect, mode = 'login' }: { redirect: string | null; mode?: 'login' | 'reset' }) {
  return <LoginBox idPrefix="page-login" signupLink initialMode={mode} onSuccess={() => go(safeRedirect(redirect, location.origin, '/'))} />;
}
