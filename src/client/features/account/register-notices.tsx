import type { Ref } from 'react';
import { useT } from '../../state/context';
import { FormAlert } from '../../ui/form';
import { link, Rich } from '../../ui/rich';

/** What the registration answered beside field errors. */
export type Notice = { kind: 'exists'; email: string } | { kind: 'blocked' } | { kind: 'error'; text: string } | null;

export function RegisterNotice({ notice, alertRef }: { notice: Notice; alertRef: Ref<HTMLDivElement> }) {
  const t = useT();
  if (notice?.kind === 'exists') {
    return (
      <FormAlert kind="info" testId="register-exists" alertRef={alertRef}>
        <Rich text={t('auth.register.exists')} parts={{ reset: link(`/users/reset?email=${encodeURIComponent(notice.email)}`) }} />
      </FormAlert>
    );
  }
  if (notice?.kind === 'blocked') {
    return (
      <FormAlert kind="error" testId="register-blocked" alertRef={alertRef}>
        <Rich text={t('auth.register.blocked')} parts={{ contact: link('/contact#contact') }} />
      </FormAlert>
    );
  }
  if (notice?.kind === 'error') {
    return (
      <FormAlert kind="error" testId="register-error" alertRef={alertRef}>
        {notice.text}
      </FormAlert>
    );
  }
  return null;
}

/** "Did you mean …?" under the e-mail field, with a button that applies the fix. */
export function MailSuggestion({ suggestion, onApply }: { suggestion: string; onApply: () => void }) {
  const t = useT();
  return (
    <p className="field-suggestion" data-testid="mail-suggestion">
      <Rich
        text={t('auth.register.didYouMean', { suggestion })}
        parts={{
          fix: (inner) => (
            <button type="button" className="link-btn" data-action="apply-suggestion" onClick={onApply}>
              {inner}
            </button>
          ),
        }}
      />
    </p>
  );
}
