import type { RecordsItem, ShowPerson } from '../../../shared/records';

// All SQL of the 2257 records (migration 0033): the verified people of a show, the people an item
// depicts, the operators' list of approved items with their people, the custodian, and the
// invitations of co-performers.

/** The verified people of a show (approved applications), oldest first. */
export async function peopleOfShow(db: D1Database, showId: number): Promise<ShowPerson[]> {
  const { results } = await db
    .prepare('SELECT sp.id, a.stage_name FROM show_performers sp JOIN applications a ON a.id = sp.application_id WHERE sp.show_id = ?1 ORDER BY sp.id')
    .bind(showId)
    .all<ShowPerson>();
  return results;
}

interface RecordsRow {
  kind: 'video' | 'gallery';
  id: number;
  show_id: number;
  show_name: string;
  title_en: string;
  title_de: string;
  reviewed_at: number | null;
  application_id: number | null;
  legal_name: string | null;
  stage_name: string | null;
  date_of_birth: string | null;
  decided_at: number | null;
}

const APPROVED_ITEMS = `SELECT 'video' AS kind, id, show_id, title_en, title_de, reviewed_at, created_at FROM videos WHERE review = 'approved' AND status = 'published'
  UNION ALL SELECT 'gallery', id, show_id, title_en, title_de, reviewed_at, created_at FROM galleries WHERE review = 'approved' AND status = 'published'`;

/** A page of the approved items (newest first) with the people each depicts, and how many items there are. */
export async function recordsPage(db: D1Database, limit: number, offset: number): Promise<{ items: RecordsItem[]; total: number }> {
  const [rows, count] = await db.batch<RecordsRow | { n: number }>([
    db
      .prepare(
        `SELECT i.kind, i.id, i.show_id, s.name AS show_name, i.title_en, i.title_de, i.reviewed_at,
           a.id AS application_id, a.legal_name, a.stage_name, a.date_of_birth, a.decided_at
         FROM (SELECT * FROM (${APPROVED_ITEMS}) ORDER BY created_at DESC, kind, id DESC LIMIT ?1 OFFSET ?2) i
         JOIN shows s ON s.id = i.show_id
         LEFT JOIN item_performers ip ON ip.kind = i.kind AND ip.item_id = i.id
         LEFT JOIN show_performers sp ON sp.id = ip.show_performer_id
         LEFT JOIN applications a ON a.id = sp.application_id
         ORDER BY i.created_at DESC, i.kind, i.id DESC, sp.id`,
      )
      .bind(limit, offset),
    db.prepare(`SELECT COUNT(*) AS n FROM (${APPROVED_ITEMS})`),
  ]);
  const items: RecordsItem[] = [];
  for (const r of rows.results as RecordsRow[]) {
    let item = items.at(-1);
    if (!item || item.kind !== r.kind || item.id !== r.id) {
      item = { kind: r.kind, id: r.id, show_id: r.show_id, show_name: r.show_name, title_en: r.title_en, title_de: r.title_de, approved_at: r.reviewed_at, people: [] };
      items.push(item);
    }
    if (r.application_id !== null) {
      item.people.push({ application_id: r.application_id, legal_name: r.legal_name!, stage_name: r.stage_name!, date_of_birth: r.date_of_birth!, decided_at: r.decided_at });
    }
  }
  return { items, total: (count.results[0] as { n: number }).n };
}

export async function putCustodian(db: D1Database, name: string, address: string, now: number): Promise<void> {
  await db.prepare('UPDATE records_custodian SET name = ?1, address = ?2, updated_at = ?3 WHERE id = 1').bind(name, address, now).run();
}

/** The member with this account name (case-insensitive), or null. */
export async function memberByName(db: D1Database, name: string): Promise<{ id: number } | null> {
  return db.prepare('SELECT id FROM users WHERE lower(name) = lower(?1)').bind(name).first<{ id: number }>();
}

/** An invitation to join the show; false when the member was invited already. */
export async function insertInvite(db: D1Database, showId: number, userId: number, by: number, now: number): Promise<boolean> {
  const r = await db.prepare('INSERT OR IGNORE INTO show_invites (show_id, user_id, invited_by, created_at) VALUES (?1, ?2, ?3, ?4)').bind(showId, userId, by, now).run();
  return (r.meta.changes ?? 0) === 1;
}

/** The shows that invited the member (newest first). */
export async function invitesOf(db: D1Database, userId: number): Promise<{ show_id: number; show_name: string }[]> {
  const { results } = await db
    .prepare('SELECT i.show_id, s.name AS show_name FROM show_invites i JOIN shows s ON s.id = i.show_id WHERE i.user_id = ?1 ORDER BY i.created_at DESC, i.show_id')
    .bind(userId)
    .all<{ show_id: number; show_name: string }>();
  return results;
}

/** The accounts the show invited (newest first). */
export async function invitesOfShow(db: D1Database, showId: number): Promise<{ user_name: string; created_at: number }[]> {
  const { results } = await db
    .prepare('SELECT u.name AS user_name, i.created_at FROM show_invites i JOIN users u ON u.id = i.user_id WHERE i.show_id = ?1 ORDER BY i.created_at DESC, u.id')
    .bind(showId)
    .all<{ user_name: string; created_at: number }>();
  return results;
}

export async function isInvited(db: D1Database, showId: number, userId: number): Promise<boolean> {
  return (await db.prepare('SELECT 1 AS x FROM show_invites WHERE show_id = ?1 AND user_id = ?2').bind(showId, userId).first()) !== null;
}

/**
 * Approves a submitted application to join a show in one batch: the decision, the person added to
 * the show (only once the application is approved) and the used invitation deleted. No show and
 * no studio login are made. False when it was decided already.
 */
export async function approveJoin(db: D1Database, id: number, userId: number, showId: number, operatorId: number, reason: string, now: number): Promise<boolean> {
  const results = await db.batch([
    db
      .prepare(`UPDATE applications SET state = 'approved', reason = ?2, decided_by = ?3, decided_at = ?4, show_id = ?5 WHERE id = ?1 AND state = 'submitted'`)
      .bind(id, reason, operatorId, now, showId),
    db
      .prepare(`INSERT OR IGNORE INTO show_performers (show_id, application_id, added_at, added_by) SELECT ?2, id, ?3, ?4 FROM applications WHERE id = ?1 AND state = 'approved' AND decided_at = ?3`)
      .bind(id, showId, now, operatorId),
    db.prepare('DELETE FROM show_invites WHERE show_id = ?1 AND user_id = ?2').bind(showId, userId),
  ]);
  return (results[0].meta.changes ?? 0) === 1;
}
