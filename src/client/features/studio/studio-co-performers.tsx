import { useEffect, useState } from 'react';
import { INVITE_NAME_MAX, type ShowPerson } from '../../../shared/records';
import { api } from '../../lib/api';
import { useT } from '../../state/context';
import { Field, FormError, SubmitButton, useApiForm, type Errors } from '../../ui/form';

interface Invites {
  people: ShowPerson[];
  invites: { user_name: string; created_at: number }[];
}

/**
 * The show's verified people (2257 records) and co-performers: the performer names a member's
 * account; that member then applies to join the show on /apply, and an operator's approval adds
 * them here (they need no studio login of their own).
 */
export function StudioCoPerformers() {
  const t = useT();
  const [data, setData] = useState<Invites | null>(null);
  const form = useApiForm({ name: '' });
  const load = () =>
    api()
      .get<Invites>('studio/invites')
      .then(setData)
      .catch(() => undefined);
  useEffect(() => void load(), []);
  const submit = form.submit(
    (v): Errors => (v.name.trim() ? {} : { name: t('errors.required') }),
    async ({ name }) => {
      await api().post('studio/invites', { name: name.trim() });
      await load();
      form.reset();
    },
    ['name'],
  );
  return (
    <section className="studio-card studio-co-performers" data-testid="studio-co-performers">
      <h2>{t('studio.coPerformers.title')}</h2>
      <ul className="small" data-testid="studio-verified-people">
        {(data?.people ?? []).map((p) => (
          <li key={p.id}>{p.stage_name}</li>
        ))}
      </ul>
      {data && data.invites.length > 0 && (
        <p className="small muted" data-testid="studio-invites">
          {t('studio.coPerformers.invited', { names: data.invites.map((i) => i.user_name).join(', ') })}
        </p>
      )}
      <form className="pf-form" onSubmit={submit} noValidate data-testid="studio-invite-form">
        <Field id="studio-invite-name" name="name" label={t('studio.coPerformers.name')} hint={t('studio.coPerformers.hint')} maxLength={INVITE_NAME_MAX} {...form.field('name')} />
        <FormError text={form.general} />
        <SubmitButton loading={form.busy}>{t('studio.coPerformers.submit')}</SubmitButton>
      </form>
    </section>
  );
}
