import type { InputHTMLAttributes } from 'react';

/** A labelled input with its error line (aria-invalid and aria-describedby wired). */
export function Field({
  id,
  label,
  error,
  ...input
}: { id: string; label: string; error?: string | null } & InputHTMLAttributes<HTMLInputElement>) {
  const errId = `${id}-error`;
  return (
    <div className={error ? 'pf-field pf-invalid' : 'pf-field'}>
      <label htmlFor={id}>{label}</label>
      <input id={id} aria-invalid={error ? true : undefined} aria-describedby={error ? errId : undefined} {...input} />
      {error && (
        <p className="pf-error" id={errId} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
