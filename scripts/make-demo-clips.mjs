// Dev only: renders the demo clips of the store (media/demo/clips/) in Chromium and writes their
// byte sizes into src/shared/demo-media.ts. No ffmpeg needed: frames are drawn on a canvas, encoded
// to VP8 by WebCodecs' VideoEncoder and muxed into WebM (with duration and Cues, so players can
// seek) by webm-muxer, injected into the page. Non-explicit by design: a test pattern, moving
// shapes in the demo palettes, the title and a running timecode (so a seek is visible).
//
//   node scripts/make-demo-clips.mjs        (CHROMIUM_PATH overrides /usr/bin/chromium)
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { loadTs, root } from './lib.mjs';

const { DEMO_CLIP_COUNT, DEMO_CLIP_SECONDS, DEMO_PREVIEW_SECONDS } = await loadTs('src/shared/store.ts');
const { paletteAt } = await loadTs('src/server/features/images/art.ts');
const muxerJs = readFileSync(join(root, 'node_modules', 'webm-muxer', 'build', 'webm-muxer.js'), 'utf8');

const WIDTH = 320;
const HEIGHT = 180;
const FPS = 24;
const BITRATE = 64_000;
const KEYFRAME_EVERY = FPS * 2;
const outDir = join(root, 'media', 'demo', 'clips');

/** Runs in the page: draws frame `i` of clip `n` and returns the encoded WebM bytes (base64). */
async function renderClip({ n, seconds, preview, width, height, fps, bitrate, keyEvery, palette }) {
  const { Muxer, ArrayBufferTarget } = globalThis.WebMMuxer;
  const muxer = new Muxer({ target: new ArrayBufferTarget(), video: { codec: 'V_VP8', width, height, frameRate: fps }, firstTimestampBehavior: 'offset' });
  let failure = null;
  const encoder = new VideoEncoder({ output: (chunk, meta) => muxer.addVideoChunk(chunk, meta), error: (e) => (failure = e) });
  encoder.configure({ codec: 'vp8', width, height, bitrate, framerate: fps, latencyMode: 'quality' });
  const canvas = new OffscreenCanvas(width, height);
  const g = canvas.getContext('2d');
  const bars = ['#c0c0c0', '#c0c000', '#00c0c0', '#00c000', '#c000c0', '#c00000', '#0000c0'];
  const frames = seconds * fps;
  for (let i = 0; i < frames; i++) {
    const t = i / fps;
    const grad = g.createLinearGradient(0, 0, width, height);
    grad.addColorStop(0, palette.from);
    grad.addColorStop(1, palette.to);
    g.fillStyle = grad;
    g.fillRect(0, 0, width, height);
    // A strip of colour bars (the test pattern) along the top.
    bars.forEach((c, k) => {
      g.fillStyle = c;
      g.fillRect((k * width) / bars.length, 0, width / bars.length + 1, height * 0.12);
    });
    // Three soft shapes of the palette, moving on Lissajous paths.
    palette.blobs.forEach((c, k) => {
      const x = width * (0.5 + 0.38 * Math.sin(t * (0.7 + k * 0.23) + k * 2 + n));
      const y = height * (0.56 + 0.28 * Math.cos(t * (0.9 + k * 0.17) + k + n));
      g.globalAlpha = 0.75;
      g.fillStyle = c;
      g.beginPath();
      if (k === 1) g.rect(x - 18, y - 18, 36, 36);
      else g.arc(x, y, 16 + k * 6, 0, Math.PI * 2);
      g.fill();
      g.globalAlpha = 1;
    });
    // The running seconds: a progress bar and a timecode, so a seek shows where it landed.
    g.fillStyle = 'rgba(0,0,0,.45)';
    g.fillRect(0, height - 40, width, 40);
    g.fillStyle = '#fff';
    g.fillRect(0, height - 4, (width * (i + 1)) / frames, 4);
    g.font = 'bold 18px sans-serif';
    g.textBaseline = 'middle';
    g.fillText(`Demo clip ${n + 1}${preview ? ' · preview' : ''}`, 10, height - 21);
    const mm = String(Math.floor(t / 60)).padStart(2, '0');
    const ss = (t % 60).toFixed(1).padStart(4, '0');
    g.font = 'bold 22px monospace';
    g.textAlign = 'right';
    g.fillText(`${mm}:${ss}`, width - 10, height - 21);
    g.textAlign = 'left';
    const frame = new VideoFrame(canvas, { timestamp: Math.round((i * 1e6) / fps), duration: Math.round(1e6 / fps) });
    encoder.encode(frame, { keyFrame: i % keyEvery === 0 });
    frame.close();
    if (encoder.encodeQueueSize > 8) await new Promise((r) => setTimeout(r, 0));
  }
  await encoder.flush();
  if (failure) throw failure;
  muxer.finalize();
  const bytes = new Uint8Array(muxer.target.buffer);
  let bin = '';
  for (let k = 0; k < bytes.length; k += 0x8000) bin += String.fromCharCode(...bytes.subarray(k, k + 0x8000));
  return btoa(bin);
}

