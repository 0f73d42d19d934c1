import fc from 'fast-check';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { counts, type Member, registerMember } from './account-helpers';
import { Client, expectErrorShape } from './helpers';

// Generated bad input for every endpoint of docs/api-accounts.md: malformed JSON, JSON of the
// wrong shape, fields of the wrong type, missing required fields, 1 MB strings, wrong content
// types, absurd path ids and queries. Always a 4xx with { message, errors? } (never a 5xx), and
// the tables that only valid calls may change keep their row counts.

vi.setConfig({ hookTimeout: 60_000 });

type FieldType = 'string' | 'number' | 'boolean' | 'true' | 'array';
interface Field {
  type: FieldType;
  required: boolean;
  valid: unknown;
}
interface BodyEndpoint {
  name: string;
  method: 'POST' | 'PUT';
  path: string;
  /** Member routes answer 401 before validating when logged out. */
  member: boolean;
  fields: Record<string, Field>;
  /** `{}` is a valid (no-op) body: only user/update. */
  emptyValid?: boolean;
}

const str = (valid: unknown, required = true): Field => ({ type: 'string', required, valid });
const TOKEN = 't'.repeat(43);

const BODY_ENDPOINTS: BodyEndpoint[] = [
  { name: 'session/vid', method: 'POST', path: '/api/session/vid', member: false, fields: { vid: str('visitor-1234567'), confidence: { type: 'number', required: true, valid: 0.5 } } },
  { name: 'session/incentive_tsp', method: 'POST', path: '/api/session/incentive_tsp', member: false, fields: { incentive_tsp: { type: 'number', required: true, valid: 1_800_000_000 } } },
  { name: 'auth/login (password)', method: 'POST', path: '/api/auth/login', member: false, fields: { username: str('demo'), password: str('demo-pass-2026') } },
  {
    name: 'auth/login (credential)',
    method: 'POST',
    path: '/api/auth/login',
    member: false,
    fields: { credential: str('c'.repeat(40)), register: { type: 'boolean', required: false, valid: true } },
  },
  {
    name: 'register',
    method: 'POST',
    path: '/api/register',
    member: false,
    fields: {
      email: str('fuzz@example.org'),
      code: str('WELCOME50', false),
      password: str('long-enough-1', false),
      username: str('fuzzuser', false),
      terms_check: { type: 'true', required: true, valid: true },
    },
  },
  { name: 'register/coupon', method: 'POST', path: '/api/register/coupon', member: false, fields: { code: str('WELCOME50') } },
  { name: 'register/validate', method: 'POST', path: '/api/register/validate', member: false, fields: { token: str(TOKEN) } },
  { name: 'auth/send', method: 'POST', path: '/api/auth/send', member: false, fields: { email: str('demo@example.com') } },
  {
    name: 'auth/reset',
    method: 'POST',
    path: '/api/auth/reset',
    member: false,
    fields: { token: str(TOKEN), password: str('long-enough-1'), password_confirm: str('long-enough-1') },
  },
  { name: 'auth/token_login', method: 'POST', path: '/api/auth/token_login', member: false, fields: { token: str(TOKEN) } },
  { name: 'user/email_validate', method: 'POST', path: '/api/user/email_validate', member: true, fields: { token: str(TOKEN) } },
  { name: 'user/update_newsletter', method: 'PUT', path: '/api/user/update_newsletter', member: true, fields: { newsletter: { type: 'boolean', required: true, valid: true } } },
  {
    name: 'user/update',
    method: 'PUT',
    path: '/api/user/update',
    member: true,
    emptyValid: true,
    fields: {
      email: str('fuzz-new@example.org', false),
      password: str('long-enough-1', false),
      password_confirm: str('long-enough-1', false),
      current_password: str('whatever-1', false),
      locale: str('de', false),
    },
  },
  { name: 'user/nickname/add', method: 'POST', path: '/api/user/nickname/add', member: true, fields: { nickname: str('fuzznick') } },
  { name: 'user/cancel', method: 'POST', path: '/api/user/cancel', member: true, fields: { password: str('whatever-1') } },
  {
    name: 'user/log',
    method: 'POST',
    path: '/api/user/log',
    member: false,
    fields: { memberid: { type: 'number', required: false, valid: 1 }, version: str('1.0.0'), errors: { type: 'array', required: true, valid: [] } },
  },
];

