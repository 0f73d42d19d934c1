import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import de from '../../locales/de.json';
import en from '../../locales/en.json';
import { CLIENT_MESSAGE_KEYS, PAGE_MESSAGE_KEYS } from '../../src/shared/state';
import { createTranslator, pickResources, type Resources } from '../../src/shared/translate';
import { keyPaths, missingKeys } from './locale-keys';

describe('locale parity', () => {
  it('en and de have exactly the same keys (and array lengths)', () => {
    expect(missingKeys(en, de), 'missing in de').toEqual([]);
    expect(missingKeys(de, en), 'missing in en').toEqual([]);
  });

  it('the parity check itself catches a missing key', () => {
    const broken = structuredClone(de) as Record<string, Record<string, unknown>>;
    delete broken.nav.home;
    expect(missingKeys(en, broken)).toContain('nav.home');
  });

  it('no value is empty and German is really translated where English differs', () => {
    for (const [path, value] of keyPaths(de)) expect(String(value).trim(), path).not.toBe('');
    expect((de as { nav: { allShows: string } }).nav.allShows).toBe('Alle Shows');
  });

  it('every interpolation variable in en exists in de too', () => {
    const vars = (s: unknown) => [...String(s).matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();
    const dePaths = new Map(keyPaths(de));
    for (const [path, value] of keyPaths(en)) expect(vars(dePaths.get(path)), path).toEqual(vars(value));
  });
});

describe('the islands translator agrees with i18next', () => {
  it('for every client key, with interpolation and plurals', async () => {
    for (const [lng, res] of [['en', en], ['de', de]] as const) {
      const i18n = i18next.createInstance();
      await i18n.init({ lng, resources: { [lng]: { translation: res } }, interpolation: { escapeValue: false } });
      const keys = [...CLIENT_MESSAGE_KEYS, ...PAGE_MESSAGE_KEYS];
      const client = createTranslator(pickResources(res as Resources, keys), lng);
      const vars = { count: 2, email: 'a@b.c', online: 1, page: 3, name: 'Mia' };
      for (const [path] of keyPaths(pickResources(res as Resources, keys))) {
        const key = path.replace(/_(one|other)$/, '');
        expect(client(key, vars), `${lng}:${key}`).toBe(i18n.t(key, vars));
      }
      expect(createTranslator(res as Resources, lng)('shows.coinsPerMinute', { count: 1 })).toBe(i18n.t('shows.coinsPerMinute', { count: 1 }));
      expect(createTranslator(res as Resources, lng)('no.such.key')).toBe('no.such.key');
    }
  });
});
