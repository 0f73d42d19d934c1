import type { TFunction } from '../../shared/translate';
import { ApiFailure } from '../lib/api';

/** Field errors of a failed call, translated; `general` holds the message when no field matched. */
export function translateFailure(
  t: TFunction,
  error: unknown,
  fields: readonly string[],
): { fields: Record<string, string>; general: string | null } {
  const out: Record<string, string> = {};
  if (!(error instanceof ApiFailure)) return { fields: out, general: t('errors.unknown_error') };
  for (const f of fields) {
    const code = error.errors[f]?.[0];
    if (code) out[f] = t(`errors.${code}`);
  }
  if (Object.keys(out).length > 0) return { fields: out, general: null };
  const code = error.status === 0 ? 'network_error' : error.message;
  const text = t(`errors.${code}`);
  return { fields: out, general: text === `errors.${code}` ? t('errors.unknown_error') : text };
}

/** errors.<code>, or the generic text when the code has no translation. */
export function errorText(t: TFunction, code: string | null | undefined): string {
  if (!code) return t('errors.unknown_error');
  const key = `errors.${code}`;
  const text = t(key);
  return text === key ? t('errors.unknown_error') : text;
}

/** The first code of each field of an API failure. */
export function fieldCodes(e: unknown): Record<string, string> {
  if (!(e instanceof ApiFailure)) return {};
  const out: Record<string, string> = {};
  for (const [field, codes] of Object.entries(e.errors ?? {})) if (codes?.[0]) out[field] = codes[0];
  return out;
}

/** The `message` of the answer body, if the server sent one. */
export function bodyMessage(e: unknown): string | null {
  if (!(e instanceof ApiFailure)) return null;
  const body = e.body as { message?: unknown } | null;
  return body && typeof body === 'object' && typeof body.message === 'string' ? body.message : null;
}
