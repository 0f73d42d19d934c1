import { hashPassword } from '../lib/password';
import { generateDemoData } from './generator';
import { demoConversationStatements, DEMO_OPERATOR, operatorStatements } from './messages-seed';
import { DEMO_MEMBER, type SqlValue } from './rows';
import { seedStatements, sqlLiteral, toSqlScript } from './sql';
import { contestSeedScript, contestSeedStatements } from './contest';
import { nowSeconds } from '../lib/clock';

// Promotions shown on the first list page: most run for years, one ended long ago.
const PROMOS: [number, string, string, number][] = [
  [5, 'Weekend special: 20% more chat time', 'Wochenend-Special: 20 % mehr Chatzeit', 5 * 365],
  [12, 'New here: say hello', 'Neu hier: sagen Sie Hallo', 5 * 365],
  [27, 'Music night every Friday', 'Musikabend jeden Freitag', 5 * 365],
  [40, 'Travel stories live', 'Reisegeschichten live', 5 * 365],
  [63, 'Ended promotion', 'Beendete Aktion', 1],
];
const PROMO_INSERT = 'INSERT INTO promos (show_id, title_en, title_de, start_at, stop_at) VALUES';
const promoValues = (now: number): SqlValue[][] => PROMOS.map(([id, en, de, days]) => [id, en, de, now, now + days * 86_400]);

// The demo member is a long-standing member: the welcome dialog for new members has been shown.
const MEMBER_INSERT = 'INSERT INTO users (name, email, password_hash, is_verified, age_verified, created_at, welcome_shown_at) VALUES';
// Their coins come through the ledger like every balance (an opening entry from promotions).
const MEMBER_COINS = `INSERT INTO ledger (user_id, amount, reason, ref, created_at, counter) SELECT id, ${DEMO_MEMBER.coins}, 'adjust', 'opening:' || id, created_at, 'promotions' FROM users WHERE name = '${DEMO_MEMBER.name}'`;

// Every demo show has a performer account: login = the show's slug name (e.g. `mia`), password
// PERFORMER_PASSWORD for all of them (one hash; documented in docs/live-rooms.md).
export const PERFORMER_PASSWORD = 'studio-demo-1';
export const PERFORMER_EMAIL_DOMAIN = 'performers.example';
const PERFORMER_USERS = `INSERT INTO users (name, email, password_hash, is_verified, age_verified, created_at, welcome_shown_at)
  SELECT slug_name, slug_name || '@${PERFORMER_EMAIL_DOMAIN}', ?1, 1, 1, ?2, ?2 FROM shows ORDER BY id`;
const PERFORMER_LINKS = 'INSERT INTO performers (user_id, show_id, created_at) SELECT u.id, s.id, ?1 FROM shows s JOIN users u ON u.name = s.slug_name';
// The 2257 records of the demo shows (migration 0033): each demo performer has an approved
// application (fictional, marked as a demo record, no documents: they count as deleted) that
// verifies them for their show, and every demo video and gallery depicts them. The date of birth
// follows the show's age on the seed's clock (deterministic: ?1 is the seed's `now`).
const DEMO_RECORDS = [
  `INSERT INTO applications (user_id, legal_name, date_of_birth, country, stage_name, id_document_key, selfie_key, consent_at, state, reason, decided_at, show_id, documents_deleted_at, created_at)
   SELECT p.user_id, s.name || ' (demo record)', printf('%04d-07-01', CAST(strftime('%Y', ?1, 'unixepoch') AS INTEGER) - 1 - s.age), s.country, s.name,
     'demo/id/' || s.id, 'demo/selfie/' || s.id, ?1, 'approved', 'Demo data (seed)', ?1, s.id, ?1, ?1
   FROM performers p JOIN shows s ON s.id = p.show_id ORDER BY s.id`,
  `INSERT INTO show_performers (show_id, application_id, added_at, added_by) SELECT show_id, id, ?1, NULL FROM applications WHERE state = 'approved' AND id_document_key LIKE 'demo/%' ORDER BY id`,
  `INSERT INTO item_performers (kind, item_id, show_performer_id) SELECT 'video', v.id, sp.id FROM videos v JOIN show_performers sp ON sp.show_id = v.show_id`,
  `INSERT INTO item_performers (kind, item_id, show_performer_id) SELECT 'gallery', g.id, sp.id FROM galleries g JOIN show_performers sp ON sp.show_id = g.show_id`,
];
const fill = (sql: string, values: SqlValue[]) => sql.replace(/\?(\d)/g, (_, i: string) => sqlLiteral(values[Number(i) - 1]));

