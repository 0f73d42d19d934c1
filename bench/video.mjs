// Live video glass-to-glass: the performer's studio page publishes a canvas track (640x360, or
// 1280x720 in three simulcast layers through the SFU) on which it paints the wall clock (32 bits
// of milliseconds and a checksum, as black and white blocks) instead of a camera; each viewer's
// page (free chat on the show page, the real app path: room signalling, WebRTC, VP8) reads the
// clock back from every presented frame (requestVideoFrameCallback) and compares it with its own.
// All pages live in one Chromium, so they share one clock. Per viewer count: p50/p99 latency,
// frames per second presented, freezes and frames dropped, and the machine's 1-minute load
// average; and each viewer's time to first frame (opening the show page to the first frame played).
import os from 'node:os';
import { chromium } from 'playwright-core';
import { percentile, sleep } from './lib.mjs';

const CHROMIUM = process.env.BENCH_CHROMIUM ?? '/usr/bin/chromium';
const PERFORMER_PASSWORD = 'studio-demo-1';
const WIDTH = 640;
/** The studio's camera: 640x360 on the sd preset (one encoding peer to peer, two layers to the SFU), or 1280x720 on hd (three layers). */
export const CAMERA_SD = { width: 640, height: 360, preset: 'sd' };
export const CAMERA_HD = { width: 1280, height: 720, preset: 'hd' };
const BITS = 32;
const COOKIES = [
  ['splash18', '1'],
  ['consent_analytics', '0'],
  ['i18n_redirected', 'en'],
];

/** Studio page: getUserMedia answers a canvas of the camera's size that paints the clock (and a moving bar) all the time. */
function clockCamera({ width, height, bits }) {
  // The picture is the 640x360 one scaled (a 1280x720 camera paints everything twice as large).
  const s = height / 360;
  navigator.mediaDevices.getUserMedia = async () => {
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const g = canvas.getContext('2d');
    const block = width / bits;
    const paint = () => {
      const t = Math.floor(performance.timeOrigin + performance.now()) >>> 0;
      g.fillStyle = '#336';
      g.fillRect(0, 0, width, height);
      g.fillStyle = '#c84';
      g.fillRect((t / 8) % width, 120 * s, 60 * s, 200 * s);
      let sum = 0;
      for (let i = 0; i < bits; i++) {
        const on = (t >>> (bits - 1 - i)) & 1;
        sum += on * (i + 1);
        g.fillStyle = on ? '#fff' : '#000';
        g.fillRect(i * block, 0, block, 40 * s);
      }
      for (let j = 0; j < 8; j++) {
        g.fillStyle = ((sum & 255) >>> (7 - j)) & 1 ? '#fff' : '#000';
        g.fillRect(j * (width / 8), 40 * s, width / 8, 40 * s);
      }
    };
    paint();
    setInterval(paint, 5);
    return canvas.captureStream(30);
  };
}

/**
 * Viewer page: from now on, every presented frame's painted clock against this page's clock. The
 * clock is read from the decoded frame's luma plane (VideoFrame.copyTo of its top rows only): a
 * canvas drawImage + getImageData per frame cost a viewer page 3/4 of its CPU (16 % of a core at
 * 25 fps), which at 20 viewers on 2 cores measured the bench, not the video path. Any layer's size:
 * the blocks scale with the frame. A frame that cannot be copied (no CPU pixel format) is read
 * through a canvas.
 */
