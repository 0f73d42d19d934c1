import type { Context } from 'hono';
import type { z } from 'zod';
import { ApiError, type FieldErrors } from './errors';

/** zod issues as `{ field: [code] }`; the client translates codes as errors.<code>. */
export function fieldErrors(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const field = issue.path.length ? issue.path.join('.') : '_';
    const code = issue.message && /^[a-z0-9_.]+$/.test(issue.message) ? issue.message : issue.code;
    (out[field] ??= []).push(code);
  }
  return out;
}

/** zValidator hook: validation failures become 422 with field errors. */
export function validationHook(result: { success: boolean; error?: unknown }, _c: Context): void {
  if (!result.success) throw new ApiError(422, 'validation_failed', fieldErrors(result.error as z.ZodError));
}
