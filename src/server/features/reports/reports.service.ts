import type { Locale } from '../../../shared/constants';
import { REMOVABLE_TARGETS, REPORT_OVERDUE_SECONDS, type ReportInput, type ReportOutcome, type ReportSnapshot, type ReportView } from '../../../shared/reports';
import type { Bindings } from '../../env';
import { nowSeconds } from '../../lib/clock';
import { ApiError, isUniqueViolation } from '../../lib/errors';
import { mailerFor } from '../../lib/mailer';
import { chatLine } from '../chat/chat.service';
import { reportMail } from './report-mail';
import {
  insertReport,
  messageTarget,
  openReports,
  performerOf,
  pictureTarget,
  reportRow,
  resolvedReports,
  resolveReportRow,
  showTarget,
  videoTarget,
  type ReportRow,
  type TargetFound,
} from './reports.repo';

// Reports of content (issue 29 point 3; DSA art. 16): the target must exist (a chat line in its
// room's recent chat, a message in the reporter's own conversation), what was reported is kept
// as it was, the reporter is told it arrived and, when an address is known, the outcome.

/** Who reports: a member, or a visitor by their session. */
export interface Reporter {
  userId: number | null;
  key: string;
  name: string | null;
  /** The member's address, or the one a visitor gave. */
  email: string | null;
  locale: Locale;
}

const numeric = (v: string) => (/^[0-9]{1,10}$/.test(v) ? Number(v) : 0);

async function findTarget(env: Bindings, input: ReportInput, who: Reporter): Promise<TargetFound | null> {
  const id = input.target_id;
  switch (input.target_kind) {
    case 'show':
      return showTarget(env.DB, numeric(id));
    case 'video':
      return videoTarget(env.DB, numeric(id), who.locale);
    case 'picture': {
      const [gallery, idx] = id.split(':');
      if (idx !== undefined && !/^[0-9]{1,4}$/.test(idx)) return null;
      return pictureTarget(env.DB, numeric(gallery), idx === undefined ? null : Number(idx), who.locale);
    }
    case 'message':
      return who.userId === null ? null : messageTarget(env.DB, numeric(id), who.userId);
    case 'chat_line': {
      if (!input.show_id || !(await showTarget(env.DB, input.show_id))) return null;
      const line = await chatLine(env, input.show_id, id);
      if (!line) return null;
      return { show_id: input.show_id, accused_user_id: line.performer ? await performerOf(env.DB, input.show_id) : line.uid, title: line.nick, text: line.text };
    }
  }
}

/** Files a report: 404 for a target that does not exist (or is not the reporter's to see), 409 report_open for a second open one. */
export async function fileReport(env: Bindings, input: ReportInput, who: Reporter): Promise<number> {
  const found = await findTarget(env, input, who);
  if (!found) throw new ApiError(404, 'not_found');
  const snapshot: ReportSnapshot = input.target_kind === 'chat_line' ? { nick: found.title, text: found.text } : { title: found.title, text: found.text };
  try {
    return await insertReport(
      env.DB,
      {
        reporterUserId: who.userId,
        reporterKey: who.key,
        email: who.userId === null ? who.email : null,
        locale: who.locale,
        kind: input.target_kind,
        targetId: input.target_id,
        showId: found.show_id,
        accusedUserId: found.accused_user_id,
        category: input.category,
        text: input.text,
        snapshot: JSON.stringify(snapshot),
      },
      nowSeconds(),
    );
  } catch (e) {
    if (isUniqueViolation(e)) throw new ApiError(409, 'report_open');
    throw e;
  }
}

/** The acknowledgement to the reporter's address. */
export async function acknowledge(env: Bindings, id: number, input: ReportInput, who: Reporter): Promise<void> {
  if (!who.email) return;
  await mailerFor(env).send(reportMail('received', who.locale, who.email, { id, name: who.name, category: input.category }));
}

function view(r: ReportRow, now: number): ReportView {
  let snapshot: ReportSnapshot = {};
  try {
    snapshot = JSON.parse(r.snapshot) as ReportSnapshot;
  } catch {
    // an unreadable snapshot shows as empty
  }
  const age = Math.max(0, now - r.created_at);
  return {
    id: r.id,
    target_kind: r.target_kind,
    target_id: r.target_id,
    show_id: r.show_id,
    accused_user_id: r.accused_user_id,
    category: r.category,
    text: r.text,
    snapshot,
    reporter: r.reporter_user_id === null ? 'visitor' : 'member',
    created_at: r.created_at,
    age,
    overdue: r.state === 'open' && age > REPORT_OVERDUE_SECONDS,
    state: r.state,
    outcome: r.outcome,
    outcome_text: r.outcome_text,
  };
}

/** The open reports, oldest first, with their age and the 7-day flag; or the resolved ones, newest decision first (the first 200). */
export async function reportQueue(db: D1Database, state: 'open' | 'resolved' = 'open'): Promise<ReportView[]> {
  const now = nowSeconds();
  return (await (state === 'open' ? openReports(db, 200) : resolvedReports(db, 200))).map((r) => view(r, now));
}

/** Resolves an open report (404 unknown, 409 already_resolved) and mails the reporter the outcome when an address is known. */
export async function resolveReport(env: Bindings, operatorId: number, id: number, outcome: ReportOutcome, text: string): Promise<ReportView> {
  const before = await reportRow(env.DB, id);
  if (!before) throw new ApiError(404, 'not_found');
  if (before.state !== 'open') throw new ApiError(409, 'already_resolved');
  if (outcome === 'removed' && !REMOVABLE_TARGETS.includes(before.target_kind)) throw new ApiError(422, 'validation_failed', { outcome: ['outcome_not_applicable'] });
  const mailer = before.reporter_email ? mailerFor(env) : null;
  if (!(await resolveReportRow(env.DB, id, operatorId, outcome, text, nowSeconds()))) throw new ApiError(409, 'already_resolved');
  if (mailer && before.reporter_email) {
    const locale: Locale = before.locale === 'de' ? 'de' : 'en';
    await mailer.send(reportMail('outcome', locale, before.reporter_email, { id, name: null, category: before.category, outcome, outcomeText: text }));
  }
  return view({ ...before, state: 'resolved', outcome, outcome_text: text }, nowSeconds());
}