function startReading({ width: srcWidth, bits }) {
  window.__g2gStop = false;
  const video = document.querySelector('[data-testid=live-video-el]');
  const r = (window.__g2g = { latencies: [], presented: 0, unreadable: 0, gaps: 0, start: performance.now(), last: 0, freezes: 0 });
  let canvas = null;
  /** Luma (0-255) at source coordinates (x, y) of the 640x360 picture, from the current frame. */
  const lumaReader = async () => {
    const vf = new VideoFrame(video);
    try {
      const w = vf.visibleRect.width;
      const h = vf.visibleRect.height;
      const k = w / srcWidth;
      const rows = Math.min(h, 2 * Math.ceil((80 * h) / 360 / 2));
      if (vf.format === 'I420' || vf.format === 'I420A' || vf.format === 'NV12') {
        const rect = { x: 0, y: 0, width: w, height: rows };
        const buf = new Uint8Array(vf.allocationSize({ rect }));
        const [luma] = await vf.copyTo(buf, { rect });
        return (x, y) => buf[luma.offset + Math.min(rows - 1, Math.floor(y * k)) * luma.stride + Math.floor(x * k)];
      }
      canvas ??= Object.assign(document.createElement('canvas'), { width: srcWidth, height: 80 });
      const g = canvas.getContext('2d', { willReadFrequently: true });
      g.drawImage(video, 0, 0, w, (80 * h) / 360, 0, 0, srcWidth, 80);
      const d = g.getImageData(0, 0, srcWidth, 80).data;
      return (x, y) => {
        const i = (y * srcWidth + Math.floor(x)) * 4;
        return d[i] * 0.3 + d[i + 1] * 0.59 + d[i + 2] * 0.11;
      };
    } finally {
      vf.close();
    }
  };
  const block = srcWidth / bits;
  const frame = async () => {
    if (window.__g2gStop) return;
    const now = performance.timeOrigin + performance.now();
    const since = performance.now() - r.last;
    // A freeze as WebRTC's stats define it: a gap over max(3 x 33 ms, 33 + 150 ms) between presented frames.
    if (r.last && since > 183) r.freezes++;
    r.last = performance.now();
    r.presented++;
    video.requestVideoFrameCallback(frame);
    let lum;
    try {
      lum = await lumaReader();
    } catch {
      r.unreadable++;
      return;
    }
    let t = 0;
    let sum = 0;
    for (let i = 0; i < bits; i++) {
      const on = lum(i * block + block / 2, 20) > 128 ? 1 : 0;
      t = ((t << 1) | on) >>> 0;
      sum += on * (i + 1);
    }
    let check = 0;
    for (let j = 0; j < 8; j++) check = (check << 1) | (lum(j * (srcWidth / 8) + srcWidth / 16, 60) > 128 ? 1 : 0);
    if (check === (sum & 255)) r.latencies.push(((Math.floor(now) >>> 0) - t + 2 ** 32) % 2 ** 32);
    else r.unreadable++;
  };
  video.requestVideoFrameCallback(frame);
}

async function newPage(browser, url, viewport = { width: 1280, height: 800 }) {
  const context = await browser.newContext({ viewport });
  await context.addCookies(COOKIES.map(([name, value]) => ({ name, value, url })));
  context.setDefaultTimeout(30_000);
  return context.newPage();
}

async function api(page, url, method, path, body) {
  const ctx = page.context();
  const token = async () => (await ctx.cookies(url)).find((c) => c.name === 'XSRF-TOKEN')?.value;
  if (!(await token())) await ctx.request.get(`${url}/api/auth/csrf-cookie`);
  const res = await ctx.request.fetch(`${url}/api/${path}`, { method, headers: { 'X-XSRF-TOKEN': decodeURIComponent((await token()) ?? '') }, data: body });
  if (res.status() >= 300) throw new Error(`${method} ${path}: ${res.status()} ${await res.text()}`);
  return res.json();
}

async function viewerStats(page) {
  return page.evaluate(async () => {
    const out = { decoded: 0, dropped: 0, width: 0, height: 0, statsFreezes: 0 };
    const pc = window.__videoPc;
    if (!pc) return out;
    (await pc.getStats()).forEach((s) => {
      if (s.type === 'inbound-rtp' && s.kind === 'video') Object.assign(out, { decoded: s.framesDecoded ?? 0, dropped: s.framesDropped ?? 0, width: s.frameWidth ?? 0, height: s.frameHeight ?? 0, statsFreezes: s.freezeCount ?? 0 });
    });
    return out;
  });
}

async function until(fn, timeoutMs) {
  const start = performance.now();
  while (performance.now() - start < timeoutMs) {
    if (await fn()) return performance.now() - start;
    await sleep(100);
  }
  return null;
}

/**
 * Through the SFU, one viewer on Auto: the stand-in drops 40 % of its packets until Auto asks for a
 * lower layer, then none until it asks for the best again. Answers, in ms (null: not within the
 * limit): loss to the lower layer asked (`down_ms`) and to its first frame decoded (`down_frames_ms`),
 * the loss's end to the best layer asked (`up_ms`) and to its frames (`up_frames_ms`).
 */
