import type { ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';

// A labelled textarea and select for the form kit (form.tsx's Field is one input): the same
// frame (label, hint, error with role=alert, aria-describedby) and classes.

function described(id: string, error?: string | null, hint?: ReactNode): string | undefined {
  return [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined;
}

function Frame({ id, label, error, hint, name, children }: { id: string; label: string; error?: string | null; hint?: ReactNode; name?: string; children: ReactNode }) {
  return (
    <div className={error ? 'field has-error' : 'field'} data-field={name}>
      <label htmlFor={id}>{label}</label>
      <div className="field-control">{children}</div>
      {error && (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
      {hint && (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
    </div>
  );
}

type Common = { id: string; label: string; error?: string | null; hint?: ReactNode };

export function TextAreaField({ id, label, error, hint, ...input }: Common & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'>) {
  return (
    <Frame id={id} label={label} error={error} hint={hint} name={input.name}>
      <textarea id={id} className="field-textarea" rows={5} aria-invalid={error ? true : undefined} aria-describedby={described(id, error, hint)} {...input} />
    </Frame>
  );
}

export function SelectField({
  id,
  label,
  error,
  hint,
  options,
  ...input
}: Common & { options: { value: string; label: string }[] } & Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'>) {
  return (
    <Frame id={id} label={label} error={error} hint={hint} name={input.name}>
      <select id={id} className="field-select" aria-invalid={error ? true : undefined} aria-describedby={described(id, error, hint)} {...input}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Frame>
  );
}
