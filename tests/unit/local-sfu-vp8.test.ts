import { describe, expect, it } from 'vitest';
import { chooseLayer, vp8KeyframeStart } from '../../tools/local-sfu/forward';

// The stand-in's forwarder starts a viewer (or a layer switch) on the first packet of a VP8 key
// frame. RFC 7741 section 4.2: after the required byte (X R N S R PID), X adds I L T K; I adds a
// 7- or 15-bit PictureID (M), L adds TL0PICIDX, T or K adds one TID|Y|KEYIDX byte; then, on the
// first packet of a frame (S=1, PID=0), the payload header's P bit is 0 for a key frame.

const hex = (s: string) => Buffer.from(s.replace(/\s/g, ''), 'hex');

describe('vp8KeyframeStart (RFC 7741 payload descriptor)', () => {
  it('reads the descriptors Chromium sends for a simulcast layer (X, I with M, L and T)', () => {
    // Captured from Chromium's 'f' layer through the stand-in: 90 e0 | 94b0 | 9c | 20 | 70 ... (key)
    expect(vp8KeyframeStart(hex('90e094b09c207056009d'))).toBe(true);
    // The next frames (N=1 on the upper temporal layers): payload header b1 / 11 (P=1, delta).
    expect(vp8KeyframeStart(hex('b0e094b19ca0b127000a'))).toBe(false);
    expect(vp8KeyframeStart(hex('90e094b29c601131001f'))).toBe(false);
  });

  it('reads the short forms: no X, X without I, a 7-bit PictureID', () => {
    expect(vp8KeyframeStart(hex('10 00 9d012a'))).toBe(true);
    expect(vp8KeyframeStart(hex('10 01 9d012a'))).toBe(false);
    expect(vp8KeyframeStart(hex('90 00 50 9d012a'))).toBe(true);
    expect(vp8KeyframeStart(hex('90 80 12 50 9d012a'))).toBe(true);
    expect(vp8KeyframeStart(hex('90 80 12 51 9d012a'))).toBe(false);
  });

  it('skips one TID/KEYIDX byte on T or K, and none on L alone (werift skips on L or K)', () => {
    // T without L: the TID byte (20, P bit 0) must not be taken for the payload header (31: delta).
    expect(vp8KeyframeStart(hex('90 a0 94b0 20 31'))).toBe(false);
    expect(vp8KeyframeStart(hex('90 a0 94b0 21 30'))).toBe(true);
    // K without L or T.
    expect(vp8KeyframeStart(hex('90 90 94b0 03 31'))).toBe(false);
    // L without T or K: only TL0PICIDX (9c) is skipped; the payload header follows (30: key).
    expect(vp8KeyframeStart(hex('90 c0 94b0 9c 30 9d'))).toBe(true);
    // L, T and K together: one TID|Y|KEYIDX byte.
    expect(vp8KeyframeStart(hex('90 f0 94b0 9c 41 31'))).toBe(false);
    expect(vp8KeyframeStart(hex('90 f0 94b0 9c 41 30'))).toBe(true);
  });

  it('is never a key frame start off a frame start, past the end, or empty', () => {
    expect(vp8KeyframeStart(hex('80 e0 94b0 9c 20 70'))).toBe(false); // S=0: a continuation packet
    expect(vp8KeyframeStart(hex('91 e0 94b0 9c 20 70'))).toBe(false); // PID=1: not partition 0
    expect(vp8KeyframeStart(hex('90 e0 94b0 9c 20'))).toBe(false); // ends inside the descriptor
    expect(vp8KeyframeStart(hex('90'))).toBe(false);
    expect(vp8KeyframeStart(Buffer.alloc(0))).toBe(false);
  });
});

describe('chooseLayer', () => {
  it("takes the preferred RID, else by ridNotAvailable; '' without simulcast", () => {
    const pull = { preferredRid: 'f', priorityOrdering: 'asciibetical', ridNotAvailable: 'asciibetical' } as const;
    expect(chooseLayer(['f', 'h'], pull)).toBe('f');
    expect(chooseLayer(['q', 'h'], pull)).toBe('h');
    expect(chooseLayer(['q', 'h'], { preferredRid: 'f', ridNotAvailable: 'none' })).toBeNull();
    expect(chooseLayer([''], pull)).toBe('');
  });
});
