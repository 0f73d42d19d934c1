import type { MouseEvent } from 'react';
import { CONSENT_COOKIE, CONSENT_COOKIE_DAYS, type ConsentAnswer } from '../../shared/constants';
import { writeCookie } from '../lib/cookies';
import { useSnap, useStore, useT } from '../state/context';
import { CsrfField } from '../ui/csrf-field';

/**
 * Asks for analytics consent; the answer is stored as consent_analytics=1 or 0 for a year. With
 * script the answer is written in place; without it the buttons post the form to /consent, which
 * sets the same cookie and comes back.
 */
export default function ConsentBanner() {
  const store = useStore();
  const snap = useSnap();
  const t = useT();
  if (!snap.ui.consentOpen || snap.ui.splashOpen) return null;

  function answer(e: MouseEvent, value: ConsentAnswer) {
    e.preventDefault();
    writeCookie(CONSENT_COOKIE, value, CONSENT_COOKIE_DAYS);
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
      <form className="consent-actions" method="post" action="/consent">
        <CsrfField />
        <input type="hidden" name="redirect" value={snap.path} />
        <button type="submit" name="answer" value="0" className="btn btn-outline" data-action="consent-decline" onClick={(e) => answer(e, '0')}>
          {t('consent.decline')}
        </button>
        <button type="submit" name="answer" value="1" className="btn btn-primary" data-action="consent-accept" onClick={(e) => answer(e, '1')}>
          {t('consent.accept')}
        </button>
      </form>
    </section>
  );
}
