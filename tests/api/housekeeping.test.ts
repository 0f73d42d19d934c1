import { createExecutionContext, createScheduledController, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import worker from '../../src/server/index';
import { registerMember } from './account-helpers';

// The daily cron (wrangler.toml [triggers]) deletes applicants' documents once their retention has
// passed, with no operator decision needed to set it off.

const now = () => Math.floor(Date.now() / 1000);

/** An application with its two documents stored, decided `state`, deletable from `deleteAfter` on. */
async function application(state: 'rejected' | 'more_info' | 'approved', deleteAfter: number | null): Promise<{ id: number; keys: string[] }> {
  const member = await registerMember({ verified: true });
  const keys = [`doc-${crypto.randomUUID()}`, `doc-${crypto.randomUUID()}`];
  for (const key of keys) await env.IDDOCS.put(key, 'bytes');
  const row = await env.DB.prepare(
    `INSERT INTO applications (user_id, legal_name, date_of_birth, country, stage_name, id_document_key, selfie_key, consent_at, state, delete_after, created_at)
     VALUES (?1, 'Test Person', '1990-01-01', 'DE', ?2, ?3, ?4, ?5, ?6, ?7, ?5) RETURNING id`,
  )
    .bind(member.id, `Stage ${keys[0].slice(4, 12)}`, keys[0], keys[1], now() - 100, state, deleteAfter)
    .first<{ id: number }>();
  return { id: row!.id, keys };
}

async function cron(): Promise<void> {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: '17 3 * * *' }), env, ctx);
  await waitOnExecutionContext(ctx);
}

const stored = async (keys: string[]) => (await Promise.all(keys.map((k) => env.IDDOCS.head(k)))).filter(Boolean).length;

describe('the daily housekeeping', () => {
  it('deletes every document past its retention (more than a page of them), keeps the rest and marks what it deleted', async () => {
    const due = await Promise.all(Array.from({ length: 55 }, (_, i) => application(i % 2 ? 'rejected' : 'more_info', now() - 1)));
    const later = await application('rejected', now() + 3600);
    const kept = await application('approved', null);
    await cron();
    for (const a of due) expect(await stored(a.keys)).toBe(0);
    expect(await stored(later.keys)).toBe(2);
    expect(await stored(kept.keys)).toBe(2);
    // (The seeded demo records are stored without documents: marked deleted from the start.)
    const ids = JSON.stringify([...due, later, kept].map((a) => a.id));
    const marked = await env.DB.prepare('SELECT COUNT(*) AS n FROM applications WHERE documents_deleted_at IS NOT NULL AND id IN (SELECT value FROM json_each(?))').bind(ids).first<{ n: number }>();
    expect(marked!.n).toBe(55);
    // Again: nothing left to do, nothing else touched.
    await cron();
    expect(await stored(later.keys)).toBe(2);
  });
});
