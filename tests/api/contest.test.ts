import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { CONTEST_VOTERS_PER_ADDRESS, type Contest, type ContestAnswer, type ContestLatestAnswer, type ContestProbeAnswer, type ContestVoteAnswer, type ContestVotesAnswer } from '../../src/shared/contest';
import { count, type Member, registerMember } from './account-helpers';
import { Client, expectError, expectJson, uniqueIp } from './helpers';
import { performerOf } from './chat-helpers';

// Issue 14, point 8: the contest (spec part 2, section 7 "Contest"). The seed gives a running round
// and a finished one (src/server/seed/contest.ts).

const nowS = () => Math.floor(Date.now() / 1000);

async function running(client = new Client()): Promise<Contest> {
  const body = await expectJson<ContestAnswer>(await client.get('/api/contest'), 200);
  expect(body.contest).not.toBeNull();
  return body.contest!;
}

const score = async (entryId: number) =>
  (await env.DB.prepare('SELECT COALESCE(SUM(value), 0) AS s FROM contest_votes WHERE entry_id = ?').bind(entryId).first<{ s: number }>())!.s;
const voteRows = (userId: number, entryId?: number) =>
  entryId === undefined ? count('contest_votes', 'user_id = ?', userId) : count('contest_votes', 'user_id = ? AND entry_id = ?', userId, entryId);

/** Best first (score, then id), equal scores share a rank: 1, 2, 2, 4. */
function expectRanked(c: Contest): void {
  for (let i = 0; i < c.entries.length; i++) {
    const e = c.entries[i];
    if (i === 0) {
      expect(e.rank).toBe(1);
      continue;
    }
    const prev = c.entries[i - 1];
    expect(prev.score > e.score || (prev.score === e.score && prev.id < e.id)).toBe(true);
    expect(e.rank).toBe(prev.score === e.score ? prev.rank : i + 1);
  }
}

/** A verified member (only they vote), on a client address of its own unless `ip` is given. */
async function member(ip?: string): Promise<Member> {
  const m = await registerMember({ verified: true });
  if (ip === undefined) {
    await m.client.csrf();
    return m;
  }
  // Signed up elsewhere (sign-ups are capped per address), voting from `ip` with the same cookies.
  const client = new Client(ip);
  for (const [k, v] of m.client.jar) client.jar.set(k, v);
  return { ...m, client };
}

const vote = (m: Member, entryId: number | string, body: unknown) => m.client.post(`/api/contest/${entryId}/vote`, body);

