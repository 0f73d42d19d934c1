import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isVideoContainer, readBytes } from '../../src/server/features/studio/upload-containers';

// The container check of studio uploads (issue 24) on real files: the demo clips and previews
// (WebM from WebCodecs and webm-muxer, media/demo/clips) pass; the same files cut short, with a
// page behind a known-size Segment, or declared as MP4 do not.

const dir = new URL('../../media/demo/clips/', import.meta.url);
const clips = readdirSync(dir).filter((f) => f.endsWith('.webm'));
const check = (mime: string, bytes: Uint8Array) => isVideoContainer(mime, readBytes(bytes), bytes.length);

describe('upload containers', () => {
  it('accepts every demo clip and preview as WebM, and none as MP4', async () => {
    expect(clips.length).toBeGreaterThanOrEqual(12);
    for (const name of clips) {
      const bytes = new Uint8Array(readFileSync(new URL(name, dir)));
      expect(await check('video/webm', bytes), name).toBe(true);
      expect(await check('video/mp4', bytes), name).toBe(false);
    }
  });

  it('refuses a demo clip whose header was cut, or with a web page behind it, or its header alone', async () => {
    const bytes = new Uint8Array(readFileSync(new URL('0.webm', dir)));
    const page = new TextEncoder().encode('<html><script>alert(1)</script></html>');
    const joined = new Uint8Array(bytes.length + page.length);
    joined.set(bytes);
    joined.set(page, bytes.length);
    expect(await check('video/webm', bytes.subarray(0, 40))).toBe(false);
    expect(await check('video/webm', bytes.subarray(0, 16))).toBe(false);
    // The clips' Segment has its size (webm-muxer writes it): bytes behind it are refused.
    expect(await check('video/webm', joined)).toBe(false);
    expect(await check('video/webm', new Uint8Array(0))).toBe(false);
    expect(await check('image/png', bytes)).toBe(false);
  });
});
