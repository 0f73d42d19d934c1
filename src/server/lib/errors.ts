export type FieldErrors = Record<string, string[]>;

/** The one error type handlers throw; `onError` turns it into `{ message, errors? }`. */
export class ApiError extends Error {
  constructor(
    /** 4xx or 503 (419 is the CSRF mismatch status the client expects). */
    readonly status: number,
    message: string,
    readonly errors?: FieldErrors,
    readonly headers?: Record<string, string>,
    /** More of the answer beside the message (e.g. when a suspension ends), for the client to show. */
    readonly extra?: Record<string, string | number | null>,
  ) {
    super(message);
  }
}

/** Whether D1 refused a write for a broken constraint of this kind (SQLite's message names it). */
export function isConstraintViolation(e: unknown, kind: 'UNIQUE' | 'CHECK'): boolean {
  return String((e as Error)?.message ?? e).includes(`${kind} constraint failed`);
}

/** A UNIQUE index refused the row: someone else (a parallel request, a replay) wrote it first. */
export const isUniqueViolation = (e: unknown) => isConstraintViolation(e, 'UNIQUE');