describe('contest: reading (/api/contest, /latest)', () => {
  it('GET contest answers the running round ranked, with show name, thumbnail, online, score, rank and entry id', async () => {
    const res = await new Client().get('/api/contest');
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    const c = (await expectJson<ContestAnswer>(res, 200)).contest!;
    expect(c.running).toBe(true);
    expect(c.starts_at).toBeLessThanOrEqual(nowS());
    expect(c.ends_at).toBeGreaterThan(nowS());
    expect(c.entries).toHaveLength(12);
    expectRanked(c);
    // The seeded round (no member voted yet): fixed scores with ties, so the shared rank shows.
    expect(c.entries.map((e) => e.score)).toEqual([14, 11, 9, 9, 7, 6, 6, 4, 3, 3, 1, 0]);
    expect(c.entries.map((e) => e.rank)).toEqual([1, 2, 3, 3, 5, 6, 6, 8, 9, 9, 11, 12]);
    for (const e of c.entries) {
      expect(Object.keys(e).sort()).toEqual(['id', 'rank', 'score', 'show']);
      expect(e.show.thumbnail).toBe(`/img/show/${e.show.id}/1.jpg`);
      expect(typeof e.show.name).toBe('string');
      expect(typeof e.show.online).toBe('boolean');
      expect(e.score).toBe(await score(e.id));
      const show = await env.DB.prepare('SELECT s.name, s.online FROM contest_entries e JOIN shows s ON s.id = e.show_id WHERE e.id = ? AND e.contest_id = ?')
        .bind(e.id, c.id)
        .first<{ name: string; online: number }>();
      expect(show).toEqual({ name: e.show.name, online: e.show.online ? 1 : 0 });
    }
    // The thumbnails exist.
    const img = await new Client().get(c.entries[0].show.thumbnail);
    expect(img.status).toBe(200);
    expect(img.headers.get('Content-Type')).toBe('image/jpeg');
  });

  it('the title follows the language', async () => {
    const en = await running();
    const de = (await expectJson<ContestAnswer>(await new Client().get('/api/contest?lang=de', { 'Accept-Language': 'de' }), 200)).contest!;
    const row = await env.DB.prepare('SELECT title_en, title_de FROM contests WHERE id = ?').bind(en.id).first<{ title_en: string; title_de: string }>();
    expect(en.title).toBe(row!.title_en);
    expect(de.title).toBe(row!.title_de);
  });

  it('GET contest/latest answers the last finished round with its final ranking; probe=1 only whether there is one', async () => {
    const latest = (await expectJson<ContestLatestAnswer>(await new Client().get('/api/contest/latest'), 200)).contest!;
    expect(latest.running).toBe(false);
    expect(latest.ends_at).toBeLessThanOrEqual(nowS());
    expect(latest.id).not.toBe((await running()).id);
    expect(latest.entries).toHaveLength(12);
    expectRanked(latest);
    for (const e of latest.entries) expect(e.score).toBe(await score(e.id));

    const probe = await expectJson<ContestProbeAnswer>(await new Client().get('/api/contest/latest?probe=1'), 200);
    expect(probe).toEqual({ available: true, id: latest.id, ends_at: latest.ends_at });
    // Any other probe value is the full answer.
    const full = await expectJson<ContestLatestAnswer>(await new Client().get('/api/contest/latest?probe=yes'), 200);
    expect(full.contest?.id).toBe(latest.id);
  });

  it('GET contest/votes is for members only and starts empty', async () => {
    await expectError(await new Client().get('/api/contest/votes'), 401, 'unauthenticated');
    const m = await member();
    const res = await m.client.get('/api/contest/votes');
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    expect(await expectJson<ContestVotesAnswer>(res, 200)).toEqual({ votes: [] });
  });
});

