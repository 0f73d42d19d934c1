import i18next, { type i18n } from 'i18next';
import de from '../../../locales/de.json';
import en from '../../../locales/en.json';
import type { Locale } from '../../shared/constants';
import { CLIENT_MESSAGE_KEYS, PAGE_MESSAGE_KEYS, type PageMessageKey } from '../../shared/state';
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

/** Every group the browser may need (every page's and the page-specific ones). */
const CLIENT_GROUPS: ReadonlySet<string> = new Set([...CLIENT_MESSAGE_KEYS, ...PAGE_MESSAGE_KEYS]);

/**
 * The texts among `keys` (the keys the page's render asked for) that the islands may need, with
 * their plural forms: what a document embeds, so hydration renders the same text without waiting
 * for a request.
 */
export function embeddedMessagesFor(locale: Locale, keys: Iterable<string>): Resources {
  const out: Resources = {};
  for (const key of keys) {
    const path = key.split('.');
    if (path.length < 2 || !CLIENT_GROUPS.has(path[0])) continue;
    const last = path.pop()!;
    let from: unknown = RESOURCES[locale];
    let to = out;
    for (const part of path) {
      from = from !== null && typeof from === 'object' && !Array.isArray(from) ? (from as Resources)[part] : undefined;
      if (from === undefined || typeof from !== 'object' || Array.isArray(from)) break;
      to = (to[part] ??= {}) as Resources;
    }
    if (from === undefined || from === null || typeof from !== 'object' || Array.isArray(from)) continue;
    for (const [name, value] of Object.entries(from as Resources)) {
      if (name === last || name.startsWith(`${last}_`)) to[name] = value;
    }
  }
  return out;
}

/** FNV-1a, base 36: names a texts file by its content. */
function contentHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return `${(h >>> 0).toString(36)}${text.length.toString(36)}`;
}

const textFiles = new Map<Locale, { name: string; body: string }>();

/**
 * All client texts of a locale as one JSON file named by its content hash
 * (/i18n/{locale}.{hash}.json, cached for good): the islands load it before they hydrate, so
 * later renders (menus, dialogs, errors) find every text while the document embeds only the
 * groups its first render used.
 */
export function clientTextsFile(locale: Locale): { name: string; body: string } {
  let f = textFiles.get(locale);
  if (!f) {
    const body = JSON.stringify(pickResources(RESOURCES[locale], [...CLIENT_GROUPS]));
    f = { name: `${locale}.${contentHash(body)}.json`, body };
    textFiles.set(locale, f);
  }
  return f;
}
