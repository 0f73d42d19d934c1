import type { Browser as PwBrowser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShowDetail } from '../../src/shared/shows';
import { type Lang, newMember } from './members';
import { startTurn } from '../../scripts/turn.mjs';
import { homeShows, msg, overlay, performerStudio, person, roomsBrowser, startChat, type Device } from './rooms-helpers';
import { decoding, framesDecoded } from './video-helpers';

// Live video (issue 12) with Chromium's fake camera, peer to peer relay-only through the run's
// TURN server (coturn) as in production: the performer's studio goes live, two free viewers
// decode the video (relayed, no address of the performer in what they received), a private
// cuts them off (only the private member keeps it) and they get it back when the private ends.
// A viewer whose network is cut and restored gets the video back (the time it took is printed;
// the 5 s of issue 26 are read there, not asserted). Without camera permission the studio says so; a browser without WebRTC gets a clear message.

let browser: PwBrowser;
let shows: ShowDetail[];

beforeAll(async () => {
  browser = await roomsBrowser('media');
  // Past the shows the free, paid and voice-call room files use.
  shows = (await homeShows((s) => s.online && s.freemode && s.exclusivemode && !s.exclusiveOnly && s.contentproviderId === 1)).slice(8);
});

afterAll(async () => {
  await browser?.close();
});

/**
 * The viewer's connection runs through the TURN server only (issue 26 point 4): the performer's
 * description lists no host or reflexive address, and the pair in use is a relayed one.
 */
async function relayedOnly(page: Page): Promise<void> {
  const seen = () =>
    page.evaluate(async () => {
      const pc = window.__videoPc;
      const sdp = pc?.remoteDescription?.sdp ?? '';
      const types = new Map<string, string>();
      const pairs = new Map<string, string>();
      let selected = '';
      (await pc!.getStats()).forEach((s: { type: string; id: string; candidateType?: string; localCandidateId?: string; selectedCandidatePairId?: string }) => {
        if (s.type === 'local-candidate') types.set(s.id, s.candidateType ?? '');
        if (s.type === 'candidate-pair') pairs.set(s.id, s.localCandidateId ?? '');
        if (s.type === 'transport' && s.selectedCandidatePairId) selected = s.selectedCandidatePairId;
      });
      return { candidates: sdp.split(/\r?\n/).filter((l) => l.startsWith('a=candidate:')), used: types.get(pairs.get(selected) ?? '') ?? '' };
    });
  const first = await seen();
  expect(first.candidates.length).toBeGreaterThan(0);
  for (const c of first.candidates) expect(c).toMatch(/ typ relay( |$)/);
  // The pair in use as the transport names it (a snapshot taken while ICE re-checks may name none).
  await expect.poll(async () => (await seen()).used, { timeout: 5_000, interval: 250 }).toBe('relay');
}

/** The viewer lost the video: the state says why and the connection is gone. */
async function cutOff(page: Page, state: string): Promise<void> {
  await page.locator(`[data-testid=live-video][data-state=${state}]`).waitFor();
  await expect.poll(() => framesDecoded(page), { timeout: 2_000, interval: 100 }).toBe(-1);
}

// In German with the performer and the private member on phones (the test without camera below is English on a desktop).
const CASES: [Lang, Device][] = [['de', 'phone']];

describe.each(CASES)('live video (%s, %s)', (lang, device) => {
  it('the studio goes live, two viewers decode, a private cuts the free viewers off and gives their video back when it ends', async () => {
    const m = msg(lang);
    const show = shows[1];
    expect(show, 'a live show with free and private chat').toBeDefined();
    const [studio, guest, viewer, member] = await Promise.all([person(browser, lang, device), person(browser, lang, 'desktop'), person(browser, lang, 'phone'), person(browser, lang, device)]);
    await Promise.all([performerStudio(studio, show, { online: true }), newMember(member, { coins: show.pricing.private * 20, ageChecked: true, nickname: true })]);

    // The performer starts the camera: preview, on air, no viewer yet.
    await studio.click('[data-testid=camera-start]');
    await studio.locator('[data-testid=studio-video][data-camera=on][data-air=live]').waitFor();
    await expect(studio.locator('[data-testid=studio-air]').textContent()).resolves.toContain(m.studio.video.air.live);
    await studio.waitForFunction(() => (document.querySelector<HTMLVideoElement>('[data-testid=studio-preview]')?.videoWidth ?? 0) > 0);

    // Two free viewers (a guest on a desktop, one on a phone) receive and decode it.
    await Promise.all([startChat(guest, show, 'free'), startChat(viewer, show, 'free')]);
    await Promise.all([decoding(guest), decoding(viewer)]);
    await Promise.all([relayedOnly(guest), relayedOnly(viewer)]);
    await expect(guest.locator('[data-testid=live-video-el]').evaluate((v: HTMLVideoElement) => [v.muted, v.playsInline])).resolves.toEqual([true, true]);
    await studio.locator('[data-testid=studio-video-viewers]', { hasText: m.studio.video.viewers_other.replace('{{count}}', '2') }).waitFor();
    // Started muted (autoplay rules); the viewer can turn the sound on.
    await guest.click('[data-testid=video-unmute]');
    await expect(guest.locator('[data-testid=live-video-el]').evaluate((v: HTMLVideoElement) => v.muted)).resolves.toBe(false);

    // A member's private starts: the free viewers are cut off within 2 s, the member gets the video.
    await startChat(member, show, 'private');
    await overlay(member).and(member.locator('[data-state=pending]')).waitFor();
    await studio.locator('[data-testid=studio-accept]').first().click();
    await Promise.all([cutOff(guest, 'private'), cutOff(viewer, 'private')]);
    await expect(guest.locator('[data-testid=live-video-label]').textContent()).resolves.toContain(m.video.state.private.replace('{{name}}', show.name).slice(0, 12));
    await decoding(member);

    // The private ends: the free viewers get their video back.
    await studio.click('[data-testid=studio-end-private]');
    await overlay(member).and(member.locator('[data-state=ended]')).waitFor();
    await Promise.all([decoding(guest), decoding(viewer)]);

    // A network change: the studio's socket drops and comes back; it publishes again and the viewers reconnect to it.
    await guest.evaluate(() => ((window as { __oldPc?: unknown }).__oldPc = window.__videoPc));
    await studio.evaluate(() => (window as { __studioSocket?: { reconnect(): void } | null }).__studioSocket?.reconnect());
    await guest.waitForFunction(() => window.__videoPc && window.__videoPc !== (window as { __oldPc?: unknown }).__oldPc, undefined, { timeout: 15_000 });
    await Promise.all([decoding(guest), decoding(viewer)]);
    await Promise.all([studio, guest, viewer, member].map((p) => p.context().close()));
  });
});