async function layerSwitch(page, drop) {
  const layer = () => page.locator('[data-testid=live-video]').getAttribute('data-layer');
  const width = async () => (await viewerStats(page)).width;
  const best = await layer();
  const full = await width();
  await drop(40);
  const down_ms = await until(async () => (await layer()) !== best, 15_000);
  const down_frames_ms = down_ms === null ? null : await until(async () => (await width()) < full, 15_000).then((ms) => (ms === null ? null : down_ms + ms));
  await drop(0);
  const up_ms = await until(async () => (await layer()) === best, 30_000);
  const up_frames_ms = up_ms === null ? null : await until(async () => (await width()) === full, 15_000).then((ms) => (ms === null ? null : up_ms + ms));
  return { from: `${best} ${full}px`, down_ms, down_frames_ms, up_ms, up_frames_ms, load: os.loadavg()[0] };
}

/**
 * For each viewer count: `warmup` s after every viewer plays, then `seconds` s measured.
 * Answers one row per count: p50/p99 ms, fps (the slowest viewer's), freezes and dropped (summed),
 * the load average at its end; and the viewers' time to first frame. `probe` (optional):
 * `begin()` before each measured window and `end(token)` after it, whose fields join the row (the
 * SFU stand-in's CPU and packet counts); with `dropToViewers(percent)`, the layer switch is timed
 * after the first count (`layerSwitch`). Only the first `shown` viewers show the video and read
 * the clock; the others decode it hidden (display: none), their frame rate and freezes from
 * Chromium's statistics: 21 pages composited in software on 2 cores measure the compositor (its
 * GPU process at 43 % of a core, each page's renderer 5-6 %), not the video path.
 */
