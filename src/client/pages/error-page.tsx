import { useSnap, useT } from '../state/context';
import { Icon } from '../components/icon';

/** 401: logged-out notice; 404: nothing found with a home button; anything else: maintenance. */
export function ErrorPage({ status }: { status: number }) {
  const t = useT();
  const snap = useSnap();
  const kind = status === 401 ? 'unauthorized' : status === 404 ? 'notFound' : 'maintenance';
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
          <a className="btn btn-primary" href="/login">
            {t('nav.login')}
          </a>
        ) : (
          <a className="btn btn-primary" href="/">
            {t('errorPage.home')}
          </a>
        )}
        <a className="btn btn-outline" href="/contact#contact" data-testid="support-link">
          {t('errorPage.support')}
        </a>
      </div>
      <p className="muted small">{t('errorPage.supportHint', { email: snap.config.supportEmail })}</p>
    </section>
  );
}
