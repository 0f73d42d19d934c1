import { useT } from '../../state/context';
import { Icon } from '../../ui/icon';
import { LinkButton } from '../../ui/link-button';

// The age check's own pages: the answer of a failed check, an invalid or expired callback, and
// the sandbox provider's page (development).

interface Action {
  href: string;
  label: string;
  action?: string;
}

function AvsCard(props: { icon: 'warning' | 'person'; tone?: 'error'; badge?: string; title: string; lead: string; details?: string; actions: [Action, Action]; note?: string }) {
  const [primary, secondary] = props.actions;
  return (
    <section className={props.tone === 'error' ? 'avs-page avs-error' : 'avs-page'}>
      <div className="avs-icon" aria-hidden="true">
        <Icon name={props.icon} size={48} />
      </div>
      {props.badge && <p className="avs-badge">{props.badge}</p>}
      <h1>{props.title}</h1>
      <p className="lead">{props.lead}</p>
      {props.details && <p className="muted">{props.details}</p>}
      <div className="avs-actions">
        <LinkButton kind="primary" href={primary.href} data-action={primary.action}>{primary.label}</LinkButton>
        <LinkButton kind="outline" href={secondary.href} data-action={secondary.action}>{secondary.label}</LinkButton>
      </div>
      {props.note && <p className="muted small">{props.note}</p>}
    </section>
  );
}

export function FailedPage({ retryHref, target }: { retryHref: string; target: string }) {
  const t = useT();
  const actions: [Action, Action] = [
    { href: retryHref, label: t('avs.failed.retry'), action: 'avs-retry' },
    { href: target, label: t('avs.failed.back') },
  ];
  return <AvsCard icon="warning" tone="error" title={t('avs.failed.title')} lead={t('avs.failed.text')} actions={actions} note={t('avs.failed.hint')} />;
}

export function InvalidPage() {
  const t = useT();
  const actions: [Action, Action] = [
    { href: '/avs?kjm=0&target=%2F', label: t('avs.invalid.restart') },
    { href: '/', label: t('avs.invalid.home') },
  ];
  return <AvsCard icon="warning" tone="error" title={t('avs.invalid.title')} lead={t('avs.invalid.text')} actions={actions} />;
}

export function SandboxPage({ passHref, failHref, kjm }: { passHref: string; failHref: string; kjm: boolean }) {
  const t = useT();
  const actions: [Action, Action] = [
    { href: passHref, label: t('avs.sandbox.pass'), action: 'avs-pass' },
    { href: failHref, label: t('avs.sandbox.fail'), action: 'avs-fail' },
  ];
  return (
    <AvsCard
      icon="person"
      badge={t('avs.sandbox.badge')}
      title={t('avs.sandbox.title')}
      lead={t('avs.sandbox.text')}
      details={t(kjm ? 'avs.sandbox.levelKjm' : 'avs.sandbox.levelBasic')}
      actions={actions}
      note={t('avs.sandbox.note')}
    />
  );
}
