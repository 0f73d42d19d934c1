import type { Bindings } from '../env';
import { config, mailOrigin } from './config';
import { ApiError } from './errors';
import { insertMail } from './mail.repo';
import { nowSeconds } from './clock';

export interface Mail {
  to: string;
  subject: string;
  html: string;
  text: string;
  /** What it is for (verify, reset, ...), kept with stored mails. */
  kind: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/** Development: every mail is stored in D1 and listed at /dev/mailbox. */
export class StoredMailer implements Mailer {
  constructor(private readonly db: D1Database) {}
  async send(mail: Mail): Promise<void> {
    await insertMail(this.db, { to_addr: mail.to, subject: mail.subject, html: mail.html, text: mail.text, kind: mail.kind, created_at: nowSeconds() });
  }
}

/**
 * Production: a transactional mail provider's HTTP API (JSON with from, to, subject, html,
 * text; bearer key). Most providers take this shape; adapt `body` for one that does not.
 */
export class HttpMailer implements Mailer {
  constructor(
    private readonly url: string,
    private readonly key: string,
    private readonly from: string,
  ) {}
  async send(mail: Mail): Promise<void> {
    const res = await fetch(this.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${this.key}` },
      body: JSON.stringify({ from: this.from, to: [mail.to], subject: mail.subject, html: mail.html, text: mail.text }),
    });
    if (!res.ok) throw new Error(`mail provider answered ${res.status}`);
  }
}

/** The mailer; 503 mail_unavailable in production without PUBLIC_ORIGIN (links would be wrong). */
export function mailerFor(env: Bindings): Mailer {
  if (!mailOrigin(env)) throw new ApiError(503, 'mail_unavailable');
  if (!config(env).dev && env.MAIL_API_URL && env.MAIL_API_KEY) {
    return new HttpMailer(env.MAIL_API_URL, env.MAIL_API_KEY, env.MAIL_FROM ?? config(env).supportEmail);
  }
  return new StoredMailer(env.DB);
}
