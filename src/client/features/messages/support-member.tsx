import { useState, type ReactElement } from 'react';
import { api } from '../../lib/api';
import { Field, FormError, useApiForm, type Errors } from '../../ui/form';
import type { Snapshot } from 'valtio';
import type { SupportMember as Member } from '../../../shared/inbox';
import { useSnap, useT } from '../../state/context';

// Beside an operator's support thread: the member's account with the latest payments and chats,
// so the payment or chat a member writes about can be found (operators only; the server sends it
// on the support side alone).

function when(locale: string, unix: number): string {
  return new Date(unix * 1000).toLocaleString(locale, { dateStyle: 'short', timeStyle: 'short' });
}

export function SupportMember({ member }: { member: Snapshot<Member> }) {
  const t = useT();
  const { locale } = useSnap();
  return (
    <section className="support-member small" data-testid="support-member" data-user-id={member.id} aria-label={t('inbox.member.title')}>
      <h3>{t('inbox.member.title')}</h3>
      <dl className="support-member-account">
        <dt>{t('inbox.member.id')}</dt>
        <dd data-testid="support-member-id">{member.id}</dd>
        <dt>{t('inbox.member.name')}</dt>
        <dd data-testid="support-member-name">{member.name}</dd>
        <dt>{t('inbox.member.email')}</dt>
        <dd data-testid="support-member-email">
          <a href={`mailto:${member.email}`}>{member.email}</a>
        </dd>
        <dt>{t('inbox.member.coins')}</dt>
        <dd>{member.coins}</dd>
      </dl>
      <MemberList title={t('inbox.member.payments')} empty={t('inbox.member.noPayments')} testId="support-member-payments">
        {member.payments.map((p) => (
          <li key={p.id} data-payment-id={p.id}>
            {t('inbox.member.payment', { id: p.id, coins: p.coins, amount: (p.amount_cents / 100).toFixed(2), currency: p.currency, status: p.status, provider: p.provider })}
            <span className="muted"> · {when(locale, p.at)}</span>
          </li>
        ))}
      </MemberList>
      <MemberList title={t('inbox.member.chats')} empty={t('inbox.member.noChats')} testId="support-member-chats">
        {member.chats.map((c) => (
          <li key={c.id} data-chat-id={c.id}>
            {t('inbox.member.chat', { show: c.show_name, type: c.type, minutes: c.minutes, coins: c.coins, state: c.state })}
            <span className="muted"> · {when(locale, c.at)}</span>
            {c.state === 'ended' && c.coins > 0 && <ChatRefund id={c.id} refunded={!!c.refunded} />}
          </li>
        ))}
      </MemberList>
    </section>
  );
}

/** An ended paid chat's refund (POST operator/refunds, with the reason the audit trail keeps): its coins back to the member. */
function ChatRefund({ id, refunded }: { id: string; refunded: boolean }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const [done, setDone] = useState(refunded);
  const form = useApiForm({ reason: '' });
  const submit = form.submit(
    (v): Errors => (v.reason.trim().length >= 5 ? {} : { reason: t('errors.reason_too_short') }),
    async ({ reason }) => {
      await api().post('operator/refunds', { kind: 'chat', id, reason: reason.trim() });
      setDone(true);
    },
    ['reason'],
  );
  if (done) return <span className="chip" data-testid="chat-refunded">{t('inbox.member.refunded')}</span>;
  if (!open) {
    return (
      <button type="button" className="btn btn-text" onClick={() => setOpen(true)} data-action="chat-refund">
        {t('inbox.member.refund')}
      </button>
    );
  }
  return (
    <form className="support-refund" onSubmit={submit} noValidate>
      <Field id={`refund-${id}`} name="reason" label={t('inbox.member.refundReason')} {...form.field('reason')} />
      <FormError text={form.general} />
      <button type="submit" className="btn btn-primary" disabled={form.busy} data-action="chat-refund-confirm">
        {t('inbox.member.refundConfirm')}
      </button>
    </form>
  );
}

/** A titled list of the member's latest items (children: the li elements), or a line saying there are none. */
function MemberList({ title, empty, testId, children }: { title: string; empty: string; testId: string; children: ReactElement[] }) {
  return (
    <>
      <h4>{title}</h4>
      {children.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <ul className="support-member-list" data-testid={testId}>
          {children}
        </ul>
      )}
    </>
  );
}
