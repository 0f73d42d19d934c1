import { chromium, type Browser as PwBrowser, type BrowserContext, type Cookie, type Page } from 'playwright-core';
import { inject } from 'vitest';

let chosen: string | null = null;

/** This file talks to another server of the run (the second server of the global setup); null: its own again (setup.ts, after each file). */
export function useServer(url: string | null): void {
  chosen = url;
}

/** Started with the run in the background: waits until it answers (its start-up error, if any, is in the run's output). */
export async function secondServerUp(url: string): Promise<void> {
  const deadline = Date.now() + 170_000;
  for (;;) {
    if (await fetch(`${url}/version`).then((r) => r.ok, () => false)) return;
    if (Date.now() > deadline) throw new Error(`the run's second server ${url} did not answer`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** This test worker's own server (global setup starts one per worker: no state shared between files running at once). */
export function baseUrl(): string {
  if (chosen) return chosen;
  const urls = inject('baseUrls');
  return urls[(Number(process.env.VITEST_POOL_ID) || 1) - 1] ?? urls[0];
}

export interface LaunchOptions {
  /** Browser locale (navigator.language and, unless acceptLanguage is given, Accept-Language). */
  locale?: string;
  /** An exact Accept-Language header for every request. */
  acceptLanguage?: string;
  /** Cookies set before the first navigation. */
  cookies?: {
    /** splash18=1: the age splash counts as confirmed. */
    splash?: boolean;
    /** consent_analytics=1/0 (true = 1): the consent banner is answered. */
    consent?: boolean | '1' | '0';
    /** i18n_redirected */
    lang?: string;
    /** layout */
    layout?: string;
  };
  viewport?: { width: number; height: number };
  /** false: the browser runs no script (the pages must work as sent). */
  javaScriptEnabled?: boolean;
}

/** A German visitor on a phone (by the browser's language, splash and consent answered). */
export const GERMAN_PHONE: LaunchOptions = {
  locale: 'de-DE',
  acceptLanguage: 'de-DE,de;q=0.9',
  cookies: { splash: true, consent: true },
  viewport: { width: 390, height: 844 },
};

export interface ConsoleEntry {
  text: string;
  /** The URL the message is about (for failed loads: the resource). */
  url: string;
}

export interface PageProblems {
  consoleErrors: ConsoleEntry[];
  pageErrors: string[];
  /** Main-frame documents that answered 404 (their own load failure is expected). */
  documents404: Set<string>;
  /**
   * Requests that wrangler dev answered with its own 503 "Your worker restarted mid-request"
   * (it does so for a write in flight while it reloads the worker, seen on a busy machine): a
   * failure of the development server, not of the app, so their console lines are not counted.
   */
  devServerRestarts: Set<string>;
  /**
   * Writes refused for a CSRF token that a login or logout had just rotated (419) and then answered
   * OK: the client fetches the new token and sends them again once (src/client/lib/api.ts), as
   * designed; Chromium still logs the first answer as a failed load, which is not counted.
   */
  retried419: Set<string>;
  /** The last answers of 400 or more (method, status, URL), for the report of a failed test. */
  failedResponses: string[];
}

const collected = new WeakMap<Page, PageProblems>();
/** The watched pages still open (setup.ts describes them when a test fails). */
const openPages = new Set<Page>();

export function watch(page: Page): void {
  if (collected.has(page)) return;
  const problems: PageProblems = { consoleErrors: [], pageErrors: [], documents404: new Set(), devServerRestarts: new Set(), retried419: new Set(), failedResponses: [] };
  collected.set(page, problems);
  openPages.add(page);
  page.on('close', () => openPages.delete(page));
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.consoleErrors.push({ text: msg.text(), url: msg.location().url });
  });
  page.on('pageerror', (error) => problems.pageErrors.push(`${error.name}: ${error.message}`));
  const refused419 = new Set<string>();
  page.on('response', (res) => {
    const write = `${res.request().method()} ${res.url()}`;
    if (res.status() === 419) refused419.add(write);
    else if (res.ok() && refused419.has(write)) problems.retried419.add(res.url());
    if (res.status() >= 400) problems.failedResponses = [...problems.failedResponses.slice(-9), `${res.request().method()} ${res.status()} ${res.url()}`];
    if (res.status() === 404 && res.request().isNavigationRequest() && res.frame() === page.mainFrame()) problems.documents404.add(res.url());
    if (res.status() === 503) {
      void res.text().then(
        (body) => /^Your worker restarted mid-request/.test(body) && problems.devServerRestarts.add(res.url()),
        () => undefined,
      );
    }
  });
}

function problemsOf(page: Page): PageProblems {
  return collected.get(page) ?? { consoleErrors: [], pageErrors: [], documents404: new Set(), devServerRestarts: new Set(), retried419: new Set(), failedResponses: [] };
}

/**
 * What every open page shows, for the output of a failed test (a timed-out wait otherwise says
 * only what it waited for): its URL, the states its elements declare (data-state, data-phase,
 * data-air), its failed answers (wrangler dev's own restarts marked) and its console errors.
 */
export async function describeOpenPages(): Promise<string> {
  const parts: string[] = [];
  for (const page of openPages) {
    const states = await page
      .evaluate(() =>
        [...document.querySelectorAll('[data-testid][data-state], [data-testid][data-phase], [data-testid][data-air]')]
          .slice(0, 12)
          .map((e) => `${e.getAttribute('data-testid')}:${['state', 'phase', 'air'].map((k) => e.getAttribute(`data-${k}`)).filter(Boolean).join('/')}`),
      )
      .catch((e: Error) => [`(unreadable: ${e.message.split('\n')[0]})`]);
    const p = problemsOf(page);
    parts.push(
      [`page ${page.url()}`, `  states: ${states.join(', ') || '-'}`, ...p.failedResponses.map((r) => `  answer: ${r}${p.devServerRestarts.has(r.split(' ').pop() ?? '') ? ' (wrangler dev restarted the worker)' : ''}`), ...problemLines(page).map((l) => `  ${l}`)].join('\n'),
    );
  }
  return parts.join('\n');
}

/** A page's console errors and page errors as readable lines. */
export function problemLines(page: Page, { ignoreDocument404 = false } = {}): string[] {
  const { consoleErrors, pageErrors, documents404, devServerRestarts, retried419 } = problemsOf(page);
  return [
    ...consoleErrors
      .filter((e) => !(ignoreDocument404 && documents404.has(e.url) && /status of 404/.test(e.text)))
      .filter((e) => !(devServerRestarts.has(e.url) && /status of 503/.test(e.text)))
      .filter((e) => !(retried419.has(e.url) && /status of 419/.test(e.text)))
      .map((e) => `console: ${e.text} (${e.url})`),
    ...pageErrors.map((e) => `pageerror: ${e}`),
  ];
}

export interface Browser {
  context: BrowserContext;
  base: string;
  /** The context's first page. */
  page: Page;
  newPage(): Promise<Page>;
  /** Console errors and uncaught page errors of one page, collected since it opened. */
  problems(page?: Page): PageProblems;
  /**
   * The page's problems as readable lines, minus the expected load failure of a document that
   * answered 404 (Chromium logs "Failed to load resource … 404" for it) when ignoreDocument404 is set.
   */
  unexpectedProblems(page?: Page, opts?: { ignoreDocument404?: boolean }): string[];
  cookie(name: string): Promise<Cookie | undefined>;
  close(): Promise<void>;
}

const connected = new Map<string, Promise<PwBrowser>>();

/**
 * The run's Chromium (global setup starts it; `media`: the one with the fake camera), connected
 * once per test file: each launch() is a new context in it (its own cookies, storage and cache,
 * like a fresh profile). The connection closes after the file (tests/e2e/setup.ts), and with it
 * every context the file left open.
 */
export function sharedBrowser(kind: 'plain' | 'media' = 'plain'): Promise<PwBrowser> {
  let browser = connected.get(kind);
  if (!browser) {
    browser = chromium.connect(inject('browsers')[kind]);
    connected.set(kind, browser);
  }
  return browser;
}

/** Closes the file's connections to the run's Chromium (and so the contexts it left open). */
export async function closeSharedBrowser(): Promise<void> {
  const browsers = [...connected.values()];
  connected.clear();
  await Promise.all(browsers.map(async (b) => (await b.catch(() => null))?.close()));
}

/** A fresh browser (a new context: no cookies but the ones asked for). */
export async function launch(opts: LaunchOptions = {}): Promise<Browser> {
  const base = baseUrl();
  const context = await (await sharedBrowser()).newContext({
    locale: opts.locale,
    viewport: opts.viewport ?? { width: 1280, height: 900 },
    javaScriptEnabled: opts.javaScriptEnabled,
    extraHTTPHeaders: opts.acceptLanguage ? { 'Accept-Language': opts.acceptLanguage } : undefined,
  });

  context.on('page', watch);

  const c = opts.cookies ?? {};
  const jar: { name: string; value: string }[] = [];
  if (c.splash) jar.push({ name: 'splash18', value: '1' });
  if (c.consent !== undefined) jar.push({ name: 'consent_analytics', value: c.consent === true || c.consent === '1' ? '1' : '0' });
  if (c.lang) jar.push({ name: 'i18n_redirected', value: c.lang });
  if (c.layout) jar.push({ name: 'layout', value: c.layout });
  if (jar.length) await context.addCookies(jar.map((k) => ({ ...k, url: base })));

  const page = await context.newPage();
  watch(page);

  return {
    context,
    base,
    page,
    newPage: async () => {
      const p = await context.newPage();
      watch(p);
      return p;
    },
    problems: (p = page) => problemsOf(p),
    unexpectedProblems: (p = page, opts = {}) => problemLines(p, opts),
    cookie: async (name) => (await context.cookies(base)).find((k) => k.name === name),
    close: () => context.close(),
  };
}

/**
 * Waits until main.ts has hydrated every island of the page (but the members' ones a visitor's
 * page defers): React marks each container when
 * hydrateRoot runs (from then on a click on a part not yet hydrated is hydrated first and
 * replayed) and each hydrated element with its props.
 */
export async function waitForIslands(page: Page, timeout = 15_000): Promise<void> {
  try {
    await page.waitForFunction(
      () => {
        // A members' island on a visitor's page waits for a login (data-deferred, main.ts).
        const islands = [...document.querySelectorAll('[data-island]:not([data-deferred])')];
        const marked = (el: Element | null, prefix: string) => !el || Object.keys(el).some((k) => k.startsWith(prefix));
        return (
          islands.length > 0 &&
          islands.every((el) => marked(el, '__reactContainer$') && marked(el.firstElementChild, '__reactProps$'))
        );
      },
      undefined,
      { timeout, polling: 50 },
    );
  } catch (error) {
    const state = await page
      .evaluate(() =>
        [...document.querySelectorAll('[data-island]')].map(
          (el) => `${el.getAttribute('data-island')}: ${Object.keys(el).join(',') || '-'} / ${Object.keys(el.firstElementChild ?? {}).join(',') || '-'}`,
        ),
      )
      .catch((e: unknown) => [`(page not readable: ${String(e)})`]);
    throw new Error(
      `islands not hydrated on ${page.url()}: ${(error as Error).message}\nislands:\n  ${state.join('\n  ')}\nproblems:\n  ${problemLines(page).join('\n  ') || '(none)'}`,
    );
  }
}

/** Navigates to a path of the test server and waits for the islands. */
export async function open(page: Page, path: string, { hydrate = true } = {}) {
  const res = await page.goto(new URL(path, baseUrl()).href);
  if (hydrate) await waitForIslands(page);
  return res;
}

/** Days from now until a cookie expires (0 for a session cookie or none). */
export function daysUntil(cookie: Cookie | undefined): number {
  if (!cookie || cookie.expires <= 0) return 0;
  return (cookie.expires * 1000 - Date.now()) / 86_400_000;
}

/** Computed style property of the first element matching selector. */
export function computed(page: Page, selector: string, property: string): Promise<string> {
  return page.$eval(selector, (el, prop) => getComputedStyle(el).getPropertyValue(prop), property);
}

export interface CallResult<T = unknown> {
  status: number;
  body: T;
}

/**
 * A JSON call to the API with the page's cookies, like the client API layer (the CSRF cookie
 * first, then its header), sent by the context's request API: no page needs to be loaded, and the
 * cookies it sets (a login, a rotated token) are the page's too.
 */
export async function call<T = Record<string, unknown>>(page: Page, method: string, path: string, body?: unknown, retried = false): Promise<CallResult<T>> {
  const ctx = page.context();
  const base = baseUrl();
  const token = async () => (await ctx.cookies(base)).find((c) => c.name === 'XSRF-TOKEN')?.value;
  if (!(await token())) await ctx.request.get(`${base}/api/auth/csrf-cookie`);
  const send = async () =>
    ctx.request.fetch(`${base}/api/${path}`, {
      method,
      headers: { Accept: 'application/json', 'X-XSRF-TOKEN': decodeURIComponent((await token()) ?? '') },
      data: body,
    });
  // wrangler dev's proxy now and then resets a connection (ECONNRESET, twice in many runs): a GET
  // changes nothing, so it is sent once more; a write is not (it may have been taken).
  const res = await send().catch((error: unknown) => {
    if (method === 'GET' && !retried && /ECONNRESET/.test(String(error))) return send();
    throw error;
  });
  const text = await res.text();
  // wrangler dev answers 503 when it restarted the worker mid-request (and asks to send it again).
  if (res.status() === 503 && /restarted mid-request/.test(text) && !retried) return call(page, method, path, body, true);
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // plain text
  }
  return { status: res.status(), body: parsed as T };
}

/**
 * Waits until the page's lobby socket is open. A second tab must be connected before the event it
 * should receive happens: an event sent while its socket is still connecting does not reach it.
 */
export async function lobbyConnected(page: Page): Promise<void> {
  await page.waitForFunction(() => (window as { __lobby?: { connected: boolean } }).__lobby?.connected === true, undefined, { timeout: 15_000 });
}
