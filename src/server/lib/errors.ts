export type FieldErrors = Record<string, string[]>;

/** The one error type handlers throw; `onError` turns it into `{ message, errors? }`. */
export class ApiError extends Error {
  constructor(
    /** 4xx or 503 (419 is the CSRF mismatch status the client expects). */
    readonly status: number,
    message: string,
    readonly errors?: FieldErrors,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}
