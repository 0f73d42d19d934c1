import { go } from './auth-actions';
import { RegisterScreen as Screen, type RegisterTab } from './register-screen';
import type { PostedFailure } from '../../ui/form';

/** The sign-up page: registration and login tabs; a login from here goes home. */
export default function RegisterScreen({ email, code, tab, failure = null }: { email: string; code: string; tab: RegisterTab; failure?: PostedFailure | null }) {
  return <Screen idPrefix="signup" initialTab={tab} email={email} code={code} labelledBy="signup-title" failure={failure} onLogin={() => go('/')} />;
}
