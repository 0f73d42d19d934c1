import { describe, expect, it } from 'vitest';
import { drawerItems } from '../../src/shared/drawer';
import { visitorSession, type User } from '../../src/shared/session';

const member: User = { id: 1, name: 'demo', email: 'demo@example.com', coins: 10, is_verified: true, age_verified: true, newsletter: false, nicknames: { data: [], current_nickname: null }, performer_show: null };
const now = new Date('2026-11-22T12:00:00Z');
const keys = (...args: Parameters<typeof drawerItems>) => drawerItems(...args).map((i) => i.key);

describe('drawer visibility rules', () => {
  it('visitors see free coins but not buy coins, voice call or the expired special', () => {
    const k = keys(visitorSession(), null, now);
    expect(k).toContain('freeCoins');
    expect(k).not.toContain('charge');
    expect(k).not.toContain('voicecall');
    expect(k).not.toContain('special');
  });

  it('free coins are hidden when SMS coins are disabled, in a voice call, or for members without SMS coins', () => {
    expect(keys(visitorSession({ sms_coins_disabled: true }), null, now)).not.toContain('freeCoins');
    expect(keys(visitorSession({ voicecall: true }), null, now)).not.toContain('freeCoins');
    expect(keys(visitorSession({ sms_coins_available: false }), member, now)).not.toContain('freeCoins');
    expect(keys(visitorSession({ sms_coins_available: false }), null, now)).toContain('freeCoins');
    expect(keys(visitorSession(), member, now)).toContain('freeCoins');
  });

  it('buy coins shows only for members outside a voice call', () => {
    expect(keys(visitorSession(), member, now)).toContain('charge');
    expect(keys(visitorSession({ voicecall: true }), member, now)).not.toContain('charge');
  });

  it('the special item shows until 2024-07-16', () => {
    expect(keys(visitorSession(), null, new Date('2024-07-15T23:00:00Z'))).toContain('special');
    expect(keys(visitorSession(), null, new Date('2024-07-16T00:00:00Z'))).not.toContain('special');
  });

  it('the voice-call item needs all three phone fields and no active call; age check comes first', () => {
    const phone = { phonecall_payment_type_id: 3, phonecall_product_id: 7, phonecall_payment_name: 'Phone' };
    expect(keys(visitorSession({ ...phone, phonecall_payment_name: null }), null, now)).not.toContain('voicecall');
    const unchecked = drawerItems(visitorSession(phone), null, now).find((i) => i.key === 'voicecall');
    expect(unchecked?.href).toMatch(/^\/avs\?target=/);
    const checked = drawerItems(visitorSession({ ...phone, agechecked: true }), null, now).find((i) => i.key === 'voicecall');
    expect(checked?.href).not.toMatch(/^\/avs/);
  });

  it('voice-call users get the limited menu', () => {
    expect(keys(visitorSession({ voicecall: true }), member, now)).toEqual(['home', 'allShows', 'categories', 'search', 'faq', 'contact']);
  });
});
