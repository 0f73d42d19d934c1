import type { StoredMail as MailRow } from '../../shared/mail';

// The development mailbox: mails the StoredMailer keeps in D1 instead of sending.

export async function insertMail(db: D1Database, mail: Omit<MailRow, 'id'>): Promise<void> {
  await db
    .prepare('INSERT INTO mails (to_addr, subject, html, text, kind, created_at) VALUES (?, ?, ?, ?, ?, ?)')
    .bind(mail.to_addr, mail.subject, mail.html, mail.text, mail.kind, mail.created_at)
    .run();
}

/** The newest mails, to one address (any case) or to all. */
export async function listMails(db: D1Database, to: string | null, limit: number): Promise<MailRow[]> {
  const stmt = to
    ? db.prepare('SELECT * FROM mails WHERE to_addr = ? COLLATE NOCASE ORDER BY id DESC LIMIT ?').bind(to, limit)
    : db.prepare('SELECT * FROM mails ORDER BY id DESC LIMIT ?').bind(limit);
  return (await stmt.all<MailRow>()).results;
}

export function findMail(db: D1Database, id: number) {
  return db.prepare('SELECT * FROM mails WHERE id = ?').bind(id).first<MailRow>();
}
