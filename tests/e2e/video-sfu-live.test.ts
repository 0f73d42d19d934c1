import type { Browser as PwBrowser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShowDetail } from '../../src/shared/shows';
import { newMember } from './members';
import { homeShows, msg, overlay, performerStudio, person, roomsBrowser, startChat } from './rooms-helpers';
import { decoding, framesDecoded, useSfuServer } from './video-helpers';

// The production video engine (VIDEO_RELAY=cloudflare) with real media (issue 28 point 3): the
// run's second server calls the local stand-in of the Realtime SFU (tools/local-sfu), which
// forwards the RTP; browsers reach it through the run's TURN server, handed out by its TURN-key
// call. The studio's camera goes live through it; and a WHIP publisher (a page doing what OBS
// does) goes live with the studio's stream key, a member watches, a private cuts the free viewer
// off within 2 s, the studio shows what OBS sends, and DELETE ends it.

let browser: PwBrowser;
let shows: ShowDetail[];
let sfu: string;

beforeAll(async () => {
  sfu = await useSfuServer();
  browser = await roomsBrowser('media');
  shows = await homeShows((s) => s.online && s.freemode && s.exclusivemode && !s.exclusiveOnly && s.contentproviderId === 1);
}, 180_000);

afterAll(async () => {
  await browser?.close();
});

/** Packets the stand-in forwarded in all (its `/_control/stats`). */
async function forwarded(): Promise<number> {
  const stats = (await (await fetch(`${sfu}/_control/stats`)).json()) as { sessions: Record<string, { forwarded: Record<string, number> }> };
  return Object.values(stats.sessions).reduce((n, s) => n + Object.values(s.forwarded).reduce((a, b) => a + b, 0), 0);
}

/** In `page` (same origin), what OBS does: a sendonly offer with all candidates, POST with the key, the 201's answer applied. */
function whipPublish(page: Page, show: number, key: string): Promise<{ status: number; location: string | null; body: string }> {
  return page.evaluate(
    async ({ show, key }) => {
      const media = await navigator.mediaDevices.getUserMedia({ video: { width: 640, height: 360 }, audio: true });
      const pc = new RTCPeerConnection();
      for (const track of media.getTracks()) pc.addTransceiver(track, { direction: 'sendonly' });
      await pc.setLocalDescription(await pc.createOffer());
      await new Promise<void>((done) => {
        if (pc.iceGatheringState === 'complete') return done();
        pc.addEventListener('icegatheringstatechange', () => pc.iceGatheringState === 'complete' && done());
        setTimeout(done, 5_000);
      });
      const res = await fetch(`/whip/${show}`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/sdp' }, body: pc.localDescription!.sdp });
      const body = await res.text();
      if (res.status === 201) await pc.setRemoteDescription({ type: 'answer', sdp: body });
      (window as { __whip?: RTCPeerConnection }).__whip = pc;
      return { status: res.status, location: res.headers.get('Location'), body: res.status === 201 ? '' : body };
    },
    { show, key },
  );
}

describe('video through the SFU stand-in (real media)', () => {
  it('en desktop: the studio camera goes live through the SFU and a free viewer decodes it', async () => {
    const m = msg('en');
    const show = shows[0]!;
    const [studio, guest] = await Promise.all([person(browser, 'en', 'desktop'), person(browser, 'en', 'desktop')]);
    await performerStudio(studio, show, { online: true });
    await studio.click('[data-testid=camera-start]');
    await studio.locator('[data-testid=studio-video][data-air=live]').waitFor({ timeout: 30_000 });
    await expect(studio.locator('[data-testid=studio-air]').textContent()).resolves.toContain(m.studio.video.air.live);
    const before = await forwarded();
    await startChat(guest, show, 'free');
    await decoding(guest, 30_000);
    expect(await forwarded()).toBeGreaterThan(before);
    await studio.click('[data-testid=camera-stop]');
    await Promise.all([studio, guest].map((p) => p.context().close()));
  }, 120_000);

  it('en studio, de phones: OBS over WHIP with the key copied from the studio, a member watches, a private cuts the free viewer off within 2 s, the studio sees what OBS sends, DELETE ends it', async () => {
    const m = msg('en');
    const show = shows[1]!;
    const [studio, obs, guest, member] = await Promise.all([person(browser, 'en', 'desktop'), person(browser, 'en', 'desktop'), person(browser, 'de', 'phone'), person(browser, 'de', 'phone')]);
    await Promise.all([performerStudio(studio, show, { online: true }), newMember(member, { coins: show.pricing.private * 20, ageChecked: true, nickname: true })]);
    // The performer makes a key in the studio's OBS card and copies it from there.
    await studio.locator('[data-testid=obs-key-new]').click();
    const key = await studio.locator('[data-testid=obs-key]').inputValue();
    expect(key).toMatch(/^sk_/);
    await obs.goto(`${new URL(studio.url()).origin}/robots.txt`);
    const published = await whipPublish(obs, show.id, key);
    expect(published, published.body).toMatchObject({ status: 201 });
    await obs.waitForFunction(() => (window as { __whip?: RTCPeerConnection }).__whip?.connectionState === 'connected', undefined, { timeout: 20_000 });
    await studio.locator('[data-testid=studio-video][data-air=whip]').waitFor();
    await expect(studio.locator('[data-testid=studio-air]').textContent()).resolves.toContain(m.studio.video.air.whip);
    // The studio sees what OBS sends (its own pull through the SFU): the picture, its size and bitrate.
    const incoming = studio.locator('[data-testid=studio-monitor-stats]');
    await expect.poll(async () => Number(await incoming.getAttribute('data-width')), { timeout: 30_000 }).toBeGreaterThan(0);
    expect(await incoming.textContent()).toMatch(/^From OBS: \d+×\d+, \d+ fps, \d+ kbit\/s$/);
    await expect(studio.locator('[data-testid=studio-monitor]').evaluate((v: HTMLVideoElement) => v.muted && v.videoWidth > 0)).resolves.toBe(true);
    // A second publisher with the same key changes nothing.
    expect((await whipPublish(obs, show.id, key)).status).toBe(409);

    await startChat(guest, show, 'free');
    await decoding(guest, 30_000);
    await startChat(member, show, 'private');
    await overlay(member).and(member.locator('[data-state=pending]')).waitFor();
    await studio.locator('[data-testid=studio-accept]').first().click();
    await guest.locator('[data-testid=live-video][data-state=private]').waitFor();
    expect((await guest.locator('[data-testid=live-video-label]').textContent())?.trim()).toBe(msg('de').video.state.private.replace('{{name}}', show.name));
    await expect.poll(() => framesDecoded(guest), { timeout: 2_000, interval: 100 }).toBe(-1);
    await decoding(member, 30_000);

    // OBS stops: DELETE on its resource; the studio is off the air.
    const status = await obs.evaluate(async ({ location, key }) => (await fetch(location!, { method: 'DELETE', headers: { Authorization: `Bearer ${key}` } })).status, { location: published.location, key });
    expect(status).toBe(200);
    await studio.locator('[data-testid=studio-video][data-air=off]').waitFor();
    expect(await studio.locator('[data-testid=studio-monitor]').count()).toBe(0);
    await Promise.all([studio, obs, guest, member].map((p) => p.context().close()));
  }, 180_000);
});
