import i18next, { type i18n } from 'i18next';
import de from '../../../locales/de.json';
import en from '../../../locales/en.json';
import type { Locale } from '../../shared/constants';
import { CLIENT_MESSAGE_KEYS, type PageMessageKey } from '../../shared/state';
import { pickResources, type Resources } from '../../shared/translate';

const RESOURCES: Record<Locale, Resources> = { en: en as Resources, de: de as Resources };

const root = i18next.createInstance({
  resources: { en: { translation: en }, de: { translation: de } },
  fallbackLng: 'en',
  supportedLngs: ['en', 'de'],
  initAsync: false,
  interpolation: { escapeValue: false },
});
void root.init();

/** One i18next instance per request: clones share the loaded resources, not the language. */
export function i18nFor(locale: Locale): i18n {
  return root.cloneInstance({ lng: locale, initAsync: false });
}

const clientMessages = new Map<string, Resources>();

/** The texts the islands need, embedded into each document: every page's, plus the page's own groups. */
export function clientMessagesFor(locale: Locale, pageKeys: readonly PageMessageKey[] = []): Resources {
  const key = [locale, ...pageKeys].join(',');
  let m = clientMessages.get(key);
  if (!m) {
    m = pickResources(RESOURCES[locale], [...CLIENT_MESSAGE_KEYS, ...pageKeys]);
    clientMessages.set(key, m);
  }
  return m;
}