async function memberValues(pepper: string, now: number): Promise<SqlValue[]> {
  return [DEMO_MEMBER.name, DEMO_MEMBER.email, await hashPassword(DEMO_MEMBER.password, pepper), 1, 1, now, now];
}

/**
 * The whole demo data set (shows, the demo member, the contest) as a script for `wrangler d1 execute`.
 * `contestNow` is the real clock: the demo contest's periods follow it (seed/contest.ts).
 */
export async function demoSqlScript(pepper: string, now = 1767225600, contestNow = nowSeconds()): Promise<string> {
  const member = (await memberValues(pepper, now)).map(sqlLiteral).join(', ');
  const promos = promoValues(now)
    .map((row) => `(${row.map(sqlLiteral).join(', ')})`)
    .join(', ');
  const hash = await hashPassword(PERFORMER_PASSWORD, pepper);
  const records = DEMO_RECORDS.map((sql) => `${fill(sql, [now])};\n`).join('');
  const performers = `${fill(PERFORMER_USERS, [hash, now])};\n${fill(PERFORMER_LINKS, [now])};\n${records}`;
  const messages = [...operatorStatements(sqlLiteral(await hashPassword(DEMO_OPERATOR.password, pepper)), now), ...demoConversationStatements(now)].map((s) => `${s};\n`).join('');
  return `${toSqlScript(generateDemoData(now))}\n${MEMBER_INSERT} (${member});\n${MEMBER_COINS};\n${PROMO_INSERT} ${promos};\n${performers}${messages}${contestSeedScript(contestNow)}`;
}

/**
 * A local database seeded before the store (migration 0016) has videos without parts: the
 * store's demo rows of the same catalogue, and the videos' durations and votes that go with them.
 */
export function storeBackfillSqlScript(now = 1767225600): string {
  const data = generateDemoData(now);
  const videos = data.videos.map((v) => `UPDATE videos SET duration_s = ${v.duration_s}, rating_votes = ${v.rating_votes} WHERE id = ${v.id};`);
  return `${toSqlScript(data, ['videoParts', 'videoTags', 'galleryPictures'])}\n${videos.join('\n')}\n`;
}

/** Seeds a database directly (tests in the Workers runtime). */
export async function seedDatabase(db: D1Database, pepper: string, now = 1767225600, contestNow = nowSeconds()): Promise<void> {
  const statements = seedStatements(generateDemoData(now)).map((s) => db.prepare(s.sql).bind(...s.params));
  statements.push(db.prepare(`${MEMBER_INSERT} (?, ?, ?, ?, ?, ?, ?)`).bind(...(await memberValues(pepper, now))), db.prepare(MEMBER_COINS));
  for (const row of promoValues(now)) statements.push(db.prepare(`${PROMO_INSERT} (?, ?, ?, ?, ?)`).bind(...row));
  statements.push(db.prepare(PERFORMER_USERS).bind(await hashPassword(PERFORMER_PASSWORD, pepper), now));
  statements.push(db.prepare(PERFORMER_LINKS).bind(now));
  for (const sql of DEMO_RECORDS) statements.push(sql.includes('?1') ? db.prepare(sql).bind(now) : db.prepare(sql));
  const operatorHash = sqlLiteral(await hashPassword(DEMO_OPERATOR.password, pepper));
  for (const sql of [...operatorStatements(operatorHash, now), ...demoConversationStatements(now)]) statements.push(db.prepare(sql));
  for (const sql of contestSeedStatements()) statements.push(sql.includes('?1') ? db.prepare(sql).bind(contestNow) : db.prepare(sql));
  for (let i = 0; i < statements.length; i += 500) await db.batch(statements.slice(i, i + 500));
}

/** A new running contest round when none runs (`npm start` on a database seeded earlier; seed/contest.ts). */
export function contestRollSqlScript(contestNow = nowSeconds()): string {
  return contestSeedScript(contestNow);
}
