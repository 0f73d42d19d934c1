// npm run seed: apply local migrations and seed the demo data if the database is empty.
import { ensureDevVars, migrateLocal, seedIfEmpty, seedMediaIfMissing } from './lib.mjs';

const vars = ensureDevVars();
await migrateLocal(process.env.PERSIST_TO);
console.log((await seedIfEmpty(process.env.PERSIST_TO, vars.PASSWORD_PEPPER)) ? 'Seeded the demo data.' : 'Already seeded.');
console.log((await seedMediaIfMissing(process.env.PERSIST_TO)) ? 'Put the demo media into the local R2.' : 'Demo media already in the local R2.');