const MB = 1 << 20;
const OVERSIZE = ['x'.repeat(MB), '€'.repeat(MB / 3), `${'a'.repeat(MB)}@gmail.com`];
// Generated cases mostly use 64 KB strings (still far over every limit) to keep runs quick; the
// deterministic table sends 1 MB in every field of every endpoint.
const LARGE = ['y'.repeat(64 * 1024), `${'b'.repeat(64 * 1024)}@gmail.com`, 'ü'.repeat(32 * 1024)];

const WRONG: Record<FieldType, unknown[]> = {
  string: [0, -1.5, true, false, null, [], ['demo'], {}, { a: 'b' }],
  number: ['1', '', true, null, [], [1], {}, 'NaN'],
  boolean: ['true', 'false', 0, 1, null, [], {}],
  true: ['true', 1, false, null, [], {}],
  array: ['x', 1, null, {}, true, { 0: 'a', length: 1 }],
};

const MALFORMED = [
  '',
  ' ',
  '{',
  '}',
  '{"email":',
  "{'email': 'a@b.c'}",
  '{"a":1,}',
  '{"a":1}}',
  'undefined',
  'NaN',
  '[1,2',
  '"unterminated',
  '\u0000',
  '{"a":"\\uZZZZ"}',
  `{"a":"${'x'.repeat(MB)}`,
  `${'['.repeat(5000)}`,
];
const WRONG_TOP = ['null', '0', '1e999', '"a string"', '[]', '[{}]', 'true', JSON.stringify([OVERSIZE[0]]), `${'['.repeat(2000)}${']'.repeat(2000)}`];

interface Case {
  label: string;
  body: string;
  contentType?: string | null;
}

function validBody(e: BodyEndpoint): Record<string, unknown> {
  return Object.fromEntries(Object.entries(e.fields).map(([k, f]) => [k, f.valid]));
}

/** Every deterministic bad body for one endpoint. */
function casesFor(e: BodyEndpoint): Case[] {
  const cases: Case[] = [];
  for (const body of MALFORMED) cases.push({ label: `malformed ${JSON.stringify(body.slice(0, 20))}`, body });
  for (const body of WRONG_TOP) cases.push({ label: `top-level ${body.slice(0, 20)}`, body });
  for (const [name, field] of Object.entries(e.fields)) {
    for (const wrong of WRONG[field.type]) {
      cases.push({ label: `${name}=${JSON.stringify(wrong)}`, body: JSON.stringify({ ...validBody(e), [name]: wrong }) });
    }
    if (field.required) {
      const { [name]: _omitted, ...rest } = validBody(e);
      cases.push({ label: `missing ${name}`, body: JSON.stringify(rest) });
    }
    for (const [i, big] of OVERSIZE.entries()) cases.push({ label: `${name}=1 MB string #${i}`, body: JSON.stringify({ ...validBody(e), [name]: big }) });
  }
  if (!e.emptyValid) {
    // A body the validator does not read as JSON counts as {}: missing fields.
    cases.push({ label: 'empty object', body: '{}' });
    cases.push({ label: 'text/plain', body: JSON.stringify(validBody(e)), contentType: 'text/plain' });
    cases.push({ label: 'no content type', body: JSON.stringify(validBody(e)), contentType: null });
    cases.push({ label: 'form', body: 'email=a%40b.c&password=x', contentType: 'application/x-www-form-urlencoded' });
  }
  return cases;
}

let member: Member;
let anon: Client;

beforeAll(async () => {
  member = await registerMember({ verified: true });
  anon = new Client();
  await anon.csrf();
  await member.client.csrf();
});

async function send(client: Client, method: string, path: string, c: Case): Promise<Response> {
  return client.fetch(path, { method, body: c.body, contentType: c.contentType === undefined ? 'application/json' : c.contentType });
}

