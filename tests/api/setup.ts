import { resetDatabase, resetDurableObjects, seedTestDatabase } from './reset';

// Each test file starts from the seeded demo database and no Durable Object state: what the pool
// worker's previous file left is wiped first (reset.ts).
await resetDurableObjects();
await resetDatabase();
await seedTestDatabase();
