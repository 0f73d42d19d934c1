import { useSnap, useT } from '../state/context';
import { Icon } from '../ui/icon';
import { LinkButton } from '../ui/link-button';

/** Which text an error status shows: the visitor's request (4xx) or our side (5xx). */
export function errorPageKind(status: number): 'unauthorized' | 'notFound' | 'badRequest' | 'maintenance' {
  if (status === 401) return 'unauthorized';
  if (status === 404) return 'notFound';
  return status >= 400 && status < 500 ? 'badRequest' : 'maintenance';
}

/** 401: logged-out notice; 404: nothing found with a home button; other 4xx: request refused; else maintenance. */
export function ErrorPage({ status }: { status: number }) {
  const t = useT();
  const snap = useSnap();
  const kind = errorPageKind(status);
  return (
    <section className="error-page" data-status={status}>
      <div className="error-icon" aria-hidden="true">
        <Icon name={status === 404 ? 'search' : 'warning'} size={56} />
      </div>
      <p className="error-code">{status}</p>
      <h1>{t(`errorPage.${kind}.title`)}</h1>
      <p className="lead">{t(`errorPage.${kind}.text`)}</p>
      <div className="error-actions">
        {status === 401 ? (
          <LinkButton kind="primary" href="/login">{t('nav.login')}</LinkButton>
        ) : (
          <LinkButton kind="primary" href="/">{t('errorPage.home')}</LinkButton>
        )}
        <LinkButton kind="outline" href="/contact#contact" data-testid="support-link">{t('errorPage.support')}</LinkButton>
      </div>
      <p className="muted small">{t('errorPage.supportHint', { email: snap.config.supportEmail })}</p>
    </section>
  );
}