describe('live video over a network that drops', () => {
  it('a viewer whose network is cut and restored gets the video back', async () => {
    const show = shows[3];
    expect(show).toBeDefined();
    // The viewer's own network: its own TURN server (its own relay ports), which the cut kills
    // outright and the restore starts again on the same port. (Chromium's offline emulation does
    // not touch WebRTC, so the cut is made outside the browser.)
    const range = { minPort: 49600, maxPort: 49799 };
    let own = await startTurn(range);
    try {
      const [studio, viewer] = await Promise.all([person(browser, 'en', 'desktop'), person(browser, 'en', 'phone')]);
      await viewer.route('**/api/video/ice?**', async (route) => {
        const res = await route.fetch();
        await route.fulfill({ response: res, json: { ...(await res.json()), iceServers: JSON.parse(own.iceServers) } });
      });
      await performerStudio(studio, show, { online: true });
      await studio.click('[data-testid=camera-start]');
      await studio.locator('[data-testid=studio-video][data-air=live]').waitFor();
      await startChat(viewer, show, 'free');
      await decoding(viewer);
      await relayedOnly(viewer);

      await own.kill();
      await viewer.locator('[data-testid=live-video][data-phase=reconnecting]').waitFor({ timeout: 20_000 });
      own = await startTurn({ ...range, port: own.port });
      const restored = Date.now();
      await decoding(viewer);
      console.log(`video back ${Date.now() - restored} ms after the viewer's network returned`);
      await relayedOnly(viewer);
      await Promise.all([studio, viewer].map((p) => p.context().close()));
    } finally {
      await own.kill();
    }
  });
});

describe('live video without camera or WebRTC', () => {
  it('a studio without camera permission says so and the chat goes on; a viewer without WebRTC gets a clear message', async () => {
    const m = msg('en');
    const show = shows[2];
    expect(show).toBeDefined();
    const [studio, viewer] = await Promise.all([person(browser, 'en', 'phone'), person(browser, 'en', 'desktop')]);
    await studio.addInitScript(() => {
      navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException('denied', 'NotAllowedError'));
    });
    await viewer.addInitScript(() => {
      delete (window as { RTCPeerConnection?: unknown }).RTCPeerConnection;
    });
    await performerStudio(studio, show, { online: true });
    await studio.click('[data-testid=camera-start]');
    await studio.locator('[data-testid=studio-video][data-camera=denied]').waitFor();
    await expect(studio.locator('[data-testid=studio-camera-error]').textContent()).resolves.toBe(m.studio.video.problem.denied);
    await expect(studio.locator('[data-testid=camera-start]').textContent()).resolves.toBe(m.studio.video.retry);

    await startChat(viewer, show, 'free');
    await viewer.locator('[data-testid=live-video][data-state=unsupported]').waitFor();
    await expect(viewer.locator('[data-testid=live-video]').textContent()).resolves.toContain(m.video.unsupported);
    // The chat itself works: the performer's line arrives.
    await studio.fill('[data-testid=studio-input]', 'hello without video');
    await studio.press('[data-testid=studio-input]', 'Enter');
    await viewer.locator('[data-testid=chat-line][data-from=performer] .chat-text', { hasText: 'hello without video' }).waitFor();
    await Promise.all([studio, viewer].map((p) => p.context().close()));
  });
});
