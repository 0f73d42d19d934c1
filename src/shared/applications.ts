import { z } from 'zod';

// Performer applications (issue 29 point 1): the fields of POST /api/applications (multipart, with
// two files), the rules checked on both sides, and the wire types of the applicant's and the
// operators' answers.

export const APPLICATION_STATES = ['submitted', 'more_info', 'approved', 'rejected'] as const;
export type ApplicationState = (typeof APPLICATION_STATES)[number];
export const APPLICATION_DECISIONS = ['approve', 'reject', 'more_info'] as const;
export type ApplicationDecision = (typeof APPLICATION_DECISIONS)[number];
export const APPLICATION_DOCUMENTS = ['id', 'selfie'] as const;
export type ApplicationDocument = (typeof APPLICATION_DOCUMENTS)[number];

/** Countries an applicant may name (ISO 3166-1 alpha-2); names come from Intl.DisplayNames. */
export const APPLICATION_COUNTRIES = [
  'AT', 'AU', 'BE', 'BG', 'BR', 'CA', 'CH', 'CO', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GB', 'GR', 'HR', 'HU',
  'IE', 'IS', 'IT', 'LI', 'LT', 'LU', 'LV', 'MT', 'MX', 'NL', 'NO', 'NZ', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK', 'US', 'ZA',
] as const;

export const STAGE_NAME_MIN = 3;
export const STAGE_NAME_MAX = 24;
/** Letters and digits of any script, spaces and hyphens; starts and ends with a letter or digit. */
export const STAGE_NAME_PATTERN = /^[\p{L}\p{N}](?:[\p{L}\p{N} -]*[\p{L}\p{N}])?$/u;
/** Each file: at most 5 MB, a JPEG, PNG or PDF by its first bytes. */
export const DOCUMENT_MAX_BYTES = 5 * 1024 * 1024;
export const DOCUMENT_ACCEPT = 'image/jpeg,image/png,application/pdf';
/** A rejected application's documents (or one sent back for more) are kept this long, then deleted. */
export const DOCUMENT_RETENTION_SECONDS = 30 * 86_400;
export const APPLY_PATH = '/apply';
export const OPERATOR_APPLICATIONS_PATH = '/operator/applications';

/** Whole years between an ISO date of birth and `today` (UTC), or null for a date that does not exist. */
export function ageOn(dateOfBirth: string, today: Date): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(dateOfBirth);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return null;
  let age = today.getUTCFullYear() - y;
  if (today.getUTCMonth() + 1 < mo || (today.getUTCMonth() + 1 === mo && today.getUTCDate() < d)) age--;
  return age;
}

const text = (min: number, max: number) => z.string('required').trim().min(min, min <= 1 ? 'required' : 'too_short').max(max, 'too_long');

/** The text fields of an application (the form's names); the files are checked beside them. */
export const applicationFieldsSchema = z.object({
  legal_name: text(2, 100),
  date_of_birth: z
    .string('required')
    .trim()
    .refine((v) => ageOn(v, new Date()) !== null, 'invalid_date')
    .refine((v) => (ageOn(v, new Date()) ?? 18) >= 18, 'under_18')
    .refine((v) => (ageOn(v, new Date()) ?? 0) <= 120 || ageOn(v, new Date()) === null, 'invalid_date'),
  country: z.enum(APPLICATION_COUNTRIES, 'country_invalid'),
  stage_name: z
    .string('required')
    .trim()
    .min(STAGE_NAME_MIN, 'too_short')
    .max(STAGE_NAME_MAX, 'too_long')
    .regex(STAGE_NAME_PATTERN, 'stage_name_invalid')
    .refine((v) => !/ {2}|--/.test(v), 'stage_name_invalid'),
  consent: z.enum(['yes', 'on', '1', 'true'], 'consent_required'),
  /** A show whose performer invited the applicant (migration 0033): the approval adds them to it. */
  join_show: z
    .string()
    .trim()
    .regex(/^\d{0,9}$/, 'join_show_invalid')
    .optional()
    .transform((v) => (v ? Number(v) : null)),
});
export type ApplicationFields = z.infer<typeof applicationFieldsSchema>;

export const decideSchema = z.object({
  decision: z.enum(APPLICATION_DECISIONS, 'decision_invalid'),
  reason: text(3, 2000),
});

/** GET /api/applications/mine: the member's latest application (null: none yet). */
export interface MyApplication {
  id: number;
  state: ApplicationState;
  stage_name: string;
  /** The operator's message: why it was rejected, or what more is needed. */
  message: string | null;
  created_at: number;
  decided_at: number | null;
  /** The show it asks to join (null: a show of their own). */
  join_show_id: number | null;
}

/** An invitation to join a show, as the applicant's form offers it. */
export interface ShowInvite {
  show_id: number;
  show_name: string;
}

/** One application in the operators' queue. */
export interface ApplicationView {
  id: number;
  user_id: number;
  user_name: string;
  legal_name: string;
  date_of_birth: string;
  age: number;
  country: string;
  stage_name: string;
  state: ApplicationState;
  reason: string | null;
  created_at: number;
  decided_at: number | null;
  show_id: number | null;
  /** The show it asks to join (null: a show of their own). */
  join_show_id: number | null;
  join_show_name: string | null;
  /** Operator-only URLs of the two documents (null once deleted). */
  documents: { id: string; selfie: string } | null;
}
