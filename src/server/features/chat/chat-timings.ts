import { CHAT_GRACE_MS, CHAT_MINUTE_MS, EXTERNAL_LEASE_MS } from '../../../shared/chat';
import type { Bindings } from '../../env';
import { envPositiveInt } from '../../lib/config';

// The live rooms' timings, read from the environment in one place for the worker and the room
// (tests shorten them in vitest.workers.config.ts); the defaults are in shared/chat.ts.

/** A billed minute. */
export const minuteMs = (env: Bindings) => envPositiveInt(env.CHAT_MINUTE_MS, CHAT_MINUTE_MS);
/** A session whose member socket is gone this long ends; the same for a performer going offline. */
export const graceMs = (env: Bindings) => envPositiveInt(env.CHAT_GRACE_MS, CHAT_GRACE_MS);
/** A partner show's session lease, which its page extends. */
export const leaseMs = (env: Bindings) => envPositiveInt(env.CHAT_EXTERNAL_LEASE_MS, EXTERNAL_LEASE_MS);
