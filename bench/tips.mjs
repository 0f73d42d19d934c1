// Tips (issue 30, "every open viewer sees the announcement and the goal bar move within 1 s"): one
// demo show live with its studio socket, a tip menu and a goal set through the studio API; members
// and guests in the show's room (free chat); the members tip from the menu and plain tips at a
// steady rate. For each tip: POST start → its announcement (`tip`) at the LAST viewer (and at the
// studio), and POST start → the first `goal` event at the last viewer whose count includes it.
// The goal's amount is small enough to be reached several times in the run; each time the studio
// starts the next one. Checked: deliveries lost, each viewer's final count of every goal against
// the sum of the tips accepted for it, and "reached" announced exactly once per goal on every socket.
// A floor in the same room: chat lines (`say` over a member's socket) → the last viewer.
import { performance } from 'node:perf_hooks';
import { wrangler } from '../scripts/lib.mjs';
import { Http, percentile, sleep } from './lib.mjs';
import { inBatches } from './lobby.mjs';
import { socket } from './room.mjs';

const SHOW = 1;
const PERFORMER_PASSWORD = 'studio-demo-1';
const MEMBER_PASSWORD = 'member-pass-2026';
const MENU = [
  { coins: 10, en: 'Dance', de: 'Tanzen' },
  { coins: 25, en: 'Song', de: 'Lied' },
];
/** How long a delivery may take before it counts as lost (the run waits this long at the end). */
const LOST_AFTER_MS = 10_000;

