import { describe, expect, it } from 'vitest';
import { exclusiveActive, exclusiveOnly, exclusivePrice, exclusiveVoiceActive } from '../../src/shared/shows';

describe('exclusive pricing and flags', () => {
  it('exclusive price = price x factor / 100, rounded', () => {
    expect(exclusivePrice(40, 150)).toBe(60);
    expect(exclusivePrice(33, 175)).toBe(58); // 57.75
    expect(exclusivePrice(25, 250)).toBe(63); // 62.5 rounds up
    expect(exclusivePrice(99, 100)).toBe(99);
  });

  it('either bit activates exclusive mode; bit 2 means exclusive only; voice needs factor <= 100', () => {
    expect(exclusiveActive(0)).toBe(false);
    expect(exclusiveActive(1)).toBe(true);
    expect(exclusiveActive(2)).toBe(true);
    expect(exclusiveOnly(1)).toBe(false);
    expect(exclusiveOnly(3)).toBe(true);
    expect(exclusiveVoiceActive(1, 100)).toBe(true);
    expect(exclusiveVoiceActive(1, 150)).toBe(false);
    expect(exclusiveVoiceActive(0, 100)).toBe(false);
  });
});
