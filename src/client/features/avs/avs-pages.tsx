import type { ReactNode } from 'react';
import { useT } from '../../state/context';
import { Icon } from '../../ui/icon';

// The age check's own pages: the answer of a failed check, an invalid or expired callback, and
// the sandbox provider's page (development).

function AvsCard({ icon, tone, children }: { icon: 'warning' | 'person'; tone?: 'error'; children: ReactNode }) {
  return (
    <section className={tone === 'error' ? 'avs-page avs-error' : 'avs-page'}>
      <div className="avs-icon" aria-hidden="true">
        <Icon name={icon} size={48} />
      </div>
      {children}
    </section>
  );
}

export function FailedPage({ retryHref, target }: { retryHref: string; target: string }) {
  const t = useT();
  return (
    <AvsCard icon="warning" tone="error">
      <h1>{t('avs.failed.title')}</h1>
      <p className="lead">{t('avs.failed.text')}</p>
      <div className="avs-actions">
        <a className="btn btn-primary" href={retryHref} data-action="avs-retry">
          {t('avs.failed.retry')}
        </a>
        <a className="btn btn-outline" href={target}>
          {t('avs.failed.back')}
        </a>
      </div>
      <p className="muted small">{t('avs.failed.hint')}</p>
    </AvsCard>
  );
}

export function InvalidPage() {
  const t = useT();
  return (
    <AvsCard icon="warning" tone="error">
      <h1>{t('avs.invalid.title')}</h1>
      <p className="lead">{t('avs.invalid.text')}</p>
      <div className="avs-actions">
        <a className="btn btn-primary" href="/avs?kjm=0&target=%2F">
          {t('avs.invalid.restart')}
        </a>
        <a className="btn btn-outline" href="/">
          {t('avs.invalid.home')}
        </a>
      </div>
    </AvsCard>
  );
}

export function SandboxPage({ passHref, failHref, kjm }: { passHref: string; failHref: string; kjm: boolean }) {
  const t = useT();
  return (
    <AvsCard icon="person">
      <p className="avs-badge">{t('avs.sandbox.badge')}</p>
      <h1>{t('avs.sandbox.title')}</h1>
      <p className="lead">{t('avs.sandbox.text')}</p>
      <p className="muted">{t(kjm ? 'avs.sandbox.levelKjm' : 'avs.sandbox.levelBasic')}</p>
      <div className="avs-actions">
        <a className="btn btn-primary" href={passHref} data-action="avs-pass">
          {t('avs.sandbox.pass')}
        </a>
        <a className="btn btn-outline" href={failHref} data-action="avs-fail">
          {t('avs.sandbox.fail')}
        </a>
      </div>
      <p className="muted small">{t('avs.sandbox.note')}</p>
    </AvsCard>
  );
}
