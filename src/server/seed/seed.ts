import { hashPassword } from '../lib/password';
import { DEMO_MEMBER, generateDemoData, seedStatements, sqlLiteral, toSqlScript, type SqlValue } from './demo-data';

const MEMBER_INSERT = 'INSERT INTO users (name, email, password_hash, coins, is_verified, age_verified, created_at) VALUES';

async function memberValues(pepper: string, now: number): Promise<SqlValue[]> {
  return [DEMO_MEMBER.name, DEMO_MEMBER.email, await hashPassword(DEMO_MEMBER.password, pepper), DEMO_MEMBER.coins, 1, 1, now];
}

/** The whole demo data set (shows and the demo member) as a script for `wrangler d1 execute`. */
export async function demoSqlScript(pepper: string, now = 1767225600): Promise<string> {
  const member = (await memberValues(pepper, now)).map(sqlLiteral).join(', ');
  return `${toSqlScript(generateDemoData(now))}\n${MEMBER_INSERT} (${member});\n`;
}

/** Seeds a database directly (tests in the Workers runtime). */
export async function seedDatabase(db: D1Database, pepper: string, now = 1767225600): Promise<void> {
  const statements = seedStatements(generateDemoData(now)).map((s) => db.prepare(s.sql).bind(...s.params));
  statements.push(db.prepare(`${MEMBER_INSERT} (?, ?, ?, ?, ?, ?, ?)`).bind(...(await memberValues(pepper, now))));
  for (let i = 0; i < statements.length; i += 500) await db.batch(statements.slice(i, i + 500));
}