/** Runs in the page: loads the clip in a <video> and reports its duration and a seek. */
async function checkClip({ b64, seekTo }) {
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  const video = document.createElement('video');
  video.muted = true;
  video.src = URL.createObjectURL(new Blob([bytes], { type: 'video/webm' }));
  document.body.append(video);
  await new Promise((resolve, reject) => {
    video.onloadedmetadata = resolve;
    video.onerror = () => reject(new Error(`cannot load: ${video.error?.message}`));
  });
  const duration = video.duration;
  video.currentTime = seekTo;
  await new Promise((resolve) => (video.onseeked = resolve));
  const seeked = video.currentTime;
  video.remove();
  return { duration, seeked, seekable: video.seekable.length ? video.seekable.end(0) : 0 };
}

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage();
  // A localhost origin is a secure context, which WebCodecs needs.
  await page.route('http://localhost/**', (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><body></body>' }));
  await page.goto('http://localhost/make-demo-clips');
  await page.addScriptTag({ content: muxerJs });
  mkdirSync(outDir, { recursive: true });
  const clipBytes = [];
  const previewBytes = [];
  for (let n = 0; n < DEMO_CLIP_COUNT; n++) {
    const palette = paletteAt(n * 2);
    const common = { n, width: WIDTH, height: HEIGHT, fps: FPS, bitrate: BITRATE, keyEvery: KEYFRAME_EVERY, palette };
    for (const preview of [false, true]) {
      const seconds = preview ? DEMO_PREVIEW_SECONDS : DEMO_CLIP_SECONDS;
      const b64 = await page.evaluate(renderClip, { ...common, seconds, preview });
      const seekTo = preview ? seconds - 2 : 15;
      const check = await page.evaluate(checkClip, { b64, seekTo });
      if (!(Math.abs(check.duration - seconds) < 0.5) || Math.abs(check.seeked - seekTo) > 0.01) {
        throw new Error(`clip ${n}${preview ? ' preview' : ''} does not seek: ${JSON.stringify(check)}`);
      }
      const bytes = Buffer.from(b64, 'base64');
      const file = join(outDir, preview ? `${n}-preview.webm` : `${n}.webm`);
      writeFileSync(file, bytes);
      (preview ? previewBytes : clipBytes).push(bytes.length);
      console.log(`${file}: ${bytes.length} bytes, ${check.duration.toFixed(2)} s, seek to ${check.seeked}`);
    }
  }
  const table = `// Byte sizes of the committed demo clips (media/demo/clips/), written by the clip generator so
// the seed can fill video_parts.size. Index = clip number (0..DEMO_CLIP_COUNT-1).
// Generated by scripts/make-demo-clips.mjs: do not edit by hand.
export const DEMO_CLIP_BYTES: readonly number[] = [${clipBytes.join(', ')}];
export const DEMO_PREVIEW_BYTES: readonly number[] = [${previewBytes.join(', ')}];
`;
  writeFileSync(join(root, 'src', 'shared', 'demo-media.ts'), table);
  console.log(`total ${clipBytes.concat(previewBytes).reduce((a, b) => a + b, 0)} bytes`);
} finally {
  await browser.close();
}