describe('contest: voting (POST /api/contest/{entryId}/vote)', () => {
  it('a member votes up; the score and the ranking follow, and the vote is listed', async () => {
    const m = await member();
    const before = await running();
    const target = before.entries[before.entries.length - 1];
    const body = await expectJson<ContestVoteAnswer>(await vote(m, target.id, { value: 1 }), 200);
    expect(body.vote).toEqual({ entry_id: target.id, value: 1 });
    const after = body.contest.entries.find((e) => e.id === target.id)!;
    expect(after.score).toBe(target.score + 1);
    expectRanked(body.contest);
    expect(await voteRows(m.id, target.id)).toBe(1);
    expect(await expectJson<ContestVotesAnswer>(await m.client.get('/api/contest/votes'), 200)).toEqual({ votes: [{ entry_id: target.id, value: 1 }] });
  });

  it('a new vote replaces the member\'s earlier one on that entry (one row, the score moves by 2)', async () => {
    const m = await member();
    const entry = (await running()).entries[3];
    const base = await score(entry.id);
    await expectJson(await vote(m, entry.id, { value: 1 }), 200);
    expect(await score(entry.id)).toBe(base + 1);
    const down = await expectJson<ContestVoteAnswer>(await vote(m, entry.id, { value: -1 }), 200);
    expect(down.vote).toEqual({ entry_id: entry.id, value: -1 });
    expect(down.contest.entries.find((e) => e.id === entry.id)!.score).toBe(base - 1);
    expect(await score(entry.id)).toBe(base - 1);
    expect(await voteRows(m.id, entry.id)).toBe(1);
    // The same value again changes nothing.
    await expectJson(await vote(m, entry.id, { value: -1 }), 200);
    expect(await score(entry.id)).toBe(base - 1);
    expect(await voteRows(m.id)).toBe(1);
    expect((await expectJson<ContestVotesAnswer>(await m.client.get('/api/contest/votes'), 200)).votes).toEqual([{ entry_id: entry.id, value: -1 }]);
  });

  it('100 parallel votes of one member on one entry leave exactly one row, counted once', async () => {
    const m = await member();
    const entry = (await running()).entries[5];
    const base = await score(entry.id);
    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => vote(m, entry.id, { value: i % 2 === 0 ? 1 : -1 })));
    expect(answers.map((r) => r.status)).toEqual(Array(100).fill(200));
    expect(await voteRows(m.id, entry.id)).toBe(1);
    const row = await env.DB.prepare('SELECT value FROM contest_votes WHERE user_id = ? AND entry_id = ?').bind(m.id, entry.id).first<{ value: number }>();
    expect([1, -1]).toContain(row!.value);
    expect(await score(entry.id)).toBe(base + row!.value);
  });

  it('the value must be exactly 1 or -1: anything else is 422 and changes nothing', async () => {
    const m = await member();
    const entry = (await running()).entries[0];
    const base = await score(entry.id);
    for (const value of [0, 2, -2, 1.5, '1', '-1', true, null, [], {}, 'up', 1e309]) {
      await expectError(await vote(m, entry.id, { value }), 422, 'validation_failed', ['value', 'contest.vote_value']);
    }
    await expectError(await vote(m, entry.id, {}), 422, 'validation_failed', ['value', 'contest.vote_value']);
    const noBody = await m.client.fetch(`/api/contest/${entry.id}/vote`, { method: 'POST' });
    expect(noBody.status).toBe(422);
    expect((await m.client.post(`/api/contest/${entry.id}/vote`, '{"value":', {})).status).toBe(422);
    expect(await voteRows(m.id)).toBe(0);
    expect(await score(entry.id)).toBe(base);
  });

  it('visitors get 401 and a write without the CSRF token 419; neither writes', async () => {
    const entry = (await running()).entries[0];
    const votes = await count('contest_votes');
    await expectError(await new Client().post(`/api/contest/${entry.id}/vote`, { value: 1 }), 401, 'unauthenticated');
    const m = await member();
    await expectError(await m.client.post(`/api/contest/${entry.id}/vote`, { value: 1 }, { csrf: false }), 419, 'csrf_token_mismatch');
    expect(await count('contest_votes')).toBe(votes);
  });

  it('an unknown entry, an entry of the finished or of a future round is 404', async () => {
    const m = await member();
    const latest = (await expectJson<ContestLatestAnswer>(await new Client().get('/api/contest/latest'), 200)).contest!;
    await expectError(await vote(m, latest.entries[0].id, { value: 1 }), 404, 'not_found');
    await expectError(await vote(m, 999_999_999, { value: 1 }), 404, 'not_found');
    const now = nowS();
    const future = await env.DB.prepare("INSERT INTO contests (title_en, title_de, starts_at, ends_at) VALUES ('Future', 'Zukunft', ?, ?) RETURNING id")
      .bind(now + 86_400, now + 2 * 86_400)
      .first<{ id: number }>();
    const entry = await env.DB.prepare('INSERT INTO contest_entries (contest_id, show_id) VALUES (?, 1) RETURNING id').bind(future!.id).first<{ id: number }>();
    await expectError(await vote(m, entry!.id, { value: 1 }), 404, 'not_found');
    expect(await voteRows(m.id)).toBe(0);
    // The future round is not the running one.
    expect((await running()).id).not.toBe(future!.id);
  });

  it('hostile entry ids and parameters never give a 5xx and never write', async () => {
    const m = await member();
    // The route exists and takes a good vote, so the 404s below are the refusals of bad ids.
    const good = (await running()).entries[7].id;
    await expectJson(await vote(m, good, { value: 1 }), 200);
    const votes = await count('contest_votes');
    for (const id of ['abc', '-1', '0', '1e3', '1.0', '99999999999999999999', '%00', '1%27%20OR%201%3D1', '%F0%9F%98%80', 'null', '1%0A', ' 1']) {
      const res = await vote(m, id, { value: 1 });
      expect(res.status, id).toBe(404);
    }
    for (const path of ['/api/contest?x=%00', '/api/contest/latest?probe[]=1', '/api/contest/latest?probe=%FF', '/api/contest/votes?user_id=1', '/api/contest/%2e%2e/votes']) {
      expect((await m.client.get(path)).status, path).toBeLessThan(500);
    }
    // Unknown body fields are ignored: the vote is the member's, on the path's entry.
    const res = await vote(m, good, { value: -1, extra: 'x'.repeat(100), entry_id: 1 });
    expect((await expectJson<ContestVoteAnswer>(res, 200)).vote).toEqual({ entry_id: good, value: -1 });
    expect(await count('contest_votes')).toBe(votes);
  });
});

