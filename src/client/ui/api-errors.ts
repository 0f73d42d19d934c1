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
