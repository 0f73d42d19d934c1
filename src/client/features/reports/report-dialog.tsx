import { useId, useRef, useState } from 'react';
import { REPORT_CATEGORIES, REPORT_TEXT_MAX, REPORT_TEXT_MIN, type ReportTarget } from '../../../shared/reports';
import { api } from '../../lib/api';
import { useSnap, useT } from '../../state/context';
import { SelectField, TextAreaField } from '../../ui/choice-fields';
import { Field, FormError, SubmitButton, useApiForm, type Errors } from '../../ui/form';
import { useModal } from '../../ui/use-modal';

// Reports of content (issue 29 point 3): one dialog for a show, a chat line, a message, a video
// or a gallery. The reason, what is wrong, and for a visitor an optional address for the outcome;
// the answer says the report was received. Modal (focus inside, Escape cancels, focus back).

export interface ReportProps {
  kind: ReportTarget;
  targetId: string;
  showId?: number;
  /** What the reporter sees (a chat line's nick and text), quoted in the dialog. */
  quote?: string;
}

function ReportDialog({ kind, targetId, showId, quote, onClose }: ReportProps & { onClose: () => void }) {
  const t = useT();
  const snap = useSnap();
  const uid = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const [received, setReceived] = useState<number | null>(null);
  const form = useApiForm({ category: 'illegal_content', text: '', email: '' });
  useModal(true, { rootRef, onEscape: onClose });
  const member = !!snap.user;
  const submit = form.submit(
    (v): Errors => {
      const n = v.text.trim().length;
      return n < REPORT_TEXT_MIN ? { text: t('errors.too_short') } : n > REPORT_TEXT_MAX ? { text: t('errors.too_long') } : {};
    },
    async (v) => {
      const body = { target_kind: kind, target_id: targetId, show_id: showId, category: v.category, text: v.text.trim(), email: member ? undefined : v.email.trim() || undefined };
      const res = await api().post<{ report: { id: number } }>('reports', body);
      setReceived(res.report.id);
    },
    ['category', 'text', 'email'],
  );
  return (
    <div ref={rootRef} className="modal-backdrop" onClick={(e) => e.target === e.currentTarget && onClose()}>
      <div className="dialog report-dialog" role="dialog" aria-modal="true" aria-labelledby={`${uid}-title`} data-testid="report-dialog">
        <h2 id={`${uid}-title`}>{t(`reports.title.${kind}`)}</h2>
        {received !== null ? (
          <>
            <p role="status" data-testid="report-received">
              {t('reports.received', { id: received })} {member || form.values.email.trim() ? t('reports.received_mail') : ''}
            </p>
            <div className="dialog-actions">
              <button type="button" className="btn btn-primary" onClick={onClose}>
                {t('reports.close')}
              </button>
            </div>
          </>
        ) : (
          <form className="pf-form" onSubmit={submit} noValidate>
            <p className="muted">{t('reports.lead')}</p>
            {quote && (
              <blockquote className="report-quote" data-testid="report-quote">
                <span className="muted">{t('reports.quoted')}</span> {quote}
              </blockquote>
            )}
            <SelectField
              id={`${uid}-category`}
              name="category"
              label={t('reports.category')}
              options={REPORT_CATEGORIES.map((c) => ({ value: c, label: t(`reports.categories.${c}`) }))}
              {...form.field('category')}
            />
            <TextAreaField id={`${uid}-text`} name="text" label={t('reports.text')} rows={4} maxLength={REPORT_TEXT_MAX} {...form.field('text')} />
            {!member && <Field id={`${uid}-email`} name="email" type="email" autoComplete="email" label={t('reports.email')} hint={t('reports.email_hint')} {...form.field('email')} />}
            <FormError text={form.general} />
            <div className="dialog-actions">
              <button type="button" className="btn btn-text" onClick={onClose}>
                {t('reports.cancel')}
              </button>
              <SubmitButton loading={form.busy}>{t('reports.submit')}</SubmitButton>
            </div>
          </form>
        )}
      </div>
    </div>
  );
}

/** A report button and its dialog; `compact`: a small flag (a chat line, a message) with the text for assistive technology. */
export function ReportButton(props: ReportProps & { compact?: boolean }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const label = t(`reports.targets.${props.kind}`);
  return (
    <>
      <button
        type="button"
        className={props.compact ? 'report-flag' : 'btn btn-text report-button'}
        aria-label={props.compact ? label : undefined}
        title={label}
        aria-haspopup="dialog"
        data-testid={`report-${props.kind}`}
        onClick={() => setOpen(true)}
      >
        {props.compact ? <span aria-hidden="true">⚑</span> : `⚑ ${label}`}
      </button>
      {open && <ReportDialog {...props} onClose={() => setOpen(false)} />}
    </>
  );
}
