/** One more hit of a website on a day (the counter pixel). */
export async function countHit(db: D1Database, day: string, websiteId: number): Promise<void> {
  await db
    .prepare('INSERT INTO counter_hits (day, website_id, hits) VALUES (?, ?, 1) ON CONFLICT (day, website_id) DO UPDATE SET hits = hits + 1')
    .bind(day, websiteId)
    .run();
}
