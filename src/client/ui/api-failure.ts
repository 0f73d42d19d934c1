import type { TFunction } from '../../shared/translate';
import { ApiFailure } from '../lib/api';
import { errorText } from './error-text';

// What a failed API call says: the first error code of each field, the body's message, and the
// field errors as text.

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
  return { fields: out, general: errorText(t, error.status === 0 ? 'network_error' : error.message) };
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
