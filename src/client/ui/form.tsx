import { useState, type ChangeEvent, type FormEvent, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';
import { useT } from '../state/context';
import { translateFailure } from './api-failure';
import { CsrfField } from './csrf-field';

// The form kit: one Field and a hook for forms that write through the API (its errors as text: api-failure.ts).

/** A form's general error (no single field is at fault), announced when it appears. */
export function FormError({ text }: { text: string | null }) {
  if (!text) return null;
  return (
    <p className="pf-error" role="alert">
      {text}
    </p>
  );
}

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

export type SpinnerSize = 14 | 16 | 18 | 22 | 28;

/** A spinner; sizes are classes (accounts.css), since the CSP allows no style attributes. */
export function Spinner({ size = 18 }: { size?: SpinnerSize }) {
  return <span className={size === 18 ? 'spinner' : `spinner spinner-${size}`} aria-hidden="true" />;
}

export function SubmitButton({ loading, children, className = '' }: { loading: boolean; children: ReactNode; className?: string }) {
  const t = useT();
  return (
    <button type="submit" className={`btn btn-primary btn-block ${className}`} disabled={loading} aria-busy={loading} data-loading={loading || undefined}>
      {loading && <Spinner />}
      <span>{children}</span>
      {loading && <span className="visually-hidden">{t('auth.common.working')}</span>}
    </button>
  );
}

export type AlertKind = 'error' | 'info' | 'success';

export function FormAlert({ kind, children, testId, alertRef }: { kind: AlertKind; children: ReactNode; testId?: string; alertRef?: Ref<HTMLDivElement> }) {
  const icon = kind === 'success' ? 'check' : kind === 'error' ? 'warning' : 'info';
  return (
    <div ref={alertRef} className={`form-alert form-alert-${kind}`} role={kind === 'error' ? 'alert' : 'status'} data-testid={testId} tabIndex={-1}>
      <AuthIcon name={icon} />
      <div>{children}</div>
    </div>
  );
}

/** Value and change handler of a text input kept in state. */
export const bind = (value: string, set: (value: string) => void) => ({ value, onChange: (e: ChangeEvent<HTMLInputElement>) => set(e.target.value) });

/** For names and addresses: no capital first letter, no spelling marks. */
export const VERBATIM = { autoCapitalize: 'none', spellCheck: false } as const;

/** The animated check mark of a finished step (password saved, address confirmed). */
export function DoneCheck() {
  return (
    <svg className="check-anim" viewBox="0 0 52 52" width="72" height="72" aria-hidden="true">
      <circle className="check-anim-circle" cx="26" cy="26" r="24" fill="none" />
      <path className="check-anim-path" fill="none" d="M14 27l8 8 16-17" />
    </svg>
  );
}

type FieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> & {
  id: string;
  label: string;
  error?: string | null;
  hint?: ReactNode;
  /** Shown under the input (e.g. the voucher check). */
  extra?: ReactNode;
  /** Adds a show/hide toggle for passwords. */
  revealable?: boolean;
  inputRef?: Ref<HTMLInputElement>;
  optionalLabel?: string;
};

/** A labelled input with hint and error (role=alert), wired with aria-describedby. */
export function Field({ id, label, error, hint, extra, revealable, inputRef, optionalLabel, type = 'text', ...input }: FieldProps) {
  const t = useT();
  const [reveal, setReveal] = useState(false);
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const described = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={error ? 'field has-error' : 'field'} data-field={input.name}>
      <label htmlFor={id}>
        {label}
        {optionalLabel && <span className="field-optional"> ({optionalLabel})</span>}
      </label>
      <div className="field-control">
        <input
          id={id}
          ref={inputRef}
          type={revealable && reveal ? 'text' : type}
          aria-invalid={error ? true : undefined}
          aria-describedby={described}
          {...input}
        />
        {revealable && (
          <button
            type="button"
            className="field-reveal"
            onClick={() => setReveal((r) => !r)}
            aria-label={reveal ? t('auth.common.hidePassword') : t('auth.common.showPassword')}
            aria-pressed={reveal}
            aria-controls={id}
          >
            <AuthIcon name={reveal ? 'eyeOff' : 'eye'} />
          </button>
        )}
      </div>
      {extra}
      {error && (
        <p className="field-error" id={errorId} role="alert">
          {error}
        </p>
      )}
      {hint && (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      )}
    </div>
  );
}

