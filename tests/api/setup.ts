import { resetBuckets, resetDatabase, resetDurableObjects, seedTestDatabase } from './reset';

// Each test file starts from the seeded demo database, no Durable Object state and empty buckets: what the pool
// worker's previous file left is wiped first (reset.ts).
await resetDurableObjects();
await resetBuckets();
await resetDatabase();
await seedTestDatabase();
