/** A passed age check: this browser session, and the member if logged in, are age-verified. */
export async function markAgeChecked(db: D1Database, sessionId: string, userId: number | null): Promise<void> {
  const statements = [db.prepare('UPDATE sessions SET agechecked = 1 WHERE id = ?').bind(sessionId)];
  if (userId !== null) statements.push(db.prepare('UPDATE users SET age_verified = 1 WHERE id = ?').bind(userId));
  await db.batch(statements);
}
