import { ageOn, DOCUMENT_RETENTION_SECONDS, type ApplicationDecision, type ApplicationDocument, type ApplicationFields, type ApplicationView, type MyApplication } from '../../../shared/applications';
import type { Locale } from '../../../shared/constants';
import type { Bindings } from '../../env';
import { nowSeconds } from '../../lib/clock';
import { ApiError, isUniqueViolation } from '../../lib/errors';
import { i18nFor } from '../../lib/i18n';
import { mailOrigin } from '../../lib/config';
import { mailerFor } from '../../lib/mailer';
import { applicationMail } from './application-mail';
import { applicationById, approve, close, custodian, dueDocuments, hasOpen, insertApplication, latestOf, markDeleted, queue, showNameTaken, stageNameTaken, type ApplicationRow } from './applications.repo';
import type { CheckedFile } from './documents';
import { approveJoin, isInvited } from './records.repo';

// Performer applications (issue 29 point 1): the applicant's side and the operators' decisions.
// The documents live in the private IDDOCS bucket under random keys; only the operators' document
// route reads them.

/** A random key of 256 bits (never derived from an id: a key cannot be guessed from another). */
export function randomKey(prefix: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return `${prefix}/${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** The URL-safe slug of a stage name (ASCII letters and digits, hyphens). */
export function slugOf(stageName: string): string {
  return stageName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** The stage name as a field error when a show or an open application has it (422 like the other fields). */
export async function refuseTakenStageName(db: D1Database, name: string): Promise<void> {
  if (await stageNameTaken(db, name, slugOf(name))) throw new ApiError(422, 'validation_failed', { stage_name: ['stage_name_taken'] });
}

/**
 * Stores a checked application: refused (nothing written) with an open one or when the member is
 * a performer already; the files go to the private bucket first, and are deleted again when the
 * row cannot be written (a parallel application won).
 */
export async function submitApplication(env: Bindings, userId: number, isPerformer: boolean, fields: ApplicationFields, files: { id: CheckedFile; selfie: CheckedFile }): Promise<number> {
  if (isPerformer) throw new ApiError(409, 'already_performer');
  if (await hasOpen(env.DB, userId)) throw new ApiError(409, 'application_open');
  // Joining a show needs its performer's invitation; the stage name is then the person's, not a show's.
  if (fields.join_show !== null) {
    if (!(await isInvited(env.DB, fields.join_show, userId))) throw new ApiError(422, 'validation_failed', { join_show: ['not_invited'] });
  } else await refuseTakenStageName(env.DB, fields.stage_name);
  const keys = { id: randomKey('id'), selfie: randomKey('selfie') };
  await env.IDDOCS.put(keys.id, files.id.bytes, { httpMetadata: { contentType: files.id.type } });
  await env.IDDOCS.put(keys.selfie, files.selfie.bytes, { httpMetadata: { contentType: files.selfie.type } });
  try {
    return await insertApplication(env.DB, userId, fields, keys, nowSeconds());
  } catch (e) {
    await env.IDDOCS.delete([keys.id, keys.selfie]);
    if (isUniqueViolation(e)) {
      if (await hasOpen(env.DB, userId)) throw new ApiError(409, 'application_open');
      throw new ApiError(422, 'validation_failed', { stage_name: ['stage_name_taken'] });
    }
    throw e;
  }
}

export async function myApplication(db: D1Database, userId: number): Promise<MyApplication | null> {
  const r = await latestOf(db, userId);
  if (!r) return null;
  return { id: r.id, state: r.state, stage_name: r.stage_name, message: r.state === 'approved' ? null : r.reason, created_at: r.created_at, decided_at: r.decided_at, join_show_id: r.join_show_id };
}

function view(r: ApplicationRow, today: Date): ApplicationView {
  const docs = `/api/operator/applications/${r.id}/documents`;
  return {
    id: r.id,
    user_id: r.user_id,
    user_name: r.user_name,
    legal_name: r.legal_name,
    date_of_birth: r.date_of_birth,
    age: ageOn(r.date_of_birth, today) ?? 0,
    country: r.country,
    stage_name: r.stage_name,
    state: r.state,
    reason: r.reason,
    created_at: r.created_at,
    decided_at: r.decided_at,
    show_id: r.show_id,
    join_show_id: r.join_show_id,
    join_show_name: r.join_show_name,
    documents: r.documents_deleted_at === null ? { id: `${docs}/id`, selfie: `${docs}/selfie` } : null,
  };
}

export async function applicationQueue(db: D1Database, state: ApplicationView['state']): Promise<ApplicationView[]> {
  const today = new Date();
  return (await queue(db, state)).map((r) => view(r, today));
}

/** One document of an application from the private bucket, or 404 (unknown, deleted). */
export async function applicationDocument(env: Bindings, id: number, which: ApplicationDocument): Promise<R2ObjectBody> {
  const r = await applicationById(env.DB, id);
  if (!r || r.documents_deleted_at !== null) throw new ApiError(404, 'not_found');
  const object = await env.IDDOCS.get(which === 'id' ? r.id_document_key : r.selfie_key);
  if (!object) throw new ApiError(404, 'not_found');
  return object;
}

/** Deletes the documents whose retention has passed (rejected or sent back); how many applications. */
export async function deleteDueDocuments(env: Bindings, now = nowSeconds()): Promise<number> {
  const due = await dueDocuments(env.DB, now);
  if (due.length === 0) return 0;
  await env.IDDOCS.delete(due.flatMap((d) => [d.id_document_key, d.selfie_key]));
  await markDeleted(env.DB, due.map((d) => d.id), now);
  return due.length;
}

function newShow(r: ApplicationRow, today: Date) {
  const de = i18nFor('de').t;
  const en = i18nFor('en').t;
  const vars = { name: r.stage_name };
  const slug = slugOf(r.stage_name) || `performer-${crypto.randomUUID().slice(0, 8)}`;
  return {
    universalId: `a-${crypto.randomUUID().replace(/-/g, '').slice(0, 16)}`,
    name: r.stage_name,
    slug,
    age: Math.max(18, ageOn(r.date_of_birth, today) ?? 18),
    country: r.country,
    pricePerMinute: 49,
    priceFactorExclusive: 200,
    sloganEn: en('applications.show.slogan', vars),
    sloganDe: de('applications.show.slogan', vars),
    descriptionEn: en('applications.show.description', vars),
    descriptionDe: de('applications.show.description', vars),
  };
}

/**
 * An operator's decision on a submitted application (409 once decided): approve makes the show and
 * the applicant's performers row (or, for an application to join a show, adds them to that show);
 * reject and more_info keep the documents until the retention ends. Past-due documents of earlier
 * decisions are deleted here too, as by the daily cron (features/system/housekeeping.ts).
 * The applicant is mailed in their language.
 */
export async function decideApplication(env: Bindings, operatorId: number, id: number, decision: ApplicationDecision, reason: string): Promise<{ row: ApplicationRow; showId: number | null }> {
  const r = await applicationById(env.DB, id);
  if (!r) throw new ApiError(404, 'not_found');
  if (r.state !== 'submitted') throw new ApiError(409, 'already_decided');
  const now = nowSeconds();
  let done: boolean;
  if (decision === 'approve' && r.join_show_id !== null) {
    // A co-performer (migration 0033): added to the show that invited them; no show, no studio login.
    done = await approveJoin(env.DB, id, r.user_id, r.join_show_id, operatorId, reason, now);
  } else if (decision === 'approve') {
    if (await showNameTaken(env.DB, r.stage_name, slugOf(r.stage_name) || '\u0000')) throw new ApiError(409, 'stage_name_taken');
    try {
      done = await approve(env.DB, id, r.user_id, operatorId, reason, newShow(r, new Date()), now);
    } catch (e) {
      // The applicant became a performer some other way meanwhile (performers.user_id is unique).
      if (isUniqueViolation(e)) throw new ApiError(409, 'already_performer');
      throw e;
    }
  } else {
    done = await close(env.DB, id, decision === 'reject' ? 'rejected' : 'more_info', operatorId, reason, now, now + DOCUMENT_RETENTION_SECONDS);
  }
  if (!done) throw new ApiError(409, 'already_decided');
  await deleteDueDocuments(env, now);
  const after = (await applicationById(env.DB, id))!;
  const origin = mailOrigin(env);
  if (origin) {
    const locale: Locale = r.user_locale === 'de' ? 'de' : 'en';
    await mailerFor(env).send(applicationMail(after.state, locale, r.user_email, { name: r.user_name, stageName: r.stage_name, reason, origin }));
  }
  return { row: after, showId: after.show_id };
}

export async function recordsCustodian(db: D1Database): Promise<{ name: string; address: string } | null> {
  return custodian(db);
}