export async function benchVideo(url, { counts = [1, 4], seconds = 60, warmup = 5, probe = null, shown = Infinity, camera = CAMERA_SD } = {}) {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--use-fake-ui-for-media-stream', '--autoplay-policy=no-user-gesture-required', '--disable-renderer-backgrounding', '--disable-background-timer-throttling', '--disable-backgrounding-occluded-windows'],
  });
  try {
    const list = await (await fetch(`${url}/api/shows`)).json();
    let show = null;
    for (const s of list.data) {
      const d = await (await fetch(`${url}/api/shows/${s.id}`)).json();
      if (d.contentproviderId === 1 && d.freemode) {
        show = d;
        break;
      }
    }
    if (!show) throw new Error('no own show with free chat on the home page');
    const studio = await newPage(browser, url);
    await studio.addInitScript(clockCamera, { width: camera.width, height: camera.height, bits: BITS });
    await api(studio, url, 'POST', 'auth/login', { username: show.slugName, password: PERFORMER_PASSWORD });
    await api(studio, url, 'POST', 'studio/status', { online: true, paused: false, open: { free: true, private: true, exclusive: true, voyeur: true } });
    await studio.goto(`${url}/studio`);
    await studio.locator('[data-testid=studio][data-connected="1"]').waitFor();
    await studio.selectOption('[data-testid=preset-select]', camera.preset);
    await studio.click('[data-testid=camera-start]');
    await studio.locator('[data-testid=studio-video][data-air=live]').waitFor();
    // Every change of the studio's on-air state (a publication lost and published again shows here).
    await studio.evaluate(() => {
      const el = document.querySelector('[data-testid=studio-video]');
      window.__air = [];
      new MutationObserver(() => window.__air.push(el.getAttribute('data-air'))).observe(el, { attributes: true, attributeFilter: ['data-air'] });
    });
    let airSeen = 0;

    const viewers = [];
    const rows = [];
    const firstFrame = [];
    let switched = null;
    for (const count of counts) {
      // A viewer that gets no video is reported (asked vs playing) and the count is measured with those that play.
      let failure = null;
      while (viewers.length < count && !failure) {
        const page = await newPage(browser, url, { width: 1024, height: 700 });
        const opened = performance.now();
        await page.goto(`${url}/chat/${show.id}/${show.slugName}`);
        // Clicked once its island is hydrated (a click on the server-rendered button does nothing).
        await page.waitForFunction(() => {
          const btn = document.querySelector('[data-chat=free]');
          return !!btn && Object.keys(btn).some((k) => k.startsWith('__reactProps$'));
        });
        await page.locator('[data-chat=free]').click();
        // The show page opens with the chat's video (a visitor clicks "free chat" once it is there).
        failure = await page
          .locator('[data-testid=live-video][data-playing="1"]')
          .waitFor({ timeout: 60_000 })
          .then(() => null)
          .catch(async () => {
            const seen = await page.evaluate(() => document.querySelector('[data-testid=live-video]')?.outerHTML.slice(0, 300) ?? 'no video element');
            const air = await studio.locator('[data-testid=studio-video]').getAttribute('data-air');
            await page.context().close();
            return `viewer ${viewers.length + 1} got no video within 60 s (studio on air: ${air}): ${seen}`;
          });
        if (failure) {
          console.log(`  ${failure}`);
          if (!viewers.length) throw new Error(failure);
          break;
        }
        firstFrame.push(performance.now() - opened);
        viewers.push(page);
      }
      // Past `shown`, a viewer's video is hidden (display: none): it still decodes every frame.
      const onScreen = viewers.slice(0, shown);
      const hidden = viewers.slice(shown);
      await Promise.all(viewers.map((p, i) => p.evaluate((hide) => (document.querySelector('[data-testid=live-video-el]').style.display = hide ? 'none' : ''), i >= shown)));
      await sleep(warmup * 1000);
      const before = await Promise.all(viewers.map(viewerStats));
      await Promise.all(onScreen.map((p) => p.evaluate(startReading, { width: WIDTH, bits: BITS })));
      const token = await probe?.begin();
      await sleep(seconds * 1000);
      const extra = probe ? await probe.end(token) : {};
      const results = await Promise.all(
        onScreen.map((p) =>
          p.evaluate(() => {
            window.__g2gStop = true;
            const r = window.__g2g;
            return { ...r, elapsed: (performance.now() - r.start) / 1000 };
          }),
        ),
      );
      const after = await Promise.all(viewers.map(viewerStats));
      const air = await studio.evaluate(() => window.__air);
      const airChanges = air.slice(airSeen);
      airSeen = air.length;
      const lat = results.flatMap((r) => r.latencies).sort((a, b) => a - b);
      // Frames decoded per second by each viewer; for those hidden, the frame rate and freezes are Chromium's own.
      const decodedFps = after.map((a, i) => (a.decoded - before[i].decoded) / seconds);
      const statsFreezes = after.map((a, i) => a.statsFreezes - before[i].statsFreezes);
      const fps = Math.min(...results.map((r) => r.presented / r.elapsed), ...decodedFps.slice(shown));
      rows.push({
        viewers: viewers.length,
        asked: count,
        ...(failure ? { failure } : {}),
        p50_ms: percentile(lat, 50),
        p99_ms: percentile(lat, 99),
        fps,
        on_screen: onScreen.length,
        decoded_fps_min: Math.min(...decodedFps),
        freezes: results.reduce((n, r) => n + r.freezes, 0) + statsFreezes.slice(shown).reduce((a, b) => a + b, 0),
        stats_freezes: statsFreezes.reduce((a, b) => a + b, 0),
        dropped: after.reduce((n, a, i) => n + a.dropped - before[i].dropped, 0),
        samples: lat.length,
        unreadable: results.reduce((n, r) => n + r.unreadable, 0),
        width: Math.min(...after.map((a) => a.width)),
        height: Math.min(...after.map((a) => a.height)),
        seconds,
        load: os.loadavg()[0],
        // The studio's on-air states since the previous count began (viewers joining included): [] = live throughout.
        studio_air_changes: airChanges.slice(0, 12),
        ...extra,
      });
      if (probe?.dropToViewers && viewers.length === 1) switched = await layerSwitch(viewers[0], probe.dropToViewers);
    }
    firstFrame.sort((a, b) => a - b);
    return { rows, switched, firstFrame: { p50_ms: percentile(firstFrame, 50), p99_ms: percentile(firstFrame, 99), samples: firstFrame.length } };
  } finally {
    await browser.close();
  }
}
