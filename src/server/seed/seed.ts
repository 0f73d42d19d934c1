import { hashPassword } from '../lib/password';
import { generateDemoData } from './generator';
import { DEMO_MEMBER, type SqlValue } from './rows';
import { seedStatements, sqlLiteral, toSqlScript } from './sql';

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

async function memberValues(pepper: string, now: number): Promise<SqlValue[]> {
  return [DEMO_MEMBER.name, DEMO_MEMBER.email, await hashPassword(DEMO_MEMBER.password, pepper), 1, 1, now, now];
}

/** The whole demo data set (shows and the demo member) as a script for `wrangler d1 execute`. */
export async function demoSqlScript(pepper: string, now = 1767225600): Promise<string> {
  const member = (await memberValues(pepper, now)).map(sqlLiteral).join(', ');
  const promos = promoValues(now)
    .map((row) => `(${row.map(sqlLiteral).join(', ')})`)
    .join(', ');
  return `${toSqlScript(generateDemoData(now))}\n${MEMBER_INSERT} (${member});\n${MEMBER_COINS};\n${PROMO_INSERT} ${promos};\n`;
}

/** Seeds a database directly (tests in the Workers runtime). */
export async function seedDatabase(db: D1Database, pepper: string, now = 1767225600): Promise<void> {
  const statements = seedStatements(generateDemoData(now)).map((s) => db.prepare(s.sql).bind(...s.params));
  statements.push(db.prepare(`${MEMBER_INSERT} (?, ?, ?, ?, ?, ?, ?)`).bind(...(await memberValues(pepper, now))), db.prepare(MEMBER_COINS));
  for (const row of promoValues(now)) statements.push(db.prepare(`${PROMO_INSERT} (?, ?, ?, ?, ?)`).bind(...row));
  for (let i = 0; i < statements.length; i += 500) await db.batch(statements.slice(i, i + 500));
}
