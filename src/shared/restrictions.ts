import { z } from 'zod';
import { REASON_CATEGORIES, type ReasonCategory } from './operator';

// Bans and suspensions (issue 29 point 4) and their appeals: the wire contract of the operators'
// calls (/api/operator/...) and of the restricted account's statement and appeal
// (/api/restrictions/:token), shared by the worker and the islands.

export const RESTRICTION_KINDS = ['suspension', 'ban'] as const;
export type RestrictionKind = (typeof RESTRICTION_KINDS)[number];
export const APPEAL_OUTCOMES = ['upheld', 'lifted'] as const;
export type AppealOutcome = (typeof APPEAL_OUTCOMES)[number];

export const REASON_MIN = 10;
export const REASON_MAX = 2000;
export const SUSPENSION_DAYS_MAX = 365;
export const APPEAL_MIN = 20;
export const APPEAL_MAX = 4000;
export const ANSWER_MIN = 10;
export const ANSWER_MAX = 2000;

/** The restricted account's page (the mailed link carries the statement's token). */
export const RESTRICTION_PAGE_PATH = '/account/restriction';
export const restrictionPagePath = (token: string) => `${RESTRICTION_PAGE_PATH}/${token}`;

const text = (min: number, max: number) => z.string().trim().min(min, 'too_short').max(max, 'too_long');

export const restrictSchema = z
  .object({
    kind: z.enum(RESTRICTION_KINDS, 'kind_invalid'),
    reason_category: z.enum(REASON_CATEGORIES, 'category_invalid'),
    reason: text(REASON_MIN, REASON_MAX),
    days: z.number('days_invalid').int('days_invalid').min(1, 'days_invalid').max(SUSPENSION_DAYS_MAX, 'days_invalid').optional(),
  })
  .superRefine((v, ctx) => {
    // A suspension has its days; a ban is until lifted.
    if (v.kind === 'suspension' && v.days === undefined) ctx.addIssue({ code: 'custom', message: 'days_required', path: ['days'] });
    if (v.kind === 'ban' && v.days !== undefined) ctx.addIssue({ code: 'custom', message: 'days_invalid', path: ['days'] });
  });
export type RestrictInput = z.infer<typeof restrictSchema>;

export const liftSchema = z.object({ reason: text(REASON_MIN, REASON_MAX) });
export const decideSchema = z.object({ outcome: z.enum(APPEAL_OUTCOMES, 'outcome_invalid'), answer: text(ANSWER_MIN, ANSWER_MAX) });
export const appealSchema = z.object({ text: text(APPEAL_MIN, APPEAL_MAX) });
export const accountSearchSchema = z.string().trim().min(1).max(254);

export interface AppealView {
  id: number;
  text: string;
  created_at: number;
  decided_at: number | null;
  outcome: AppealOutcome | null;
  answer: string | null;
}

/** A restriction as the operators see it (and, without who made it, the account). */
export interface RestrictionView {
  id: number;
  kind: RestrictionKind;
  reason_category: ReasonCategory;
  reason: string;
  created_at: number;
  /** null: permanent (a ban). */
  ends_at: number | null;
  lifted_at: number | null;
  lift_reason: string | null;
  /** Not lifted and not over. */
  active: boolean;
  appeals: AppealView[];
}

/** GET /api/operator/users/:id */
export interface AccountSummary {
  id: number;
  name: string;
  email: string;
  locale: string;
  created_at: number;
  is_operator: boolean;
  /** The performer's show, if the account is one. */
  show: { id: number; name: string } | null;
  restrictions: (RestrictionView & { created_by: string | null })[];
}

/** One row of the operators' account search. */
export interface AccountHit {
  id: number;
  name: string;
  email: string;
  restricted: boolean;
}

/** GET /api/operator/appeals: the open ones, oldest first. */
export interface OpenAppeal {
  id: number;
  text: string;
  created_at: number;
  user: { id: number; name: string };
  restriction: { id: number; kind: RestrictionKind; reason_category: ReasonCategory; reason: string; created_at: number; ends_at: number | null };
}

/** GET /api/restrictions/:token: the statement of reasons as the account sees it. */
export interface Statement {
  name: string;
  restriction: RestrictionView;
  /** An appeal may be sent (the restriction is active and none is open). */
  can_appeal: boolean;
}

/** An appeal against a removed or refused upload (its performer files it in the studio). */
export const CONTENT_APPEAL_OUTCOMES = ['upheld', 'reinstated'] as const;
export const contentAppealSchema = z.object({
  kind: z.enum(['video', 'gallery'], 'kind_invalid'),
  id: z.number('id_invalid').int('id_invalid').min(1, 'id_invalid').max(999_999_999, 'id_invalid'),
  text: text(APPEAL_MIN, APPEAL_MAX),
});
export type ContentAppealOutcome = (typeof CONTENT_APPEAL_OUTCOMES)[number];
export type ContentKind = 'video' | 'gallery';
export const decideContentAppealSchema = z.object({ outcome: z.enum(CONTENT_APPEAL_OUTCOMES, 'outcome_invalid'), answer: text(ANSWER_MIN, ANSWER_MAX) });

/** GET /api/operator/content-appeals: the open ones, oldest first, with the item as operators open it. */
export interface OpenContentAppeal {
  id: number;
  kind: ContentKind;
  item_id: number;
  show_id: number;
  show_name: string;
  title_en: string;
  title_de: string;
  /** The reasons of the removal or refusal, as they were when the appeal was filed. */
  decision_reason: string;
  text: string;
  created_at: number;
  /** Seconds since it was filed. */
  age: number;
  page_url: string;
  preview_url: string;
}

/** An upload's appeal as its studio shows it: the latest one of the item (null: none, or one before a later removal). */
export interface UploadAppeal {
  state: 'pending' | ContentAppealOutcome;
  answer: string | null;
  created_at: number;
  decided_at: number | null;
}
