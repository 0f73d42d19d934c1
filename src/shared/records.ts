import { z } from 'zod';

// The 2257 records (issue 29 point 1, migration 0033): the verified people of a show, the people
// each item depicts, the operators' records list and the custodian they edit.

export const OPERATOR_RECORDS_PATH = '/operator/records';
export const RECORDS_PAGE_SIZE = 50;
export const CUSTODIAN_NAME_MAX = 200;
export const CUSTODIAN_ADDRESS_MAX = 500;
export const INVITE_NAME_MAX = 64;

/** One verified person of a show, as the studio's upload form offers them. */
export interface ShowPerson {
  id: number;
  stage_name: string;
}

/** A person in an item as the operators' records list shows them (the ID document stays behind the documents route). */
export interface RecordsPerson {
  application_id: number;
  legal_name: string;
  stage_name: string;
  date_of_birth: string;
  decided_at: number | null;
}

export interface RecordsItem {
  kind: 'video' | 'gallery';
  id: number;
  show_id: number;
  show_name: string;
  title_en: string;
  title_de: string;
  approved_at: number | null;
  people: RecordsPerson[];
}

export interface RecordsPageAnswer {
  data: RecordsItem[];
  current_page: number;
  last_page: number;
  total: number;
  custodian: Custodian;
}

export interface Custodian {
  name: string;
  address: string;
}

const line = (max: number) => z.string('required').trim().min(3, 'too_short').max(max, 'too_long');

export const custodianSchema = z.object({ name: line(CUSTODIAN_NAME_MAX), address: line(CUSTODIAN_ADDRESS_MAX) }).strict();

/** The studio names a member account to invite as a co-performer. */
export const inviteSchema = z.object({ name: z.string('required').trim().min(1, 'required').max(INVITE_NAME_MAX, 'too_long') }).strict();

/** The people an upload depicts: ids of the show's verified people (the form ticks all by default). */
export const itemPeopleSchema = z
  .array(z.number().int('integer_required').positive('performer_not_verified'), 'required')
  .min(1, 'required')
  .max(20, 'too_many');
