import type { ShowInvite } from '../../../shared/applications';
import { RECORDS_PAGE_SIZE, type Custodian, type RecordsPageAnswer, type ShowPerson } from '../../../shared/records';
import { nowSeconds } from '../../lib/clock';
import { ApiError } from '../../lib/errors';
import { custodian } from './applications.repo';
import { insertInvite, invitesOf, invitesOfShow, memberByName, peopleOfShow, putCustodian, recordsPage } from './records.repo';

// The 2257 records (issue 29 point 1, migration 0033) as other features use them: the studio's
// verified people and invitations, the uploads' check of the people an item depicts, and the
// operators' records list and custodian.

export function verifiedPeople(db: D1Database, showId: number): Promise<ShowPerson[]> {
  return peopleOfShow(db, showId);
}

/**
 * The people an upload depicts: the ids named (default: all the show's verified people), each a
 * verified person of this show, else 422 with the field `performers` (nothing is written).
 */
export async function checkItemPeople(db: D1Database, showId: number, named: number[] | undefined): Promise<number[]> {
  const people = await peopleOfShow(db, showId);
  if (people.length === 0) throw new ApiError(422, 'validation_failed', { performers: ['no_verified_performer'] });
  if (named === undefined) return people.map((p) => p.id);
  const ids = [...new Set(named)];
  const verified = new Set(people.map((p) => p.id));
  if (ids.length === 0) throw new ApiError(422, 'validation_failed', { performers: ['required'] });
  if (ids.some((id) => !verified.has(id))) throw new ApiError(422, 'validation_failed', { performers: ['performer_not_verified'] });
  return ids;
}

export async function recordsList(db: D1Database, page: number): Promise<RecordsPageAnswer> {
  const { items, total } = await recordsPage(db, RECORDS_PAGE_SIZE, (page - 1) * RECORDS_PAGE_SIZE);
  return { data: items, current_page: page, last_page: Math.max(1, Math.ceil(total / RECORDS_PAGE_SIZE)), total, custodian: await currentCustodian(db) };
}

export async function currentCustodian(db: D1Database): Promise<Custodian> {
  return (await custodian(db)) ?? { name: '', address: '' };
}

export async function changeCustodian(db: D1Database, c: Custodian): Promise<void> {
  await putCustodian(db, c.name, c.address, nowSeconds());
}

/** The studio invites a member account by its name to apply as a co-performer (422 unknown, 409 already). */
export async function inviteCoPerformer(db: D1Database, showId: number, by: number, name: string): Promise<void> {
  const member = await memberByName(db, name);
  if (!member || member.id === by) throw new ApiError(422, 'validation_failed', { name: ['unknown_member'] });
  if (!(await insertInvite(db, showId, member.id, by, nowSeconds()))) throw new ApiError(409, 'already_invited');
}

export function showInvites(db: D1Database, showId: number): Promise<{ user_name: string; created_at: number }[]> {
  return invitesOfShow(db, showId);
}

export function invitesFor(db: D1Database, userId: number): Promise<ShowInvite[]> {
  return invitesOf(db, userId);
}
