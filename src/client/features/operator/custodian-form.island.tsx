import { useState } from 'react';
import { CUSTODIAN_ADDRESS_MAX, CUSTODIAN_NAME_MAX, type Custodian } from '../../../shared/records';
import { api } from '../../lib/api';
import { useT } from '../../state/context';
import { TextAreaField } from '../../ui/choice-fields';
import { Field, FormError, SubmitButton, useApiForm, type Errors } from '../../ui/form';

/** The custodian of records named on the public 2257 page: name and address (each change audited). */
export default function CustodianForm({ custodian }: { custodian: Custodian }) {
  const t = useT();
  const [saved, setSaved] = useState(false);
  const form = useApiForm({ name: custodian.name, address: custodian.address });
  const submit = form.submit(
    (v): Errors => {
      const out: Errors = {};
      const name = v.name.trim().length;
      const address = v.address.trim().length;
      if (name < 3) out.name = t('errors.too_short');
      else if (name > CUSTODIAN_NAME_MAX) out.name = t('errors.too_long');
      if (address < 3) out.address = t('errors.too_short');
      else if (address > CUSTODIAN_ADDRESS_MAX) out.address = t('errors.too_long');
      return out;
    },
    async (v) => {
      setSaved(false);
      await api().put('operator/records/custodian', { name: v.name.trim(), address: v.address.trim() });
      setSaved(true);
    },
    ['name', 'address'],
  );
  return (
    <form className="pf-form operator-form" onSubmit={submit} noValidate data-testid="custodian-form">
      <Field id="custodian-name" name="name" label={t('operator.records.custodianName')} maxLength={CUSTODIAN_NAME_MAX} {...form.field('name')} />
      <TextAreaField id="custodian-address" name="address" label={t('operator.records.custodianAddress')} rows={3} maxLength={CUSTODIAN_ADDRESS_MAX} {...form.field('address')} />
      <FormError text={form.general} />
      {saved && (
        <p className="form-note" role="status" data-testid="custodian-saved">
          {t('operator.records.custodianSaved')}
        </p>
      )}
      <SubmitButton loading={form.busy}>{t('operator.records.custodianSubmit')}</SubmitButton>
    </form>
  );
}
