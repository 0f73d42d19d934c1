import { expect } from 'vitest';
import type { SecondFactorEnrolment } from '../../src/shared/operator';
import { base32Decode, totp } from '../../src/shared/totp';
import { registerMember, type Member } from './account-helpers';
import { expectJson, OPS, req } from './helpers';

// Operators for the tests (issue 29): a new member appointed by the deploy's token, who sets up
// the second factor as a person does (enrol, then the app's code) and so has it in this login.

export type Operator = Member & { secret: Uint8Array<ArrayBuffer> };

/** The code of `secret` for now (or `offset` steps away). */
export const codeOf = (secret: Uint8Array<ArrayBuffer>, offset = 0) => totp(secret, Math.floor(Date.now() / 1000) + offset * 30);

/** A member made an operator, not enrolled yet. */
export async function appointed(): Promise<Member> {
  const m = await registerMember({ verified: true });
  expect((await req('/api/ops/operators', { method: 'POST', headers: OPS, body: JSON.stringify({ user_id: m.id }) })).status).toBe(201);
  return m;
}

/** An operator whose login has the second factor. */
export async function operator(): Promise<Operator> {
  const m = await appointed();
  const { secret } = await expectJson<SecondFactorEnrolment>(await m.client.post('/api/operator/second-factor/enrol', {}), 200);
  const key = base32Decode(secret)!;
  await expectJson(await m.client.post('/api/operator/second-factor/verify', { code: await codeOf(key) }), 200);
  return { ...m, secret: key };
}
