import { useState, type FormEvent } from 'react';
import { translateFailure } from '../../ui/api-errors';
import { Field } from '../../ui/plain-field';
import { api } from '../../lib/api';
import { confirmDialog } from '../../state/actions';
import { useStore, useT } from '../../state/context';

/** The password confirmation that deletes the account (POST user/cancel), then the goodbye page. */
export default function CancelAccount() {
  const store = useStore();
  const t = useT();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [general, setGeneral] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setGeneral(null);
    if (!password) {
      setError(t('errors.required'));
      return;
    }
    setError(null);
    const ok = await confirmDialog(store, {
      title: t('profile.cancel.confirmTitle'),
      text: t('profile.cancel.confirmText'),
      confirmLabel: t('profile.cancel.submit'),
    });
    if (!ok) return;
    setBusy(true);
    try {
      await api().post('user/cancel', { password });
      store.user = null;
      location.assign('/users/cancel_success');
    } catch (err) {
      const f = translateFailure(t, err, ['password']);
      setError(f.fields.password ?? null);
      setGeneral(f.general);
      setBusy(false);
    }
  }

  return (
    <form className="pf-form cancel-form" onSubmit={submit} noValidate>
      <Field
        id="cancel-password"
        label={t('profile.cancel.password')}
        type="password"
        autoComplete="current-password"
        value={password}
        error={error}
        onChange={(e) => setPassword(e.target.value)}
      />
      {general && (
        <p className="pf-error" role="alert">
          {general}
        </p>
      )}
      <button type="submit" className="btn btn-primary" disabled={busy} data-action="cancel-submit">
        {t('profile.cancel.submit')}
      </button>
    </form>
  );
}
