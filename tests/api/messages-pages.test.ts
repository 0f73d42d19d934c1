import { describe, expect, it } from 'vitest';
import { registerMember } from './account-helpers';
import { Client } from './helpers';

// The member's message pages (issue 14): visitors go to the login and come back; members get the
// island, never cached; hostile ids are a 404 page, never a 5xx.

describe('the member message pages', () => {
  it('visitors are sent to the login with the way back (query kept)', async () => {
    const guest = new Client();
    for (const path of ['/messages', '/messages/support', '/messages/12', '/messages?order_by=online&unread=1']) {
      const res = await guest.fetch(path, { headers: { Cookie: 'splash18=1' } });
      expect(res.status, path).toBe(302);
      expect(res.headers.get('Location'), path).toBe(`/login?redirect=${encodeURIComponent(path)}`);
    }
  });

  it('members get the inbox, a thread and support as one island each, with no-store', async () => {
    const m = await registerMember({ verified: true });
    m.client.jar.set('splash18', '1');
    for (const [path, view] of [
      ['/messages?showname=Mia', 'inbox'],
      ['/messages/7', 'thread'],
      ['/messages/support', 'support'],
    ] as const) {
      const res = await m.client.get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('Cache-Control'), path).toContain('no-store');
      const html = await res.text();
      expect(html, path).toContain('data-island="Messages"');
      expect(html, path).toContain(`&quot;view&quot;:&quot;${view}&quot;`);
    }
  });

  it('hostile ids answer 404, never a 5xx', async () => {
    const m = await registerMember({ verified: true });
    m.client.jar.set('splash18', '1');
    for (const path of ['/messages/0', '/messages/-1', '/messages/abc', '/messages/1e3', '/messages/99999999999999999999', '/messages/%00', '/messages/1/2']) {
      const res = await m.client.get(path);
      expect(res.status, path).toBe(404);
    }
  });
});
