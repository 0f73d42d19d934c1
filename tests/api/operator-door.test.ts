import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/app';
import type { AuditPage, SecondFactorEnrolment } from '../../src/shared/operator';
import { base32Decode } from '../../src/shared/totp';
import { registerMember } from './account-helpers';
import { chatMember, performerOf } from './chat-helpers';
import { Client, expectError, expectJson, OPS, req } from './helpers';
import { appointed, codeOf, operator } from './operator-helpers';

// The operators' door (issue 29 point 7): every operator page and API (taken from the app's route
// table) refuses visitors, members, performers and an operator whose login has not given the
// second factor; TOTP enrolment shown once, a code good once, five wrong codes per 15 minutes;
// the audit trail append-only and readable by operators.

/** Every operator route of the app: the pages under /operator, the APIs under /api/operator and /api/support. */
function operatorRoutes(): { method: string; path: string }[] {
  const seen = new Set<string>();
  const out: { method: string; path: string }[] = [];
  for (const r of createApp().routes) {
    if (r.method === 'ALL' || r.path.includes('*') || !/^\/(operator|api\/operator|api\/support)(\/|$)/.test(r.path)) continue;
    const path = r.path.replace(/:(\w+)(\{[^}]*\})?/g, '1');
    const key = `${r.method} ${path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ method: r.method, path });
  }
  return out;
}

const call = (c: Client, r: { method: string; path: string }) => c.fetch(r.path, { method: r.method, body: r.method === 'GET' ? undefined : {} });
const isPage = (path: string) => path.startsWith('/operator');
const isSecondFactor = (path: string) => path.includes('second-factor');

describe('the operators\' door', () => {
  it('every operator page and API refuses a visitor, a member, a performer and an operator without the second factor', async () => {
    const routes = operatorRoutes();
    // The route table has them all (a new operator route is checked here without a hand list).
    for (const known of ['GET /operator', 'GET /operator/messages', 'GET /operator/audit', 'GET /operator/second-factor', 'GET /api/operator/audit', 'GET /api/support/conversations', 'POST /api/support/conversations/1/reply']) {
      expect(routes.map((r) => `${r.method} ${r.path}`)).toContain(known);
    }
    const visitor = new Client();
    const member = (await chatMember()).client;
    const performer = await performerOf(201);
    const unverified = (await appointed()).client;
    for (const r of routes) {
      const label = `${r.method} ${r.path}`;
      const v = await call(visitor, r);
      if (isPage(r.path)) expect([v.status, v.headers.get('Location')?.startsWith('/login?redirect=')], label).toEqual([302, true]);
      else expect(v.status, label).toBe(401);
      for (const someone of [member, performer]) {
        const res = await call(someone, r);
        if (isPage(r.path)) {
          expect(res.status, label).toBe(403);
          expect(await res.text(), label).toContain('data-testid="operator-not-operator"');
        } else await expectError(res, 403, 'not_operator');
      }
      if (isSecondFactor(r.path)) continue;
      const res = await call(unverified, r);
      if (isPage(r.path)) expect([res.status, res.headers.get('Location')], label).toEqual([302, `/operator/second-factor?redirect=${encodeURIComponent(r.path)}`]);
      else await expectError(res, 403, 'second_factor_required');
    }
  });

  it('enrolment: the key is shown until its first code, never after; a code is good once; a new login asks again', async () => {
    const m = await appointed();
    const first = await expectJson<SecondFactorEnrolment>(await m.client.post('/api/operator/second-factor/enrol', {}), 200);
    expect(first.uri).toContain(`secret=${first.secret}`);
    // Asked again before a code: a new key replaces the first (whose codes are no longer good).
    const second = await expectJson<SecondFactorEnrolment>(await m.client.post('/api/operator/second-factor/enrol', {}), 200);
    expect(second.secret).not.toBe(first.secret);
    const oldCode = await codeOf(base32Decode(first.secret)!);
    const key = base32Decode(second.secret)!;
    if (oldCode !== (await codeOf(key))) await expectError(await m.client.post('/api/operator/second-factor/verify', { code: oldCode }), 422, 'validation_failed', ['code', 'code_invalid']);
    for (const bad of [{}, { code: '12345' }, { code: 'abcdef' }, { code: 123456 }]) {
      await expectError(await m.client.post('/api/operator/second-factor/verify', bad), 422, 'validation_failed');
    }
    const code = await codeOf(key);
    // Two parallel requests with the same code: one wins.
    const both = await Promise.all([0, 1].map(() => m.client.post('/api/operator/second-factor/verify', { code })));
    expect(both.map((r) => r.status).sort()).toEqual([200, 422]);
    expect((await m.client.get('/api/operator/audit')).status).toBe(200);
    expect((await m.client.get('/operator/audit')).status).toBe(200);
    // Confirmed: the key is never shown again.
    await expectError(await m.client.post('/api/operator/second-factor/enrol', {}), 409, 'second_factor_enrolled');
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM operator_totp WHERE user_id = ? AND sealed_secret LIKE ?').bind(m.id, `%${second.secret}%`).first('n')).toBe(0);
    // A new login has no second factor until it gives a code (the used one is refused).
    const again = new Client();
    expect((await again.login(m.name, m.password)).status).toBe(200);
    await expectError(await again.get('/api/operator/audit'), 403, 'second_factor_required');
    expect((await again.get('/operator/second-factor')).status).toBe(200);
    await expectError(await again.post('/api/operator/second-factor/verify', { code }), 422, 'validation_failed', ['code', 'code_invalid']);
    await expectJson(await again.post('/api/operator/second-factor/verify', { code: await codeOf(key, 1) }), 200);
    expect((await again.get('/api/operator/audit')).status).toBe(200);
    // With the factor given, the code page sends the operator on.
    const page = await again.get('/operator/second-factor?redirect=%2Foperator%2Faudit');
    expect([page.status, page.headers.get('Location')]).toEqual([302, '/operator/audit']);
  });

  it('five wrong codes per 15 minutes, in parallel too; a right code then is refused as well (429), and counts nothing when it is allowed', async () => {
    const op = await operator();
    const again = new Client();
    expect((await again.login(op.name, op.password)).status).toBe(200);
    const wrong = String((Number(await codeOf(op.secret, 5)) + 1) % 1_000_000).padStart(6, '0');
    const answers = await Promise.all(Array.from({ length: 8 }, () => again.post('/api/operator/second-factor/verify', { code: wrong })));
    expect(answers.map((r) => r.status).sort()).toEqual([422, 422, 422, 422, 422, 429, 429, 429]);
    const locked = await again.post('/api/operator/second-factor/verify', { code: await codeOf(op.secret, 1) });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('Retry-After'))).toBeGreaterThan(0);
    await expectError(await again.get('/api/operator/audit'), 403, 'second_factor_required');
  });

  it('the audit trail: operator actions and token calls recorded (who, what, on what, when), newest first; rows cannot be changed or removed', async () => {
    const op = await operator();
    const m = await registerMember({ verified: true });
    await expectJson(await req(`/api/ops/users/${m.id}/coins`, { method: 'POST', headers: OPS, body: JSON.stringify({ amount: 50, ref: `audit-${m.id}` }) }), 200);
    const trail = await expectJson<AuditPage>(await op.client.get('/api/operator/audit'), 200);
    expect(trail.data[0]).toMatchObject({ actor: 'ops-token', action: 'coins.adjust', target: `user:${m.id}`, detail: { amount: 50, ref: `audit-${m.id}` } });
    expect(trail.data.find((e) => e.action === 'second_factor.enrolled' && e.target === `user:${op.id}`)).toMatchObject({ actor: op.name });
    expect(trail.data.find((e) => e.action === 'operator.appointed' && e.target === `user:${op.id}`)).toMatchObject({ actor: 'ops-token' });
    expect(trail.data[0].at).toBeGreaterThanOrEqual(trail.data[trail.data.length - 1].at);
    const html = await (await op.client.get('/operator/audit')).text();
    expect(html).toContain('data-action="coins.adjust"');
    await expect(env.DB.prepare('UPDATE audit_log SET reason = ? WHERE id = ?').bind('x', trail.data[0].id).run()).rejects.toThrow(/append-only/);
    await expect(env.DB.prepare('DELETE FROM audit_log').run()).rejects.toThrow(/append-only/);
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM audit_log').first('n')).toBe(trail.total);
  });

  it('the token appoints operators and resets a lost authenticator (the operator enrols again); bad ids are refused', async () => {
    const op = await operator();
    expect((await req('/api/ops/operators', { method: 'POST', headers: OPS, body: JSON.stringify({ user_id: op.id }) })).status).toBe(409);
    expect((await req('/api/ops/operators', { method: 'POST', headers: OPS, body: JSON.stringify({ user_id: 'x' }) })).status).toBe(422);
    expect((await req('/api/ops/operators', { method: 'POST', headers: OPS, body: JSON.stringify({ user_id: 99_999_999 }) })).status).toBe(409);
    expect((await req('/api/ops/operators', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ user_id: op.id }) })).status).toBe(401);
    expect((await req(`/api/ops/operators/${op.id}/second-factor`, { method: 'DELETE', headers: OPS })).status).toBe(200);
    await expectError(await op.client.get('/api/operator/audit'), 403, 'second_factor_required');
    await expectJson(await op.client.post('/api/operator/second-factor/enrol', {}), 200);
    expect((await req(`/api/ops/operators/${op.id}/second-factor`, { method: 'DELETE', headers: OPS })).status).toBe(200);
    expect((await req(`/api/ops/operators/${op.id}/second-factor`, { method: 'DELETE', headers: OPS })).status).toBe(404);
  });
});
