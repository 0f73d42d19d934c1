// A lobby that lives while a page is measured: about a third of the shows online (the seed's
// share, kept), and one show going on or offline every second through the operators' status
// route (what a performer starting or ending a show does), so every open page receives live
// updates while it loads. `npm start`'s simulator does the same at two flips every four seconds.
const OPS_TOKEN = 'e2e-ops-token'; // what startServer configures
const SHOWS = 264;

/** The shows' ids by state, from the public list (paged). */
async function onlineIds(base) {
  const online = new Set();
  for (let page = 1; page < 50; page++) {
    const res = await fetch(`${base}/api/shows?page=${page}&limit=100`);
    if (!res.ok) throw new Error(`GET /api/shows?page=${page}: ${res.status}`);
    const body = await res.json();
    for (const s of body.data) if (s.online) online.add(s.id);
    if (!body.more) break;
  }
  return online;
}

/**
 * Starts the flips; `stop()` ends them and answers how many went out. Alternates: an online show
 * goes offline, then an offline one comes online, so the share stays where it was.
 */
export async function liveLobby(base, { everyMs = 1000 } = {}) {
  const online = await onlineIds(base);
  const offline = new Set(Array.from({ length: SHOWS }, (_, i) => i + 1).filter((id) => !online.has(id)));
  const pick = (set) => [...set][Math.floor(Math.random() * set.size)];
  let flips = 0;
  let failed = 0;
  let goOff = true;
  const timer = setInterval(() => {
    const [from, to, value] = goOff ? [online, offline, false] : [offline, online, true];
    goOff = !goOff;
    const id = pick(from);
    if (id === undefined) return;
    from.delete(id);
    to.add(id);
    fetch(`${base}/api/ops/shows/${id}/status`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${OPS_TOKEN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ online: value }),
    })
      .then((res) => (res.ok ? flips++ : failed++))
      .catch(() => failed++);
  }, everyMs);
  return {
    online: () => online.size,
    stop: () => {
      clearInterval(timer);
      return { flips, failed };
    },
  };
}