describe('contest: real members count once (issue 24)', () => {
  it('a member who has not confirmed their e-mail cannot vote: 403 not_verified, nothing written', async () => {
    const m = await registerMember();
    await m.client.csrf();
    const entry = (await running()).entries[2];
    const base = await score(entry.id);
    await expectError(await vote(m, entry.id, { value: 1 }), 403, 'not_verified');
    expect(await voteRows(m.id)).toBe(0);
    expect(await count('contest_voters', 'user_id = ?', m.id)).toBe(0);
    expect(await score(entry.id)).toBe(base);
    // Confirmed, the same member votes.
    await env.DB.prepare('UPDATE users SET is_verified = 1 WHERE id = ?').bind(m.id).run();
    await expectJson(await vote(m, entry.id, { value: 1 }), 200);
    expect(await score(entry.id)).toBe(base + 1);
  });

  it("a performer's account cannot vote on their own show (403 contest.own_show), only on others", async () => {
    const entries = (await running()).entries;
    const own = entries[4];
    const p = await performerOf(own.show.id);
    const base = await score(own.id);
    for (const value of [1, -1]) await expectError(await p.post(`/api/contest/${own.id}/vote`, { value }), 403, 'contest.own_show');
    expect(await score(own.id)).toBe(base);
    const userId = (await p.me())!.id;
    expect(await voteRows(userId)).toBe(0);
    const other = entries.find((e) => e.show.id !== own.show.id)!;
    expect((await expectJson<ContestVoteAnswer>(await p.post(`/api/contest/${other.id}/vote`, { value: 1 }), 200)).vote).toEqual({ entry_id: other.id, value: 1 });
    // A burst on the own entry still writes nothing.
    const burst = await Promise.all(Array.from({ length: 20 }, () => p.post(`/api/contest/${own.id}/vote`, { value: 1 })));
    expect(burst.map((r) => r.status)).toEqual(Array(20).fill(403));
    expect(await score(own.id)).toBe(base);
    expect(await voteRows(userId)).toBe(1);
  });

  it(`a burst of 20 accounts from one address: the round counts ${CONTEST_VOTERS_PER_ADDRESS}, the rest get 429 contest.address_limit`, async () => {
    const c = await running();
    const entry = c.entries[6];
    const base = await score(entry.id);
    const shared = uniqueIp();
    const throwaways = await Promise.all(Array.from({ length: 20 }, () => member(shared)));
    const answers = await Promise.all(throwaways.map((m) => vote(m, entry.id, { value: 1 })));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(CONTEST_VOTERS_PER_ADDRESS);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20 - CONTEST_VOTERS_PER_ADDRESS);
    const refused = answers[statuses.indexOf(429)];
    const retry = Number(refused.headers.get('Retry-After'));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(c.ends_at - nowS() + 5);
    await expectError(refused, 429, 'contest.address_limit');
    expect(await score(entry.id)).toBe(base + CONTEST_VOTERS_PER_ADDRESS);
    expect(await count('contest_voters', 'contest_id = ? AND address = ?', c.id, shared)).toBe(CONTEST_VOTERS_PER_ADDRESS);

    // The counted members go on voting (other entries, a changed vote); the refused ones stay out,
    // on every entry.
    const counted = throwaways.filter((_, i) => statuses[i] === 200);
    const outside = throwaways.filter((_, i) => statuses[i] === 429);
    await expectJson(await vote(counted[0], c.entries[7].id, { value: -1 }), 200);
    await expectJson(await vote(counted[1], entry.id, { value: -1 }), 200);
    for (const e of c.entries.slice(0, 3)) await expectError(await vote(outside[0], e.id, { value: 1 }), 429, 'contest.address_limit');
    for (const m of outside) expect(await voteRows(m.id)).toBe(0);
    expect(await score(entry.id)).toBe(base + CONTEST_VOTERS_PER_ADDRESS - 2);
    // A counted member who moves keeps their place; members elsewhere are not affected.
    const moved = new Client(uniqueIp());
    for (const [k, v] of counted[2].client.jar) moved.jar.set(k, v);
    await expectJson(await moved.post(`/api/contest/${c.entries[8].id}/vote`, { value: 1 }), 200);
    await expectJson(await vote(await member(), entry.id, { value: 1 }), 200);
    expect(await count('contest_voters', 'contest_id = ? AND address = ?', c.id, shared)).toBe(CONTEST_VOTERS_PER_ADDRESS);
  });

  it('addresses of one IPv6 /64 count as one address', async () => {
    const entry = (await running()).entries[9];
    const ips = Array.from({ length: CONTEST_VOTERS_PER_ADDRESS + 1 }, (_, i) => `2001:db8:24:13::${(i + 1).toString(16)}`);
    ips[1] = '2001:0db8:0024:0013:ffff:1:2:3';
    const answers = [];
    for (const ip of ips) answers.push((await vote(await member(ip), entry.id, { value: 1 })).status);
    expect(answers).toEqual([...Array(CONTEST_VOTERS_PER_ADDRESS).fill(200), 429]);
    // The next /64 is another subscriber.
    expect((await vote(await member('2001:db8:24:14::1'), entry.id, { value: 1 })).status).toBe(200);
  });
});

