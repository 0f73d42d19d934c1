import { useState } from 'react';
import { PASSWORD_MIN } from '../../../shared/account-rules';
import type { User } from '../../../shared/session';
import { api } from '../../lib/api';
import { showSnackbar } from '../../state/actions';
import { useStore, useT } from '../../state/context';
import { type Errors, Field, useApiForm } from '../../ui/form';
import { PfForm, PfSection } from './profile-section';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A new e-mail address, confirmed with the current password; the link goes to the new address. */
export function EmailSection() {
  const store = useStore();
  const t = useT();
  const form = useApiForm({ email: '', current_password: '' });
  const [sentTo, setSentTo] = useState<string | null>(null);

  const submit = form.submit(
    (v) => {
      const found: Errors = {};
      if (!EMAIL.test(v.email.trim())) found.email = t('errors.email_invalid');
      if (!v.current_password) found.current_password = t('errors.required');
      return found;
    },
    async (v) => {
      const res = await api().put<{ user: User }>('user/update', { email: v.email.trim(), current_password: v.current_password });
      store.user = res.user;
      setSentTo(res.user.email);
      form.reset();
    },
    ['email', 'current_password'],
  );

  return (
    <PfSection headingId="pf-email-h" title={t('profile.settings.email.title')}>
      {sentTo && (
        <p className="pf-notice" role="status" data-testid="email-changed">
          {t('profile.settings.email.done', { email: sentTo })}
        </p>
      )}
      <PfForm onSubmit={submit} busy={form.busy} general={form.general} submitLabel={t('profile.settings.email.submit')}>
        <Field id="pf-new-email" label={t('profile.settings.email.new')} type="email" autoComplete="email" {...form.field('email')} />
        <Field id="pf-email-password" label={t('profile.settings.currentPassword')} type="password" autoComplete="current-password" {...form.field('current_password')} />
      </PfForm>
    </PfSection>
  );
}

/** A new password (twice), confirmed with the current one. */
export function PasswordSection() {
  const store = useStore();
  const t = useT();
  const form = useApiForm({ password: '', password_confirm: '', current_password: '' });

  const submit = form.submit(
    (v) => {
      const found: Errors = {};
      if (v.password.length < PASSWORD_MIN) found.password = t('errors.password_too_short');
      else if (v.password !== v.password_confirm) found.password_confirm = t('errors.password_mismatch');
      if (!v.current_password) found.current_password = t('errors.required');
      return found;
    },
    async (v) => {
      const res = await api().put<{ user: User }>('user/update', v);
      store.user = res.user;
      form.reset();
      showSnackbar(store, t('profile.settings.password.done'));
    },
    ['current_password', 'password', 'password_confirm'],
    // A wrong current password is reported on both; it belongs to the current password field.
    (found) => {
      if (found.current_password && found.password === found.current_password) delete found.password;
    },
  );

  return (
    <PfSection headingId="pf-pass-h" title={t('profile.settings.password.title')}>
      <PfForm onSubmit={submit} busy={form.busy} general={form.general} submitLabel={t('profile.settings.password.submit')}>
        <Field id="pf-new-password" label={t('profile.settings.password.new')} type="password" autoComplete="new-password" {...form.field('password')} />
        <Field id="pf-new-password2" label={t('profile.settings.password.confirm')} type="password" autoComplete="new-password" {...form.field('password_confirm')} />
        <Field id="pf-password-current" label={t('profile.settings.currentPassword')} type="password" autoComplete="current-password" {...form.field('current_password')} />
      </PfForm>
    </PfSection>
  );
}
