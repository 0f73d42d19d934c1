import { z } from 'zod';

// Reports of content (issue 29 point 3; EU DSA art. 16 notice and action): what may be reported,
// the categories (texts under reports.categories.<name>), the wire contract of POST /api/reports
// and of the operators' queue (/api/operator/reports).

export const REPORT_TARGETS = ['show', 'chat_line', 'message', 'video', 'picture'] as const;
export type ReportTarget = (typeof REPORT_TARGETS)[number];
/**
 * What an operator can remove by resolving a report as `removed`: a video or a gallery leaves the
 * store (its performer is mailed why), a message leaves the member's conversation. A show or a chat
 * line is not removed this way (a show is stopped, an account restricted, from their own pages).
 */
export const REMOVABLE_TARGETS: readonly ReportTarget[] = ['video', 'picture', 'message'];
export const REPORT_CATEGORIES = ['illegal_content', 'minor_safety', 'non_consensual', 'harassment', 'spam', 'copyright', 'other'] as const;
export type ReportCategory = (typeof REPORT_CATEGORIES)[number];
export const REPORT_OUTCOMES = ['no_action', 'removed', 'restricted'] as const;
export type ReportOutcome = (typeof REPORT_OUTCOMES)[number];

export const REPORT_TEXT_MIN = 10;
export const REPORT_TEXT_MAX = 2000;
/** Reports one reporter (member or visitor session) may send per hour. */
export const REPORTS_PER_HOUR = 10;
/** A report older than this is overdue (card schemes: complaints resolved within 7 days). */
export const REPORT_OVERDUE_SECONDS = 7 * 86_400;

export const OPERATOR_REPORTS_PATH = '/operator/reports';

const text = (min: number, max: number) => z.string().trim().min(min, 'too_short').max(max, 'too_long');

export const reportSchema = z.object({
  target_kind: z.enum(REPORT_TARGETS, 'target_invalid'),
  // a show, message, video or gallery id; a chat line's id; a picture as "<gallery>" or "<gallery>:<index>"
  target_id: z.string('target_invalid').trim().regex(/^[A-Za-z0-9_:-]{1,64}$/, 'target_invalid'),
  /** The show the content belongs to (required for a chat line: its room keeps the line). */
  show_id: z.number('show_invalid').int('show_invalid').positive('show_invalid').max(2 ** 31, 'show_invalid').optional(),
  category: z.enum(REPORT_CATEGORIES, 'category_invalid'),
  text: text(REPORT_TEXT_MIN, REPORT_TEXT_MAX),
  /** A visitor's address for the outcome (members are mailed at their own). */
  email: z.string().trim().max(254, 'too_long').email('email_invalid').optional().or(z.literal('').transform(() => undefined)),
});
export type ReportInput = z.infer<typeof reportSchema>;

export const resolveReportSchema = z.object({ outcome: z.enum(REPORT_OUTCOMES, 'outcome_invalid'), outcome_text: text(REPORT_TEXT_MIN, REPORT_TEXT_MAX) });
export type ResolveReportInput = z.infer<typeof resolveReportSchema>;

/** What was reported, as it was when reported. */
export interface ReportSnapshot {
  nick?: string;
  text?: string;
  title?: string;
}

/** One report in the operators' queue (GET /api/operator/reports). */
export interface ReportView {
  id: number;
  target_kind: ReportTarget;
  target_id: string;
  show_id: number | null;
  /** The account behind the content, when known (its operator page restricts it). */
  accused_user_id: number | null;
  category: ReportCategory;
  text: string;
  snapshot: ReportSnapshot;
  /** 'member' or 'visitor'. */
  reporter: 'member' | 'visitor';
  created_at: number;
  /** Seconds since it was sent. */
  age: number;
  /** Older than 7 days and still open. */
  overdue: boolean;
  state: 'open' | 'resolved';
  outcome: ReportOutcome | null;
  outcome_text: string | null;
}

/** The site's page of a reported target, for the operators' link (null: no page of its own). */
export function reportTargetPath(kind: ReportTarget, targetId: string, showId: number | null): string | null {
  if (kind === 'video') return `/videos/clip/${targetId}`;
  if (showId === null) return null;
  if (kind === 'picture') return `/galleries/pictures/${showId}/${targetId.split(':')[0]}`;
  if (kind === 'show' || kind === 'chat_line') return `/chat/${showId}`;
  return null;
}