describe('contest: a member reads and changes only their own votes', () => {
  it('another member\'s votes are never listed, and a vote never touches another member\'s row', async () => {
    const [a, b] = [await member(), await member()];
    const entries = (await running()).entries;
    await expectJson(await vote(a, entries[1].id, { value: 1 }), 200);
    await expectJson(await vote(a, entries[2].id, { value: -1 }), 200);
    // B asks with A's id in every place a client could put it: the answer is B's (none).
    for (const path of ['/api/contest/votes', `/api/contest/votes?user_id=${a.id}`, `/api/contest/votes?user=${a.id}&member=${a.id}`]) {
      expect(await expectJson<ContestVotesAnswer>(await b.client.get(path), 200)).toEqual({ votes: [] });
    }
    // B votes on the same entry, naming A in the body: B's own row; A's stays as it was.
    const res = await expectJson<ContestVoteAnswer>(await vote(b, entries[1].id, { value: -1, user_id: a.id, userId: a.id }), 200);
    expect(res.vote).toEqual({ entry_id: entries[1].id, value: -1 });
    const rowOf = (userId: number, entryId: number) =>
      env.DB.prepare('SELECT value FROM contest_votes WHERE user_id = ? AND entry_id = ?').bind(userId, entryId).first<{ value: number }>();
    expect(await rowOf(a.id, entries[1].id)).toEqual({ value: 1 });
    expect(await rowOf(b.id, entries[1].id)).toEqual({ value: -1 });
    expect(await voteRows(a.id)).toBe(2);
    expect(await voteRows(b.id)).toBe(1);
    expect(await expectJson<ContestVotesAnswer>(await a.client.get('/api/contest/votes'), 200)).toEqual({
      votes: [
        { entry_id: entries[1].id, value: 1 },
        { entry_id: entries[2].id, value: -1 },
      ].sort((x, y) => x.entry_id - y.entry_id),
    });
    expect(await expectJson<ContestVotesAnswer>(await b.client.get('/api/contest/votes'), 200)).toEqual({ votes: [{ entry_id: entries[1].id, value: -1 }] });
    // The ranking carries scores only: no voter ids, names or e-mails.
    const text = await (await new Client().get('/api/contest')).text();
    expect(text).not.toContain(a.email);
    expect(text).not.toContain(a.name);
  });
});

