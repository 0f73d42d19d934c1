// Messages (issue 14): (1) a message send to the recipient's badge update: the time from sending
// (POST) to the user:mc event on the recipient's realtime socket, both ways: a member writes to a
// show (the performer's studio count) and the performer answers (the member's count); (2) the
// member's conversation list (default order, the unread list, the latest list) with 10,000
// messages in the database, latency under load.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { wrangler } from '../scripts/lib.mjs';
import { Http, load, percentile } from './lib.mjs';

const DEMO = { username: 'demo', password: 'demo-pass-2026' };
const SHOW = { id: 1, username: 'fleur', password: 'studio-demo-1' };
const FILL_MESSAGES = 10_000;
const FILL_SHOWS = 200;

async function must(p, what) {
  const r = await p;
  if (r.status !== 200) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)?.slice(0, 300)}`);
  return r.body;
}

/** A realtime socket with the client's cookies; `next(side)` resolves with the receive time of the next user:mc of that side. */
function socket(base, client) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/api/realtime`, { headers: { Cookie: client.headers().Cookie, Origin: base } });
    const waiting = [];
    const timer = setTimeout(() => reject(new Error('no hello within 20 s')), 20_000);
    ws.on('message', (data) => {
      const now = performance.now();
      const e = JSON.parse(String(data));
      if (e.type === 'hello') {
        clearTimeout(timer);
        resolve({ ws, next: (side) => new Promise((res) => waiting.push({ side, res })) });
      } else if (e.type === 'user:mc') {
        const i = waiting.findIndex((w) => w.side === e.side);
        if (i >= 0) waiting.splice(i, 1)[0].res(now);
      }
    });
    ws.on('error', reject);
  });
}

async function sendToBadge(base, member, performer, rounds) {
  const memberWs = await socket(base, member);
  const studioWs = await socket(base, performer);
  const toStudio = [];
  const toMember = [];
  let cid = 0;
  for (let i = 0; i < rounds; i++) {
    const studioGot = studioWs.next('studio');
    const t0 = performance.now();
    const sent = await must(member.call('POST', '/api/conversations/show', { body: `bench message ${i}`, showid: SHOW.id, pseudoid: 0 }), 'send');
    toStudio.push((await studioGot) - t0);
    cid = sent.conversation.id;
    const memberGot = memberWs.next(undefined);
    const t1 = performance.now();
    await must(performer.call('POST', `/api/studio/conversations/${cid}/reply`, { body: `bench answer ${i}` }), 'reply');
    toMember.push((await memberGot) - t1);
  }
  memberWs.ws.close();
  studioWs.ws.close();
  const stats = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return { p50: percentile(s, 50), p99: percentile(s, 99), max: s.at(-1) };
  };
  return { toStudio: stats(toStudio), toMember: stats(toMember) };
}

/** 10,000 messages: the member's conversations with FILL_SHOWS shows (half of the answers unread). */
async function fill(persistTo, memberId) {
  const now = Math.floor(Date.now() / 1000);
  const sql = `
INSERT OR IGNORE INTO conversations (user_id, show_id, pseudo_id, member_pseudo, last_message_at, created_at)
  WITH RECURSIVE s(i) AS (SELECT 2 UNION ALL SELECT i + 1 FROM s WHERE i < ${FILL_SHOWS + 1})
  SELECT ${memberId}, i, 0, 'Fan-BENCH' || i, ${now} - i * 60, ${now} - 86400 FROM s;
INSERT INTO messages (conversation_id, user_id, show_id, author, body, created_at, read_member, read_side)
  WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${FILL_MESSAGES - 1})
  SELECT c.id, ${memberId}, c.show_id, CASE WHEN n.i % 2 = 0 THEN 'member' ELSE 'show' END, 'bench text ' || n.i, ${now} - 86400 + n.i, CASE WHEN n.i % 4 = 1 THEN 0 ELSE 1 END, 1
  FROM n JOIN conversations c ON c.user_id = ${memberId} AND c.show_id = 2 + (n.i % ${FILL_SHOWS}) AND c.pseudo_id = 0;
`;
  const file = join(persistTo, 'bench-messages.sql');
  writeFileSync(file, sql);
  await wrangler(['d1', 'execute', 'DB', '--local', '--persist-to', persistTo, '--file', file], { capture: true });
  const out = await wrangler(['d1', 'execute', 'DB', '--local', '--persist-to', persistTo, '--json', '--command', 'SELECT COUNT(*) AS n FROM messages'], { capture: true });
  return JSON.parse(out)[0].results[0].n;
}

export async function benchMessages(ctx, { rounds = 100, seconds = 5, concurrency = 8 } = {}) {
  const base = ctx.url;
  const member = new Http(base);
  await must(member.call('POST', '/api/auth/login', DEMO), 'member login');
  const performer = new Http(base);
  await must(performer.call('POST', '/api/auth/login', { username: SHOW.username, password: SHOW.password }), 'performer login');
  const badge = await sendToBadge(base, member, performer, rounds);

  const me = await must(member.call('GET', '/api/auth/user'), 'user');
  const messages = await fill(ctx.persistTo, me.user.id);
  const headers = { Cookie: member.headers().Cookie };
  const lists = {};
  for (const [name, query] of [
    ['default', ''],
    ['unread', '?unread=1&limit=50'],
    ['latest', '?order_by=online&limit=3&conversations_not=1,2,3'],
    // For comparison: the member's counts (one grouped query) through the same session middleware.
    ['count', '/count'],
  ]) {
    const url = `${base}/api/conversations${query}`;
    const check = await member.call('GET', `/api/conversations${query}`);
    if (check.status !== 200) throw new Error(`list ${name}: ${check.status}`);
    lists[name] = { ...(await load(url, seconds, { headers, concurrency })), total: check.body.total ?? check.body.all };
  }
  return { rounds, badge, messages, lists };
}
