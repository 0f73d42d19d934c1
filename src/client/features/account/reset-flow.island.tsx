import { NewPasswordForm } from './new-password-form';
import { ResetRequestForm } from './reset-request-form';

/** /users/reset (request a link) and /users/reset/:token (choose the new password). */
export default function ResetFlow({ token, email }: { token: string | null; email: string }) {
  if (token) return <NewPasswordForm idPrefix="reset" token={token} />;
  return <ResetRequestForm idPrefix="reset" initialLogin={email} />;
}
