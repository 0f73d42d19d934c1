import { CONSENT_COOKIE } from '../../shared/constants';
import { writeCookie } from '../lib/cookies';
import { useSnap, useStore, useT } from '../state/context';

/** Asks for analytics consent; the answer is stored as consent_analytics=1 or 0 for a year. */
export default function ConsentBanner() {
  const store = useStore();
  const snap = useSnap();
  const t = useT();
  if (!snap.ui.consentOpen || snap.ui.splashOpen) return null;

  function answer(accepted: boolean) {
    writeCookie(CONSENT_COOKIE, accepted ? '1' : '0', 365);
    store.ui.consentOpen = false;
  }

  return (
    <section className="consent" role="region" aria-label={t('consent.title')}>
      <div className="consent-text">
        <strong>{t('consent.title')}</strong>
        <p>
          {t('consent.text')} <a href="/privacy_policy#google_analytics">{t('consent.more')}</a>
        </p>
      </div>
      <div className="consent-actions">
        <button type="button" className="btn btn-outline" data-action="consent-decline" onClick={() => answer(false)}>
          {t('consent.decline')}
        </button>
        <button type="button" className="btn btn-primary" data-action="consent-accept" onClick={() => answer(true)}>
          {t('consent.accept')}
        </button>
      </div>
    </section>
  );
}
