import type { TFunction } from '../../shared/translate';

/** The text of an API error code (errors.<code>), or of `fallback` when the code has none. */
export function errorText(t: TFunction, code: string | null | undefined, fallback = 'unknown_error'): string {
  const key = `errors.${code}`;
  const text = code ? t(key) : key;
  return text === key ? t(`errors.${fallback}`) : text;
}
