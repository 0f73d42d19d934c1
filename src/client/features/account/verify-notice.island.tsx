import { useState } from 'react';
import { LoginBox } from './login-box';
import { FormAlert, SubmitButton } from '../../ui/form';
import { errorText } from '../../ui/error-text';
import { link, Rich } from '../../ui/rich';
import { api, ApiFailure } from '../../lib/api';
import { useSnap, useT } from '../../state/context';

/** /verify: explains, shows the address, sends the link again; visitors get the login form. */
export default function VerifyNotice() {
  const snap = useSnap();
  const t = useT();
  const [loading, setLoading] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const user = snap.user;

  if (!user) {
    return (
      <div data-state="login">
        <FormAlert kind="info">{t('auth.verify.loginFirst')}</FormAlert>
        <LoginBox idPrefix="verify-login" />
      </div>
    );
  }
  if (user.is_verified) {
    return (
      <div data-state="verified">
        <FormAlert kind="success">{t('auth.verify.verified', { email: user.email })}</FormAlert>
        <a className="btn btn-primary" href="/">
          {t('auth.common.home')}
        </a>
      </div>
    );
  }

  async function send() {
    if (loading || !user) return;
    setLoading(true);
    setResult(null);
    try {
      await api().post('user/reset_email');
      setResult({ ok: true, text: t('auth.verify.sent', { email: user.email }) });
    } catch (e) {
      const code = e instanceof ApiFailure && e.status === 429 ? 'too_many_attempts' : 'unknown_error';
      setResult({ ok: false, text: errorText(t, code) });
    } finally {
      setLoading(false);
    }
  }

  return (
    <div className="verify-notice" data-state="unverified">
      <p>{t('auth.verify.text', { email: user.email })}</p>
      <p className="verify-address" data-testid="verify-email">
        {user.email}
      </p>
      <p className="muted">{t('auth.verify.hint')}</p>
      {result && (
        <FormAlert kind={result.ok ? 'success' : 'error'} testId="verify-result">
          {result.text}
        </FormAlert>
      )}
      <form
        method="post"
        onSubmit={(e) => {
          e.preventDefault();
          void send();
        }}
      >
        <SubmitButton loading={loading}>{t('auth.verify.send')}</SubmitButton>
      </form>
      <p className="small">
        <Rich text={t('auth.verify.change')} parts={{ change: link('/users/profile/settings') }} />
      </p>
    </div>
  );
}
