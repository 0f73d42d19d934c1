import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, waitForIslands, type Browser } from './browser';

/** Loads a page in a fresh tab and waits until it is hydrated and the network is quiet. */
async function visit(b: Browser, path: string) {
  const page = await b.newPage();
  const res = await page.goto(`${b.base}${path}`, { waitUntil: 'networkidle' });
  await waitForIslands(page);
  return { page, status: res?.status() };
}

// German pages are checked for console errors in german.test.ts.
describe.each([
  ['en', { splash: true, consent: true }],
  ['en, first visit (splash open)', {}],
] as const)('no console or page errors (%s)', (_name, cookies) => {
  let b: Browser;
  beforeAll(async () => {
    b = await launch({ cookies });
  });
  afterAll(async () => {
    await b?.close();
  });

  it('on home', async () => {
    const { page, status } = await visit(b, '/');
    expect(status).toBe(200);
    expect(b.unexpectedProblems(page)).toEqual([]);
  });

  it('on an info page', async () => {
    const { page, status } = await visit(b, '/privacy_policy');
    expect(status).toBe(200);
    expect(b.unexpectedProblems(page)).toEqual([]);
  });

  it('on the 404 page (only the document itself failed)', async () => {
    const { page, status } = await visit(b, '/definitely/missing');
    expect(status).toBe(404);
    // Chromium reports the document's own 404 as a failed load; that one entry is all.
    const all = b.unexpectedProblems(page);
    expect(all).toHaveLength(1);
    expect(all[0]).toContain('status of 404');
    expect(all[0]).toContain(`${b.base}/definitely/missing`);
    expect(b.unexpectedProblems(page, { ignoreDocument404: true })).toEqual([]);
  });
});
