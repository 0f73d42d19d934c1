import { describe, expect, it } from 'vitest';
import en from '../../locales/en.json';
import { baseUrl } from './browser';

// Plain HTTP: what a crawler sees (no browser needed). Every indexable page has its own meta
// description; robots.txt and the pages' robots tags agree (a page robots.txt blocks never asks
// to be indexed, and an indexable page is never blocked).

interface RobotsRule {
  allow: boolean;
  pattern: string;
}

/** The rules of robots.txt for every user agent (the file has only `User-agent: *`). */
async function robotsRules(): Promise<RobotsRule[]> {
  const res = await fetch(new URL('/robots.txt', baseUrl()));
  expect(res.status).toBe(200);
  return (await res.text())
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim())
    .map((line) => /^(allow|disallow):\s*(\S*)$/i.exec(line))
    .filter((m): m is RegExpExecArray => m !== null && m[2] !== '')
    .map((m) => ({ allow: m[1].toLowerCase() === 'allow', pattern: m[2] }));
}

/** Google's rule: the longest matching pattern wins, Allow on a tie; `$` anchors the end. */
function blocked(rules: RobotsRule[], path: string): boolean {
  let best: RobotsRule | null = null;
  for (const rule of rules) {
    const anchored = rule.pattern.endsWith('$');
    const body = anchored ? rule.pattern.slice(0, -1) : rule.pattern;
    const re = new RegExp(`^${body.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}${anchored ? '$' : ''}`);
    if (!re.test(path)) continue;
    if (!best || rule.pattern.length > best.pattern.length || (rule.pattern.length === best.pattern.length && rule.allow)) best = rule;
  }
  return best !== null && !best.allow;
}

interface Head {
  status: number;
  description: string | null;
  robots: string | null;
}

async function head(path: string): Promise<Head> {
  const res = await fetch(new URL(path, baseUrl()), { headers: { Cookie: 'splash18=1; consent_analytics=1', 'Accept-Language': 'en' }, redirect: 'manual' });
  const html = await res.text();
  const decode = (v: string) =>
    v.replace(/&(amp|quot|lt|gt|#x27|#39);/g, (_, e: string) => ({ amp: '&', quot: '"', lt: '<', gt: '>', '#x27': "'", '#39': "'" })[e] ?? '');
  const meta = (name: string) => {
    const raw = new RegExp(`<meta name="${name}" content="([^"]*)"`).exec(html)?.[1];
    return raw === undefined ? null : decode(raw);
  };
  return { status: res.status, description: meta('description'), robots: meta('robots') };
}

async function firstShowPath(): Promise<string> {
  const html = await (await fetch(new URL('/', baseUrl()), { headers: { Cookie: 'splash18=1' } })).text();
  const path = /href="(\/chat\/\d+\/[^"]+)"/.exec(html)?.[1];
  if (!path) throw new Error('no show link on home');
  return path;
}

describe('SEO', () => {
  it('every indexable page has a meta description of its own and robots.txt does not block it', async () => {
    const rules = await robotsRules();
    const show = await firstShowPath();
    const categoriesHtml = await (await fetch(new URL('/shows/categories', baseUrl()), { headers: { Cookie: 'splash18=1' } })).text();
    const category = /href="(\/shows\/\d+\/[^"/]+\/[^"/]+)"/.exec(categoriesHtml)?.[1];
    expect(category).toBeDefined();
    const indexable = ['/', '/shows/all-shows', '/shows/categories', category!, show, '/search', '/faq', '/users/signup', '/users/signup?lang=de', '/login', '/videos', '/contest'];
    const descriptions = new Map<string, string>();
    for (const path of indexable) {
      const h = await head(path);
      expect({ path, status: h.status, robots: h.robots, blocked: blocked(rules, path) }).toEqual({ path, status: 200, robots: null, blocked: false });
      expect(h.description?.trim().length ?? 0, path).toBeGreaterThanOrEqual(20);
      expect(h.description!.length, path).toBeLessThanOrEqual(160);
      descriptions.set(path, h.description!);
    }
    // The pages that used to borrow home's text (categories) or carry only the slogan (show) now say more.
    expect(descriptions.get('/shows/categories')).toBe(en.categories.metaDescription);
    expect(descriptions.get(category!)).not.toBe(descriptions.get('/'));
    const showHead = descriptions.get(show)!;
    expect(showHead.length).toBeGreaterThan(60);
    expect(showHead).toContain(en.common.brand);
  });

  it('a page robots.txt blocks asks not to be indexed', async () => {
    const rules = await robotsRules();
    for (const path of ['/users/reset', '/users/free_coins', '/users/activate', '/users/email_validate']) {
      expect(blocked(rules, path), path).toBe(true);
      const h = await head(path);
      expect({ path, status: h.status, robots: h.robots }).toEqual({ path, status: 200, robots: 'noindex' });
    }
    // Sign-up is indexable and therefore open to crawlers; what follows it (coupon links aside) is not.
    expect(blocked(rules, '/users/signup')).toBe(false);
    expect(blocked(rules, '/users/signup?lang=de')).toBe(false);
    expect(blocked(rules, '/users/signup_success')).toBe(true);
    expect(blocked(rules, '/users/profile')).toBe(true);
  });
});
