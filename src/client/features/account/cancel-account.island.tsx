import { api } from '../../lib/api';
import { confirmDialog } from '../../state/actions';
import { useStore, useT } from '../../state/context';
import { type Errors, Field, FormError, useApiForm } from '../../ui/form';

/** The password confirmation that deletes the account (POST user/cancel), then the goodbye page. */
export default function CancelAccount() {
  const store = useStore();
  const t = useT();
  const form = useApiForm({ password: '' });

  const submit = form.submit(
    (v): Errors => (v.password ? {} : { password: t('errors.required') }),
    async ({ password }) => {
      const ok = await confirmDialog(store, {
        title: t('profile.cancel.confirmTitle'),
        text: t('profile.cancel.confirmText'),
        confirmLabel: t('profile.cancel.submit'),
      });
      if (!ok) return;
      await api().post('user/cancel', { password });
      store.user = null;
      location.assign('/users/cancel_success');
    },
    ['password'],
  );

  return (
    <form className="pf-form cancel-form" onSubmit={submit} noValidate>
      <Field id="cancel-password" label={t('profile.cancel.password')} type="password" autoComplete="current-password" {...form.field('password')} />
      <FormError text={form.general} />
      <button type="submit" className="btn btn-primary" disabled={form.busy} data-action="cancel-submit">
        {t('profile.cancel.submit')}
      </button>
    </form>
  );
}
