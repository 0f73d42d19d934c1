import { LOCALES } from '../../shared/constants';
import { LAYOUTS } from '../../shared/layouts';
import { useSnap, useT } from '../state/context';

const LINKS = [
  ['contact', '/contact'],
  ['imprint', '/contact#imprint'],
  ['faq', '/faq'],
  ['terms', '/terms'],
  ['privacy', '/privacy_policy'],
  ['refund', '/refund'],
  ['complaints', '/complaints'],
  ['usc2257', '/usc2257'],
  ['becomePerformer', '/camgirl_werden'],
  ['abuse', '/contact#abuse'],
] as const;

/** Footer links plus language and colour switches that work without scripts (plain links). */
export function Footer() {
  const snap = useSnap();
  const t = useT();
  return (
    <footer className="footer">
      <div className="footer-inner">
        <nav aria-label={t('footer.nav')}>
          <ul className="footer-links">
            {LINKS.map(([key, href]) => (
              <li key={key}>
                <a href={href}>{t(`footer.${key}`)}</a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="footer-switches">
          <div className="switch-group" role="group" aria-label={t('footer.language')}>
            {LOCALES.map((l) => (
              <a key={l} href={`?lang=${l}`} hrefLang={l} lang={l} className={snap.locale === l ? 'switch active' : 'switch'} aria-current={snap.locale === l ? 'true' : undefined}>
                {t(`languages.${l}`)}
              </a>
            ))}
          </div>
          <div className="switch-group layouts" role="group" aria-label={t('footer.colours')}>
            {LAYOUTS.map((l) => (
              <a key={l} href={`?l=${l}`} className={snap.layout === l ? `swatch swatch-${l} active` : `swatch swatch-${l}`} title={t(`layouts.${l}`)} aria-label={t(`layouts.${l}`)} />
            ))}
          </div>
        </div>
        <p className="footer-legal">{t('footer.legal', { year: new Date(snap.now).getUTCFullYear() })}</p>
      </div>
    </footer>
  );
}
