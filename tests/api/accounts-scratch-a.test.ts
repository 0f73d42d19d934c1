import { it } from 'vitest';
import { env, exports } from 'cloudflare:workers';
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import app from '../../src/server/index';
it('direct', async () => {
  const out = [];
  for (let round = 0; round < 5; round++) {
    const t = performance.now();
    for (let i = 0; i < 100; i++) { const ctx = createExecutionContext(); const r = await app.fetch(new Request('http://localhost/version'), env, ctx); await r.text(); await waitOnExecutionContext(ctx); }
    out.push(Math.round(performance.now() - t));
  }
  console.log('T direct', out.join(' '));
}, 120000);
it('exports', async () => {
  const out = [];
  for (let round = 0; round < 5; round++) {
    const t = performance.now();
    for (let i = 0; i < 100; i++) { const r = await exports.default.fetch(new Request('http://localhost/version')); await r.text(); }
    out.push(Math.round(performance.now() - t));
  }
  console.log('T exports', out.join(' '));
}, 120000);
