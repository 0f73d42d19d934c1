import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { count, registerMember } from './account-helpers';
import { Client, expectError, req } from './helpers';

// Malformed bodies are the sender's fault: pages show their error state, /api answers 422, never a
// 5xx, and nothing is stored.

async function sandboxBilling(member: Awaited<ReturnType<typeof registerMember>>, phone: boolean): Promise<string> {
  const res = await member.client.post(phone ? '/api/billing/init_phonecall' : '/api/billing/init', { paymenttypeid: phone ? 3 : 1, productid: phone ? 8 : 1 });
  const body = (await res.json()) as { link: string };
  expect(res.status, JSON.stringify(body)).toBe(200);
  return new URL(body.link, 'http://localhost').searchParams.get('bid') ?? '';
}

describe('malformed bodies', () => {
  it('the sandbox pages answer a multipart body without boundary with their 422 page, not a 500', async () => {
    const member = await registerMember({ verified: true });
    const bids = { '/billing/sandbox': await sandboxBilling(member, false), '/billing/phone': await sandboxBilling(member, true) };
    for (const [path, bid] of Object.entries(bids)) {
      const form = `--b\r\nContent-Disposition: form-data; name="bid"\r\n\r\n${bid}\r\n--b\r\nContent-Disposition: form-data; name="action"\r\n\r\npay\r\n--b--\r\n`;
      for (const contentType of ['multipart/form-data', 'multipart/form-data; boundary=']) {
        const res = await req(path, { method: 'POST', headers: { 'Content-Type': contentType }, body: form, redirect: 'manual' });
        expect(res.status, `${path} ${contentType}`).toBe(422);
        expect(res.headers.get('Content-Type')).toMatch(/^text\/html/);
        expect(await res.text()).toContain('data-status="422"');
      }
      // Control characters in a field, and JSON where a form belongs: the same page.
      const poisoned = await req(path, { method: 'POST', body: new URLSearchParams({ bid: `${bid}\r\n`, action: 'pay' }), redirect: 'manual' });
      expect(poisoned.status).toBe(422);
      const json = await req(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ bid, action: 'pay' }), redirect: 'manual' });
      expect(json.status).toBe(422);
    }
    expect(await count('billings', "user_id = ? AND status = 'pending'", member.id)).toBe(2);
    expect(await count('ledger', 'user_id = ?', member.id)).toBe(0);
  });

  it('/api writes: a body that is not JSON by type or content is a 422 before the route runs', async () => {
    const client = new Client();
    const before = await count('users');
    const valid = JSON.stringify({ email: 'bodies@example.org', password: 'correct-horse-42', username: 'bodiesname', terms_check: true });
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data', 'application/xml']) {
      await expectError(await client.post('/api/register', valid, { contentType }), 422, 'invalid_body');
    }
    await expectError(await client.post('/api/register', '{"email": "x@example.org",', {}), 422, 'invalid_body');
    await expectError(await client.post('/api/register', valid, { contentType: null }), 422, 'invalid_body');
    expect(await count('users')).toBe(before);
  });

  it('/api writes: control characters in any string, key or value, are a 422 naming the field', async () => {
    const member = await registerMember({ verified: true });
    for (const ch of ['\r', '\n', '\u0000', '\t', '\u202e', '\u2066', '\u0085']) {
      const res = await member.client.post('/api/user/nickname/add', { nickname: `nick${ch}name` });
      await expectError(res, 422, 'validation_failed', ['nickname', 'control_characters']);
      // At the ends too, where a trim would have hidden it.
      await expectError(await member.client.post('/api/coupons/redeem', { code: `LOYAL25${ch}` }), 422, 'validation_failed', ['code', 'control_characters']);
    }
    await expectError(await member.client.post('/api/session/vid', { vid: 'visitor-id-1', confidence: 0.5, [`x\u0000`]: 1 }), 422, 'validation_failed', ['_', 'control_characters']);
    expect(await count('nicknames', 'user_id = ?', member.id)).toBe(0);
    expect(await count('user_coupons', 'user_id = ?', member.id)).toBe(0);
    // Error logs carry stack traces: lines and tabs are their content there.
    const log = await member.client.post('/api/log', { entries: [{ created: 1, message: 'Error: x\n\tat f (a.js:1:2)\r\n', level: 2 }] });
    expect(log.status).toBe(204);
    await expectError(await member.client.post('/api/log', { entries: [{ created: 1, message: 'Error\u0000', level: 2 }] }), 422, 'validation_failed', [
      'entries.0.message',
      'control_characters',
    ]);
    const row = await env.DB.prepare('SELECT visitor_id FROM sessions WHERE user_id = ?').bind(member.id).first<{ visitor_id: string | null }>();
    expect(row?.visitor_id ?? null).toBeNull();
  });
});