const AUTH_PATHS = {
  check: 'M9 16.17 4.83 12l-1.42 1.41L9 19 21 7l-1.41-1.41z',
  info: 'M11 7h2v2h-2zm0 4h2v6h-2zm1-9C6.48 2 2 6.48 2 12s4.48 10 10 10 10-4.48 10-10S17.52 2 12 2zm0 18c-4.41 0-8-3.59-8-8s3.59-8 8-8 8 3.59 8 8-3.59 8-8 8z',
  eye: 'M12 4.5C7 4.5 2.73 7.61 1 12c1.73 4.39 6 7.5 11 7.5s9.27-3.11 11-7.5c-1.73-4.39-6-7.5-11-7.5zM12 17a5 5 0 1 1 0-10 5 5 0 0 1 0 10zm0-8a3 3 0 1 0 0 6 3 3 0 0 0 0-6z',
  eyeOff:
    'M12 7a5 5 0 0 1 5 5c0 .65-.13 1.26-.36 1.83l2.92 2.92A11.82 11.82 0 0 0 23 12c-1.73-4.39-6-7.5-11-7.5-1.4 0-2.74.25-3.98.7l2.16 2.16C10.74 7.13 11.35 7 12 7zM2 4.27l2.28 2.28.46.46A11.8 11.8 0 0 0 1 12c1.73 4.39 6 7.5 11 7.5 1.55 0 3.03-.3 4.38-.84l.42.42L19.73 22 21 20.73 3.27 3 2 4.27zM7.53 9.8l1.55 1.55A2.82 2.82 0 0 0 9 12a3 3 0 0 0 3 3c.22 0 .44-.03.65-.08l1.55 1.55A4.97 4.97 0 0 1 7 12c0-.79.2-1.53.53-2.2zm4.31-.78 3.15 3.15.02-.16a3 3 0 0 0-3-3l-.17.01z',
  warning: 'M1 21h22L12 2 1 21zm12-3h-2v-2h2v2zm0-4h-2v-4h2v4z',
  mail: 'M20 4H4c-1.1 0-1.99.9-1.99 2L2 18c0 1.1.9 2 2 2h16c1.1 0 2-.9 2-2V6c0-1.1-.9-2-2-2zm0 4-8 5-8-5V6l8 5 8-5v2z',
  lock: 'M18 8h-1V6A5 5 0 0 0 7 6v2H6c-1.1 0-2 .9-2 2v10c0 1.1.9 2 2 2h12c1.1 0 2-.9 2-2V10c0-1.1-.9-2-2-2zm-6 9a2 2 0 1 1 0-4 2 2 0 0 1 0 4zm3.1-9H8.9V6a3.1 3.1 0 0 1 6.2 0v2z',
  logout: 'M17 7l-1.41 1.41L18.17 11H8v2h10.17l-2.58 2.58L17 17l5-5zM4 5h8V3H4c-1.1 0-2 .9-2 2v14c0 1.1.9 2 2 2h8v-2H4V5z',
  arrowDown: 'M7 10l5 5 5-5z',
} as const;

export type AuthIconName = keyof typeof AUTH_PATHS;

/** Small inline icons of the account screens (kept here so the shared icon set stays small). */
export function AuthIcon({ name, size = 20 }: { name: AuthIconName; size?: number }) {
  return (
    <svg className="icon" width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d={AUTH_PATHS[name]} fill="currentColor" />
    </svg>
  );
}

/** A required password field with the show/hide toggle. */
export function PasswordField(props: Omit<FieldProps, 'type' | 'revealable' | 'required'>) {
  return <Field type="password" revealable required {...props} />;
}

/**
 * A form the server refused after the browser posted it without script: the general error code
 * (or null), the first error code of each field, and the values to show again (never a password).
 */
export interface PostedFailure {
  code: string | null;
  fields: Record<string, string>;
  values: Record<string, string>;
  /** A throttled form: seconds until it may be sent again. */
  retryAfter?: number;
}

/**
 * An account form (posted by script; `name` is its data-form), with an optional lead line.
 * With `action` it also works without script: the browser posts it there with the CSRF token.
 */
export function AuthForm({ name, lead, action, onSubmit, children }: { name: string; lead?: string; action?: string; onSubmit: (e: FormEvent) => void; children: ReactNode }) {
  return (
    <form className="auth-form" method="post" action={action} onSubmit={onSubmit} noValidate data-form={name}>
      {action && <CsrfField />}
      {lead && <p className="auth-lead">{lead}</p>}
      {children}
    </form>
  );
}
