import { useState, type FormEvent } from 'react';
import { useT } from '../state/context';
import { translateFailure } from './api-errors';

export type Errors = Record<string, string>;

/**
 * A form that writes through the API: its values, the field errors (the client's checks first,
 * then the server's field errors, translated), a general error and the busy flag.
 */
export function useApiForm<V extends Record<string, string>>(initial: V) {
  const t = useT();
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Errors>({});
  const [general, setGeneral] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  /** Value, error and change handler of one field, to spread on a Field. */
  const field = (key: keyof V & string) => ({
    value: values[key],
    error: errors[key],
    onChange: (e: { target: { value: string } }) => setValues((v) => ({ ...v, [key]: e.target.value })),
  });

  /**
   * The submit handler: runs `send` when `check` finds nothing; a failure shows the server's
   * errors of `fields` (after `adjust`) or its general message.
   */
  const submit =
    (check: (v: V) => Errors, send: (v: V) => Promise<void>, fields: readonly string[], adjust?: (errors: Errors) => void) => async (e: FormEvent) => {
      e.preventDefault();
      const found = check(values);
      setErrors(found);
      setGeneral(null);
      if (Object.keys(found).length) return;
      setBusy(true);
      try {
        await send(values);
      } catch (err) {
        const failure = translateFailure(t, err, fields);
        adjust?.(failure.fields);
        setErrors(failure.fields);
        setGeneral(failure.general);
      } finally {
        setBusy(false);
      }
    };

  return { values, errors, general, busy, field, submit, reset: () => setValues(initial) };
}
