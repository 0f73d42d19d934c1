import type { Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { secondServerUp, useServer } from './browser';

// Live video in the browser, shared by the video files: what a viewer decodes, and the run's
// second server whose engine is the SFU stand-in (global-setup.ts).

/** Frames the viewer's video connection decoded so far (-1 without a connection). */
export function framesDecoded(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const pc = window.__videoPc;
    if (!pc) return -1;
    let n = 0;
    (await pc.getStats()).forEach((s: { type: string; kind?: string; framesDecoded?: number }) => {
      if (s.type === 'inbound-rtp' && s.kind === 'video') n = s.framesDecoded ?? 0;
    });
    return n;
  });
}

/** The viewer's video plays and keeps decoding new frames. */
export async function decoding(page: Page, timeout?: number): Promise<void> {
  await page.locator('[data-testid=live-video][data-playing="1"]').waitFor({ timeout });
  const first = await framesDecoded(page);
  expect(first).toBeGreaterThan(0);
  await expect.poll(() => framesDecoded(page), { timeout: 10_000, interval: 250 }).toBeGreaterThan(first + 15);
}

/** This file talks to the run's second server (VIDEO_RELAY=cloudflare): answers its SFU stand-in's origin once the server is up. */
export async function useSfuServer(): Promise<string> {
  const second = inject('secondServer');
  expect(second, 'the second server of the global setup').toBeTruthy();
  useServer(second!.url);
  await secondServerUp(second!.url);
  return second!.sfu;
}