async function expect4xx(res: Response, label: string): Promise<void> {
  const text = await res.text();
  expect(res.status, `${label} -> ${res.status} ${text.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
  expect(res.status, `${label} -> ${text.slice(0, 300)}`).toBeLessThan(500);
  expect(res.headers.get('Content-Type') ?? '', label).toMatch(/^application\/json/);
  expectErrorShape(JSON.parse(text));
}

describe('account API under generated bad input', () => {
  it('random bad bodies (fast-check), logged in and logged out', async () => {
    const start = await counts();
    const wrongValue = (type: FieldType) =>
      fc
        .oneof(
          fc.integer(),
          fc.double(),
          fc.boolean(),
          fc.constant(null),
          fc.string({ maxLength: 50 }),
          fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 5 }),
          fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
          fc.constantFrom(...LARGE, OVERSIZE[0]),
        )
        .filter((v) => {
          if (type === 'string') return typeof v !== 'string' || v.length > 30_000;
          if (type === 'number') return typeof v !== 'number';
          if (type === 'boolean') return typeof v !== 'boolean';
          if (type === 'true') return v !== true;
          return !Array.isArray(v);
        });

    const endpoint = fc.constantFrom(...BODY_ENDPOINTS);
    const mutated = endpoint.chain((e) => {
      const names = Object.keys(e.fields);
      const required = names.filter((n) => e.fields[n].required);
      const noise = fc.dictionary(
        fc.string({ minLength: 1, maxLength: 10 }).map((k) => `x_${k}`),
        fc.jsonValue({ maxDepth: 3 }),
        { maxKeys: 3 },
      );
      const wrongField = fc.constantFrom(...names).chain((n) => wrongValue(e.fields[n].type).map((v) => ({ [n]: v })));
      const bodies: fc.Arbitrary<string>[] = [
        // One or more fields of the wrong type, plus unknown keys.
        fc.tuple(fc.array(wrongField, { minLength: 1, maxLength: 3 }), noise).map(([ws, n]) => JSON.stringify(Object.assign(validBody(e), n, ...ws))),
        // Not JSON at all.
        fc.string({ maxLength: 200 }).filter((s) => {
          try {
            JSON.parse(s);
            return false;
          } catch {
            return true;
          }
        }),
        // JSON, but not an object.
        fc.oneof(fc.jsonValue({ maxDepth: 2 }).filter((v) => v === null || typeof v !== 'object' || Array.isArray(v))).map((v) => JSON.stringify(v)),
      ];
      if (required.length) {
        bodies.push(
          fc.tuple(fc.subarray(required, { minLength: 1 }), noise).map(([drop, n]) => {
            const b: Record<string, unknown> = { ...validBody(e), ...n };
            for (const d of drop) delete b[d];
            return JSON.stringify(b);
          }),
        );
      }
      return fc.tuple(fc.constant(e), fc.oneof(...bodies), fc.boolean());
    });

    await fc.assert(
      fc.asyncProperty(mutated, async ([e, body, loggedIn]) => {
        const client = loggedIn ? member.client : anon;
        const res = await send(client, e.method, e.path, { label: e.name, body });
        await expect4xx(res, `${e.name} ${loggedIn ? 'member' : 'anonymous'}: ${body.slice(0, 120)}`);
      }),
      { numRuns: 300 },
    );
    expect(await counts()).toEqual(start);
    expect((await member.client.me())?.id).toBe(member.id);
  }, 180_000);

  it('path ids of the nickname routes: anything but an own nickname id is a 4xx', async () => {
    const start = await counts();
    const ids = ['abc', '-1', '0', '1.5', '1e3', '99999999999', '%00', '%2F..%2F', ' ', 'x'.repeat(2000), '1;DROP TABLE users', "1' OR '1'='1", '0x10'];
    const check = async (id: string) => {
      for (const [method, path] of [
        ['POST', `/api/user/nickname/activate/${id}`],
        ['DELETE', `/api/user/nickname/remove/${id}`],
      ] as const) {
        for (const [who, client] of [
          ['member', member.client],
          ['anonymous', anon],
        ] as const) {
          const res = await client.fetch(path, { method, body: '{"id":1}' });
          await expect4xx(res, `${method} ${path.slice(0, 80)} (${who})`);
        }
      }
    };
    for (const id of ids) await check(encodeURI(id).replace(/%25/g, '%'));
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string({ maxLength: 30 }), fc.integer({ min: 1_000_000, max: 999_999_999 }).map(String), fc.bigInt().map(String)),
        async (id) => check(encodeURIComponent(id)),
      ),
      { numRuns: 60 },
    );
    expect(await counts()).toEqual(start);
  }, 180_000);

  it('register/mailcheck: missing, repeated or oversize email is a 4xx; random values never a 5xx', async () => {
    const start = await counts();
    for (const q of ['', '?mail=a@gmial.com', '?email=a@b.c&email=d@e.f', `?email=${'a'.repeat(MB)}`, `?email=${'%E2%82%AC'.repeat(300)}`]) {
      await expect4xx(await anon.get(`/api/register/mailcheck${q}`), `mailcheck${q.slice(0, 40)}`);
    }
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 300 }), async (email) => {
        const res = await anon.get(`/api/register/mailcheck?email=${encodeURIComponent(email)}`);
        expect(res.status).toBeLessThan(500);
        const body = (await res.json()) as { suggestion?: unknown };
        if (res.status === 200) expect(body.suggestion === null || typeof body.suggestion === 'string').toBe(true);
        else expectErrorShape(body);
      }),
      { numRuns: 100 },
    );
    expect(await counts()).toEqual(start);
  }, 180_000);

  it('bodyless and GET endpoints ignore junk bodies and queries: never a 5xx, nothing stored', async () => {
    const start = await counts();
    const junk = fc.oneof(fc.string({ maxLength: 100 }), fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)), fc.constantFrom(OVERSIZE[0], LARGE[0], '{'));
    const query = fc.dictionary(
      fc.constantFrom('redirect_splash', 'webid', 'session', 'websiteid', 'noredirect', 'mid', 'email', 'x'),
      fc.oneof(fc.string({ maxLength: 60 }), fc.constantFrom('x'.repeat(100_000), '//evil.example', '/ok/path')),
      { maxKeys: 4 },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          ['POST', '/api/session/splash18'],
          ['POST', '/api/session/welcome_shown'],
          ['POST', '/api/auth/logout'],
          ['POST', '/api/user/reset_email'],
          ['GET', '/api/session/init'],
          ['GET', '/api/session/splash18'],
          ['GET', '/api/auth/user'],
          ['GET', '/api/auth/csrf-cookie'],
          ['GET', '/api/pixel.gif'],
          ['GET', '/api/videos/image/1/1'],
          ['GET', '/api/videos/image/999999999/1'],
        ),
        junk,
        query,
        async ([method, path], body, q) => {
          // A fresh visitor each time: logout and the member-only routes must not touch the fuzz member.
          const client = new Client();
          const res = await client.fetch(`${path}?${new URLSearchParams(q)}`, { method, body: method === 'GET' ? undefined : body });
          expect(res.status, `${method} ${path}`).toBeLessThan(500);
          const type = res.headers.get('Content-Type') ?? '';
          if (res.status >= 400 && type.startsWith('application/json')) expectErrorShape(await res.json());
          else await res.arrayBuffer();
          if (path === '/api/pixel.gif') expect(type).toBe('image/gif');
        },
      ),
      { numRuns: 150 },
    );
    expect(await counts()).toEqual(start);
  }, 180_000);

  it('every body endpoint: each malformed, mistyped, incomplete or oversize body is a 4xx and stores nothing', async () => {
    const start = await counts();
    for (const e of BODY_ENDPOINTS) {
      const client = e.member ? member.client : anon;
      for (const c of casesFor(e)) {
        const res = await send(client, e.method, e.path, c);
        await expect4xx(res, `${e.name}: ${c.label}`);
        if (e.member) expect(res.status, `${e.name}: ${c.label}`).not.toBe(401);
      }
      expect(await counts(), e.name).toEqual(start);
    }
    expect((await member.client.me())?.id).toBe(member.id);
  }, 180_000);
});
