import { describe, expect, it } from 'vitest';
import { avsProvider } from '../../src/server/features/avs/provider';
import { providerFor } from '../../src/server/features/billing/provider';
import type { Bindings } from '../../src/server/env';

const prod = { ENVIRONMENT: 'production', PASSWORD_PEPPER: 'x' } as Bindings;

describe('sandboxes stay out of production', () => {
  it('refuses the sandbox payment provider unless explicitly allowed', () => {
    expect(providerFor(prod, 'sandbox')).toBeNull();
    expect(providerFor(prod, 'sandbox-phone')).toBeNull();
    expect(providerFor({ ...prod, ALLOW_SANDBOX_PAYMENTS: '1' }, 'sandbox')?.name).toBe('sandbox');
    expect(providerFor({ ...prod, ENVIRONMENT: 'development' }, 'sandbox')?.name).toBe('sandbox');
  });

  it('refuses the sandbox age check unless chosen', () => {
    expect(() => avsProvider(prod)).toThrow();
    expect(avsProvider({ ...prod, AVS_PROVIDER: 'sandbox' })).toBeTruthy();
    expect(avsProvider({ ...prod, ENVIRONMENT: 'development' })).toBeTruthy();
  });
});
