import type { ReviewState } from './uploads';

// Moderation before publishing and live shows watched and stopped (issue 29 point 2): the
// operators' pages, the queue's rows and the decisions' bodies.

export const OPERATOR_MODERATION_PATH = '/operator/moderation';
export const OPERATOR_LIVE_PATH = '/operator/live';
/** An operator's hidden watch of a live show (issue 29 point 2). */
export const operatorWatchPath = (showId: number) => `${OPERATOR_LIVE_PATH}/${showId}/watch`;

export type ModerationKind = 'video' | 'gallery';
export const MODERATION_KINDS: readonly ModerationKind[] = ['video', 'gallery'];

/** A rejection's reason (the statement the performer reads). */
export const MODERATION_REASON_MIN = 5;
export const MODERATION_REASON_MAX = 1000;

/** One complete upload waiting for review (GET /api/operator/moderation, oldest first). */
export interface ModerationItem {
  kind: ModerationKind;
  id: number;
  show_id: number;
  show_name: string;
  title_en: string;
  title_de: string;
  price: number;
  created_at: number;
  /** A file operators may open (a video's preview, a gallery's first picture). */
  preview_url: string;
  /** The item's page (found by its performer and operators only until approved). */
  page_url: string;
}

export interface ModerationQueueAnswer {
  data: ModerationItem[];
}

/** POST /api/operator/moderation/{kind}/{id}. */
export interface ModerationDecision {
  decision: 'approve' | 'reject';
  reason?: string;
}

export interface ModerationDecisionAnswer {
  kind: ModerationKind;
  id: number;
  review: ReviewState;
}

/** One show online now (GET /api/operator/live, longest online first). */
export interface LiveShow {
  id: number;
  name: string;
  slug: string;
  online_since: number | null;
  /** Viewers the show's room holds now (operators are never among them). */
  viewers: number;
}

export interface LiveAnswer {
  data: LiveShow[];
}

/** POST /api/operator/shows/{id}/stop {reason}: the show is offline, every session ended. */
export interface ShowStopAnswer {
  id: number;
  online: false;
}
