import type { Context } from 'hono';
import { BODY_MAX_BYTES } from '../../shared/constants';
import { ApiError } from './errors';

// The one place request bodies are read. Hono's c.req.json() / parseBody() throw on malformed
// input (a multipart type without boundary, broken JSON), which would surface as a 5xx; every
// handler reads its body through these helpers instead (the /api validators through the body
// middleware, which checks the JSON before any route runs).

const JSON_TYPE = /^application\/([\w.-]+\+)?json$/;
const FORM_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data']);

export function mediaType(c: Context): string {
  return (c.req.header('Content-Type') ?? '').split(';')[0].trim().toLowerCase();
}

/**
 * The body, at most `max` bytes: a declared or streamed size above it is a 413, answered before
 * anything parses it. Streams are read chunk by chunk, so a body without Content-Length cannot
 * make the worker buffer more than the cap.
 */
export async function readCappedBody(request: Request, max = BODY_MAX_BYTES): Promise<ArrayBuffer> {
  const tooLarge = () => new ApiError(413, 'payload_too_large');
  const declared = request.headers.get('Content-Length');
  if (declared !== null && !(Number(declared) <= max)) throw tooLarge();
  if (!request.body) return new ArrayBuffer(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out.buffer;
}

/**
 * The JSON body of an /api write: an empty body is `{}` (calls without parameters); anything
 * else must be JSON by type and by content, else 422 `invalid_body`.
 */
export async function readJson(c: Context): Promise<unknown> {
  const text = await c.req.text().catch(() => {
    throw new ApiError(422, 'invalid_body');
  });
  if (text.length === 0) return {};
  if (!JSON_TYPE.test(mediaType(c))) throw new ApiError(422, 'invalid_body');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ApiError(422, 'invalid_body');
  }
}

// The one rule for text that people read, shared by the body guard (which refuses) and the show
// room's chat lines (which are cleaned, a line being typed fast and not a form to correct).
// BIDI: the bidi marks, embeddings, overrides and isolates that make text read differently from
// what it is. Zero-width characters hide inside words (a name that looks like another, a word a
// filter does not see); the joiner is kept only between two emoji, where it builds one
// (family, profession). Combining marks stack without end (a line 256 marks high); real
// scripts put a few on a base character.
const BIDI = '\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069';
const ZERO_WIDTH = '\\u180e\\u200b\\u200c\\u2060-\\u2064\\ufeff';
/** Combining marks kept on one base character. */
export const MARKS_PER_BASE_MAX = 4;

// C0 controls (NUL, CR, LF, TAB, ...), DEL, C1 controls and BIDI. Text fields never need them;
// multi-line fields (error logs) may hold TAB, LF and CR.
const CONTROLS = new RegExp(`[\\u0000-\\u001f\\u007f-\\u009f${BIDI}]`);
const CONTROLS_BUT_LINES = new RegExp(`[\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f${BIDI}]`);
const LINE_BREAKS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
const HIDDEN = new RegExp(`[${BIDI}${ZERO_WIDTH}]|(?<!\\p{Extended_Pictographic}[\\ufe0f\\u{1f3fb}-\\u{1f3ff}]?)\\u200d|\\u200d(?!\\p{Extended_Pictographic})`, 'gu');
const STACKED_MARKS = new RegExp(`(\\p{M}{${MARKS_PER_BASE_MAX}})\\p{M}+`, 'gu');

/**
 * One line of text as people may read it: controls and line breaks become spaces, bidi and
 * zero-width characters go, combining marks are capped per base character; trimmed.
 */
export function cleanLine(raw: string): string {
  return raw.replace(LINE_BREAKS, ' ').replace(HIDDEN, '').replace(STACKED_MARKS, '$1').trim();
}

/**
 * The path (`a.b.0`) of the first string, key or value, that holds a control character, or null.
 * Iterative: a body may nest as deep as JSON.parse allows.
 */
export function controlCharacterAt(value: unknown, multiline = false): string | null {
  const re = multiline ? CONTROLS_BUT_LINES : CONTROLS;
  const stack: [unknown, string[]][] = [[value, []]];
  while (stack.length) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      if (re.test(v)) return path.join('.') || '_';
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], path.length < 8 ? [...path, String(i)] : path]);
    } else if (v && typeof v === 'object') {
      for (const [k, inner] of Object.entries(v)) {
        if (re.test(k)) return [...path, '_'].join('.');
        stack.push([inner, path.length < 8 ? [...path, k] : path]);
      }
    }
  }
  return null;
}

/** 422 with the field that holds a control character, if any does. */
export function refuseControlCharacters(value: unknown, multiline = false): void {
  const at = controlCharacterAt(value, multiline);
  if (at !== null) throw new ApiError(422, 'validation_failed', { [at]: ['control_characters'] });
}

export type FormFields = Partial<Record<string, string>>;

/**
 * The fields of a form post (first value of each name; files ignored), or null when the body is
 * not a well-formed form or holds control characters: the page then shows its own error state,
 * never a 5xx.
 */
export async function readForm(c: Context): Promise<FormFields | null> {
  const type = mediaType(c);
  if (!FORM_TYPES.has(type)) return null;
  let data: FormData;
  try {
    data = await c.req.formData();
  } catch {
    return null;
  }
  const out: FormFields = Object.create(null) as FormFields;
  data.forEach((value, key) => {
    if (typeof value === 'string' && !(key in out)) out[key] = value;
  });
  return controlCharacterAt(out) === null ? out : null;
}
