// The operators' side (issue 29): paths, the second factor's answers and the audit trail's rows.

export const OPERATOR_HOME_PATH = '/operator';
export const OPERATOR_SECOND_FACTOR_PATH = '/operator/second-factor';
export const OPERATOR_AUDIT_PATH = '/operator/audit';
export const OPERATOR_PAYOUTS_PATH = '/operator/payouts';

/** Wrong codes an operator may give per window before the second factor is refused for the rest of it. */
export const SECOND_FACTOR_ATTEMPTS = 5;
export const SECOND_FACTOR_WINDOW_SECONDS = 15 * 60;

/** The issuer an authenticator app shows beside the code. */
export const SECOND_FACTOR_ISSUER = 'Livecams Operators';

/** POST /api/operator/second-factor/enrol: the new secret, shown this once (until the first correct code). */
export interface SecondFactorEnrolment {
  secret: string;
  uri: string;
}

/** One audit row: who did what to what, why and when (unix seconds). */
export interface AuditEntry {
  id: number;
  at: number;
  actor: string;
  action: string;
  target: string | null;
  reason: string | null;
  detail: Record<string, unknown> | null;
}

export const AUDIT_PAGE_SIZE = 50;

export interface AuditPage {
  data: AuditEntry[];
  current_page: number;
  last_page: number;
  total: number;
}

// Bans and suspensions (issue 29 point 4): the categories a statement of reasons names (its
// text under restriction.categories.<name>), and the operators' pages.

export const REASON_CATEGORIES = ['illegal_content', 'harassment', 'fraud', 'minor_safety', 'spam', 'terms_other'] as const;
export type ReasonCategory = (typeof REASON_CATEGORIES)[number];

export const OPERATOR_USERS_PATH = '/operator/users';
export const OPERATOR_APPEALS_PATH = '/operator/appeals';
export const operatorUserPath = (id: number) => `${OPERATOR_USERS_PATH}/${id}`;