describe('contest: pages and the end of a round', () => {
  it('/contest renders the ranking for visitors with a login link, and /contest/latest the result', async () => {
    const page = await new Client().get('/contest');
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('data-testid="contest-board"');
    expect(html).toContain('data-testid="contest-visitor"');
    expect(html).toContain('href="/login?redirect=%2Fcontest"');
    const c = await running();
    expect(html).toContain(`data-entry-id="${c.entries[0].id}"`);
    const latest = await new Client().get('/contest/latest');
    expect(latest.status).toBe(200);
    expect(await latest.text()).toContain('data-testid="contest-final"');
  });

  it('a failed load shows the empty state (no contest, no votes), not an error page', async () => {
    const m = await member();
    await env.DB.prepare('ALTER TABLE contest_votes RENAME TO contest_votes_away').run();
    try {
      for (const client of [new Client(), m.client]) {
        const res = await client.get('/contest');
        expect(res.status).toBe(200);
        const html = await res.text();
        expect(html).toContain('data-testid="contest-empty"');
        expect(html).not.toContain('data-testid="contest-board"');
      }
    } finally {
      await env.DB.prepare('ALTER TABLE contest_votes_away RENAME TO contest_votes').run();
    }
  });

  it('after the end: no running contest, voting is refused with contest.closed, and the round is the latest result', async () => {
    const m = await member();
    const c = await running();
    await expectJson(await vote(m, c.entries[0].id, { value: 1 }), 200);
    const now = nowS();
    // End every round that runs now (the seeded one), as the clock would.
    await env.DB.prepare('UPDATE contests SET starts_at = MIN(starts_at, ?1 - 10), ends_at = ?1 - 1 WHERE starts_at <= ?1 AND ends_at > ?1').bind(now).run();
    expect(await expectJson<ContestAnswer>(await new Client().get('/api/contest'), 200)).toEqual({ contest: null });
    const votes = await count('contest_votes');
    await expectError(await vote(m, c.entries[1].id, { value: 1 }), 409, 'contest.closed');
    await expectError(await vote(m, 999_999_998, { value: 1 }), 404, 'not_found');
    expect(await count('contest_votes')).toBe(votes);
    expect(await expectJson<ContestVotesAnswer>(await m.client.get('/api/contest/votes'), 200)).toEqual({ votes: [] });
    const latest = (await expectJson<ContestLatestAnswer>(await new Client().get('/api/contest/latest'), 200)).contest!;
    expect(latest.id).toBe(c.id);
    expect(latest.running).toBe(false);
    expect(await expectJson<ContestProbeAnswer>(await new Client().get('/api/contest/latest?probe=1'), 200)).toMatchObject({ available: true, id: c.id });
    const page = await new Client().get('/contest');
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('data-testid="contest-empty"');
    expect(html).toContain('href="/contest/latest"');
  });
});
