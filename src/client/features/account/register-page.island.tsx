import { go } from './auth-actions';
import { RegisterScreen as Screen, type RegisterTab } from './register-screen';

/** The sign-up page: registration and login tabs; a login from here goes home. */
export default function RegisterScreen({ email, code, tab }: { email: string; code: string; tab: RegisterTab }) {
  return <Screen idPrefix="signup" initialTab={tab} email={email} code={code} labelledBy="signup-title" onLogin={() => go('/')} />;
}
