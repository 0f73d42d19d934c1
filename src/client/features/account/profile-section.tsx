import type { FormEvent, ReactNode } from 'react';
import { FormError } from '../../ui/form';

// The parts every section of the profile settings is made of.

/** A section of the settings with its heading (headingId labels it). */
export function PfSection({ headingId, title, id, danger, children }: { headingId: string; title: string; id?: string; danger?: boolean; children: ReactNode }) {
  return (
    <section className={danger ? 'pf-section pf-danger' : 'pf-section'} id={id} aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      {children}
    </section>
  );
}

/**
 * A settings form: its fields (children), the general error and the submit button. While busy the
 * button is aria-disabled, not disabled: a disabled button loses the keyboard focus to the body.
 */
export function PfForm({ onSubmit, busy, general, submitLabel, children }: { onSubmit: (e: FormEvent) => void; busy: boolean; general: string | null; submitLabel: string; children: ReactNode }) {
  return (
    <form className="pf-form" onSubmit={(e) => (busy ? e.preventDefault() : onSubmit(e))} noValidate>
      {children}
      <FormError text={general} />
      <button type="submit" className="btn btn-primary" aria-disabled={busy || undefined}>
        {submitLabel}
      </button>
    </form>
  );
}
