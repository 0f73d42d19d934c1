import { describe, expect, it } from 'vitest';
import { startOrigin } from '../../scripts/lib.mjs';

// Issue 24 point 15 (f): npm start listens on and announces 127.0.0.1; its mail links must go
// to the same host (cookies are per host: a localhost link arrives logged out).
describe('npm start: origin of mail links', () => {
  it('is the announced 127.0.0.1 address with the port, unless .dev.vars names PUBLIC_ORIGIN', () => {
    expect(startOrigin('8787', {})).toBe('http://127.0.0.1:8787');
    expect(startOrigin('9000')).toBe('http://127.0.0.1:9000');
    expect(startOrigin('8787', { PUBLIC_ORIGIN: 'https://dev.example' })).toBe('https://dev.example');
  });
});
