/** A mail the development mailbox kept (D1 table mails), as stored and as the mailbox shows it. */
export interface StoredMail {
  id: number;
  to_addr: string;
  subject: string;
  html: string;
  text: string;
  kind: string;
  created_at: number;
}