async function must(p, what, status = 200) {
  const r = await p;
  if (r.status !== status) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)?.slice(0, 300)}`);
  return r.body;
}

/** A room socket; every tip, goal and line event is kept with its arrival time (performance.now()). */
async function roomSocket(url, name) {
  const s = { name, ws: null, events: [], errors: [] };
  s.ws = await socket(
    url,
    (e) => {
      if (e.t === 'tip' || e.t === 'goal' || e.t === 'line') s.events.push({ at: performance.now(), e });
      else if (e.t === 'error') s.errors.push(e.code);
    },
    name,
  );
  return s;
}

const wsUrl = (wsBase, a) => `${wsBase.replace(/^http/, 'ws')}${new URL(a.realm).pathname}?login=${a.login}&password=${encodeURIComponent(a.password)}`;

/** Waits until `test` holds (checked every 20 ms), at most `ms`; answers whether it did. */
async function until(test, ms) {
  for (const end = performance.now() + ms; performance.now() < end; await sleep(20)) if (test()) return true;
  return test();
}

/** A verified member with a nickname and coins, logged in (sign-up, the mailed link, the ops call). */
async function newMember(base, i, opsToken) {
  const http = new Http(base);
  const email = `tips-${Date.now().toString(36)}-${i}@example.org`;
  const reg = await must(http.call('POST', '/api/register', { email, password: MEMBER_PASSWORD, terms_check: true }), 'register', 201);
  let token = null;
  for (let tries = 0; !token && tries < 40; tries++) {
    const mails = await must(http.call('GET', `/dev/mailbox.json?to=${encodeURIComponent(email)}`), 'mailbox');
    token = mails.map((m) => /token=([A-Za-z0-9_-]+)/.exec(m.text)?.[1]).find(Boolean) ?? null;
    if (!token) await sleep(250);
  }
  if (!token) throw new Error(`no verification mail for ${email}`);
  await must(http.call('POST', '/api/register/validate', { token }), 'validate');
  const nick = await http.call('POST', '/api/user/nickname/add', { nickname: `tipper${i}x${Date.now() % 1000}` });
  if (nick.status !== 200 && nick.status !== 201) throw new Error(`nickname: ${nick.status} ${JSON.stringify(nick.body)}`);
  await must(new Http(base).call('POST', `/api/ops/users/${reg.user.id}/coins`, { amount: 100_000, ref: `bench-tips-${reg.user.id}-${Date.now()}` }, { Authorization: `Bearer ${opsToken}` }), 'coins');
  return { http, id: reg.user.id };
}

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { p50: percentile(s, 50), p99: percentile(s, 99), max: s.at(-1) ?? NaN, n: s.length };
};

/**
 * `members` members (who tip) and `guests` guests watch show 1 with the performer's studio open;
 * menu tips at `menuPerSecond` and plain tips at `plainPerSecond` for `seconds`, each goal `goalAmount` coins.
 */
export async function benchTips(base, { wsBase = base, opsToken, persistTo, members = 10, guests = 10, seconds = 30, menuPerSecond = 2, plainPerSecond = 1, goalAmount = null, bursts = 5, burstEvery = 1500, floorLines = 40 }) {
  // About a third of what the run tips (menu tips 17.5 coins on average, plain ones 10): reached about three times.
  goalAmount ??= Math.max(50, Math.round((seconds * (menuPerSecond * 17.5 + plainPerSecond * 10)) / 3));
  const performer = new Http(base);
  const show = await must(new Http(base).call('GET', `/api/shows/${SHOW}`), 'show');
  await must(performer.call('POST', '/api/auth/login', { username: show.slugName, password: PERFORMER_PASSWORD }), 'performer login');
  await must(performer.call('POST', '/api/studio/status', { online: true, paused: false, open: { free: true, private: true, exclusive: true, voyeur: true } }), 'online');
  const studio = await roomSocket(wsUrl(wsBase, await must(performer.call('POST', '/api/studio/connect'), 'connect')), 'studio');
  const { menu } = await must(performer.call('PUT', '/api/chat/tips/studio/menu', { items: MENU }), 'menu');
  const startGoal = async (n, amount) => (await must(performer.call('POST', '/api/chat/tips/studio/goal', { amount, text: `Bench goal ${n}` }), 'goal', 201)).goal;

  // The viewers: members (each also tips) and guests, all with a free session and its room socket.
  const t0 = performance.now();
  const tippers = [];
  await inBatches(Array.from({ length: members }, (_, i) => i), 5, async (i) => {
    const m = await newMember(base, i, opsToken);
    const a = await must(m.http.call('POST', `/api/chatsession/${show.universalId}`, { type: 'free' }), 'member session');
    tippers.push({ ...m, sessionId: a.sessionId, socket: await roomSocket(wsUrl(wsBase, a), `member ${i}`) });
  });
  const guestSockets = [];
  await inBatches(Array.from({ length: guests }, (_, i) => i), 5, async (i) => {
    const a = await must(new Http(base).call('POST', `/api/chatsession/${show.universalId}`, { type: 'free' }), 'guest session');
    guestSockets.push(await roomSocket(wsUrl(wsBase, a), `guest ${i}`));
  });
  const connectSeconds = (performance.now() - t0) / 1000;
  const viewers = [...tippers.map((t) => t.socket), ...guestSockets];
  const everyone = [...viewers, studio];

  // A goal is current once every socket has seen it.
  const goals = [];
  const seenGoal = (s, id) => s.events.some(({ e }) => e.t === 'goal' && e.goal?.id === id);
  const nextGoal = async (amount = goalAmount) => {
    const g = await startGoal(goals.length + 1, amount);
    goals.push({ id: g.id, amount: g.amount, answered: 0, tagged: 0, reached: false });
    if (!(await until(() => everyone.every((s) => seenGoal(s, g.id)), LOST_AFTER_MS))) throw new Error(`goal ${g.id} not seen by every socket`);
    return goals.at(-1);
  };
  let goal = await nextGoal();

  // One tip: POST start → answer; the goal current at its start is the one it counts for.
  const tips = [];
  let keyN = 0;
  let phase = 'steady';
  const tip = (n, kind) => {
    const m = tippers[n % tippers.length];
    const item = kind === 'menu' ? menu[Math.floor(n / 3) % menu.length] : null;
    const coins = item ? item.coins : 1 + (n % 7) * 3;
    const key = `b${Date.now().toString(36)}${keyN++}`;
    const t = { n, kind, member: m, coins, key, ref: `tip:${m.sessionId}:${key}`, goal, phase, start: performance.now(), status: null };
    tips.push(t);
    const body = item ? { item: item.id, key } : { coins, key };
    t.done = m.http
      .call('POST', item ? `/api/chat/tips/menu/${m.sessionId}` : `/api/chatsession/tip/${m.sessionId}`, body)
      .then((r) => {
        t.status = r.status;
        t.end = performance.now();
        if (r.status === 200) t.goal.answered += coins;
      })
      .catch((e) => {
        t.status = e.message;
      });
    return t;
  };

  // Warm-up (unmeasured, but booked and counted like the others): one plain tip, seen everywhere.
  const warm = tip(0, 'plain');
  warm.warmup = true;
  await warm.done;
  await until(() => everyone.every((s) => s.events.some(({ e }) => e.t === 'tip' && e.from === warm.member.sessionId)), LOST_AFTER_MS);

  // The steady run. Before a tip that may reach the goal, the tips in flight are awaited, so that
  // the reaching tip is the last one booked for its goal; then the studio starts the next goal and
  // the schedule resumes once every socket has it (the pause is not part of the schedule).
  const perSecond = menuPerSecond + plainPerSecond;
  const total = Math.round(seconds * perSecond);
  const kindOf = (n) => (n % perSecond < menuPerSecond ? 'menu' : 'plain');
  let base0 = performance.now();
  const runStart = base0;
  let paused = 0;
  for (let n = 1; n <= total; n++) {
    const due = base0 + ((n - 1) * 1000) / perSecond;
    if (due > performance.now()) await sleep(due - performance.now());
    const kind = kindOf(n);
    const coins = kind === 'menu' ? menu[Math.floor(n / 3) % menu.length].coins : 1 + (n % 7) * 3;
    const inFlight = tips.filter((t) => t.status === null);
    const flightCoins = inFlight.reduce((s, t) => s + t.coins, 0);
    if (goal.answered + flightCoins + coins < goalAmount) {
      tip(n, kind);
      continue;
    }
    const p0 = performance.now();
    await Promise.all(inFlight.map((t) => t.done));
    const t = tip(n, kind);
    await t.done;
    if (goal.answered >= goalAmount) {
      // The studio hears "reached", then starts the next goal.
      const reachedId = goal.id;
      await until(() => studio.events.some(({ e }) => e.t === 'goal' && e.reached && e.goal?.id === reachedId), LOST_AFTER_MS);
      goal = await nextGoal();
    }
    paused += performance.now() - p0;
    base0 += performance.now() - p0;
  }
  await Promise.all(tips.map((t) => t.done));
  const runSeconds = (performance.now() - runStart - paused) / 1000;

  // Bursts: every member tips at the same instant, `burstEvery` ms apart, into a fresh goal that
  // one of the bursts reaches: parallel bookings whose goal reads reach the room out of order, the
  // goal reached by one of several tips in flight (the tips booked after it count nowhere).
  await until(() => everyone.every((s) => s.events.filter(({ e }) => e.t === 'tip').length >= tips.length), LOST_AFTER_MS);
  const burstAmount = Math.round((bursts * tippers.length * 15) / 2);
  goal = await nextGoal(burstAmount);
  phase = 'burst';
  let n = total;
  for (let b = 0; b < bursts; b++) {
    const started = tippers.map(() => tip(++n, kindOf(n)));
    await Promise.all(started.map((t) => t.done));
    await sleep(burstEvery);
  }
  // Every delivery has its time to arrive.
  const accepted = tips.filter((t) => t.status === 200);
  const tipArrived = (s, t) => s.events.some(({ e }) => e.t === 'tip' && e.from === t.member.sessionId && e.coins === t.coins);
  await until(() => accepted.every((t) => everyone.every((s) => tipArrived(s, t))), LOST_AFTER_MS);

  // The booking order from the ledger (ids in commit order): each tip's goal count right after it.
  const refs = accepted.map((t) => `'${t.ref}'`).join(',');
  const out = await wrangler(['d1', 'execute', 'DB', '--local', '--persist-to', persistTo, '--json', '--command', `SELECT id, ref FROM ledger WHERE ref IN (${refs}) ORDER BY id`], { capture: true });
  const order = JSON.parse(out)[0].results.map((r) => r.ref);
  const byRef = new Map(accepted.map((t) => [t.ref, t]));
  // A tip counts for its goal while the goal is not reached yet (tips.repo.ts goalStatement).
  for (const ref of order) {
    const t = byRef.get(ref);
    t.counted = !t.goal.reached;
    if (!t.counted) continue;
    t.after = t.goal.tagged += t.coins;
    t.goal.reached = t.goal.tagged >= t.goal.amount;
  }
  const booked = order.length;

  // Per tip: the k-th announcement of a member's session with the tip's coins is its k-th such tip.
  const tipLatency = (s, list) => {
    const used = new Set();
    const at = new Map();
    for (const t of list) {
      const i = s.events.findIndex(({ e }, j) => !used.has(j) && e.t === 'tip' && e.from === t.member.sessionId && e.coins === t.coins && (t.kind === 'menu') === !!e.action);
      if (i >= 0) {
        used.add(i);
        at.set(t, s.events[i].at);
      }
    }
    return at;
  };
  const goalAt = (s, t) => s.events.find(({ e }) => e.t === 'goal' && e.goal?.id === t.goal.id && e.goal.progress >= t.after)?.at;
  const figures = { steady: { announce: [], toStudio: [], moved: [] }, burst: { announce: [], toStudio: [], moved: [] } };
  let lostTips = 0;
  let lostGoals = 0;
  const arrivals = new Map(viewers.map((s) => [s, tipLatency(s, accepted)]));
  const studioArrivals = tipLatency(studio, accepted);
  for (const t of accepted) {
    if (t.warmup) continue;
    const f = figures[t.phase];
    let lastTip = 0;
    let lastGoal = 0;
    for (const s of viewers) {
      const a = arrivals.get(s).get(t);
      if (a === undefined) lostTips++;
      else lastTip = Math.max(lastTip, a - t.start);
      if (!t.counted) continue;
      const g = goalAt(s, t);
      if (g === undefined) lostGoals++;
      else lastGoal = Math.max(lastGoal, g - t.start);
    }
    const st = studioArrivals.get(t);
    if (st === undefined) lostTips++;
    else f.toStudio.push(st - t.start);
    f.announce.push(lastTip);
    if (!t.counted) continue;
    if (goalAt(studio, t) === undefined) lostGoals++;
    f.moved.push(lastGoal);
  }

  // Each socket's final count of every goal against the tips accepted for it; "reached" once per reached goal.
  let wrongTotals = 0;
  let reachedWrong = 0;
  for (const s of everyone) {
    for (const g of goals) {
      const counts = s.events.filter(({ e }) => e.t === 'goal' && e.goal?.id === g.id);
      const last = Math.max(0, ...counts.map(({ e }) => e.goal.progress));
      if (last !== g.tagged) wrongTotals++;
      const reached = counts.filter(({ e }) => e.reached).length;
      if (reached !== (g.reached ? 1 : 0)) reachedWrong++;
    }
  }
  const server = await must(new Http(base).call('GET', `/api/chat/tips/show/${SHOW}`), 'tips view');
  const serverTotalOk = server.goal?.id === goal.id && server.goal.progress === goal.tagged;

  // The floor: plain chat lines from the members' sockets (2/s), send → the last viewer.
  const floor = [];
  let floorLost = 0;
  for (let i = 0; i < floorLines; i++) {
    const m = tippers[i % tippers.length];
    const text = `bench line ${i} ${Date.now()}`;
    const sent = performance.now();
    m.socket.ws.send(JSON.stringify({ t: 'say', text }));
    await sleep(500);
    const got = (s) => s.events.find(({ e }) => e.t === 'line' && e.line?.text === text)?.at;
    await until(() => viewers.every((s) => got(s) !== undefined), i === floorLines - 1 ? LOST_AFTER_MS : 0);
    floor.push({ text, sent, got });
  }
  const floorLast = [];
  for (const f of floor) {
    let last = 0;
    for (const s of viewers) {
      const a = f.got(s);
      if (a === undefined) floorLost++;
      else last = Math.max(last, a - f.sent);
    }
    floorLast.push(last);
  }

  for (const s of everyone) s.ws.close(1000);
  await performer.call('POST', '/api/studio/status', { online: false }).catch(() => {});
  const refused = tips.filter((t) => t.status !== 200);
  return {
    viewers: viewers.length,
    members: tippers.length,
    guests: guestSockets.length,
    connectSeconds,
    tips: accepted.filter((t) => t.phase === 'steady' && !t.warmup).length,
    menuTips: accepted.filter((t) => t.phase === 'steady' && t.kind === 'menu').length,
    plainTips: accepted.filter((t) => t.phase === 'steady' && !t.warmup && t.kind === 'plain').length,
    accepted: accepted.length,
    refused: refused.length,
    refusedKinds: [...new Set(refused.map((t) => String(t.status)))],
    booked,
    runSeconds,
    pausedSeconds: paused / 1000,
    // POST start → its answer (the room is told before the worker answers).
    answered: stats(accepted.filter((t) => t.phase === 'steady' && !t.warmup).map((t) => t.end - t.start)),
    announce: stats(figures.steady.announce),
    studio: stats(figures.steady.toStudio),
    goal: stats(figures.steady.moved),
    burst: { answered: stats(accepted.filter((t) => t.phase === 'burst').map((t) => t.end - t.start)), tips: figures.burst.announce.length, counted: figures.burst.moved.length, announce: stats(figures.burst.announce), studio: stats(figures.burst.toStudio), goal: stats(figures.burst.moved), reached: goals.at(-1).reached },
    lostTips,
    lostGoals,
    goalAmount,
    burstAmount,
    goals: goals.length,
    goalsReached: goals.filter((g) => g.reached).length,
    wrongTotals,
    reachedWrong,
    serverTotalOk,
    acceptedCoins: accepted.reduce((s, t) => s + t.coins, 0),
    // The coins of the tips that counted for a goal (booked before it was reached, by the ledger's order).
    tippedCoins: goals.reduce((sum, g) => sum + g.tagged, 0),
    // What the studio was last told of each goal, added up: the room's view of the tips booked.
    countedCoins: goals.reduce((sum, g) => sum + Math.max(0, ...studio.events.filter(({ e }) => e.t === 'goal' && e.goal?.id === g.id).map(({ e }) => e.goal.progress)), 0),
    socketErrors: everyone.flatMap((s) => s.errors),
    floor: { ...stats(floorLast), lost: floorLost },
  };
}
