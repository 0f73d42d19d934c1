import { describe, expect, it } from 'vitest';
import de from '../../locales/de.json';
import en from '../../locales/en.json';
import { INFO_PAGES } from '../../src/shared/info';
import { LAYOUTS } from '../../src/shared/layouts';
import { req } from './helpers';

const html = async (path: string, headers: Record<string, string> = {}) => {
  const res = await req(path, { headers });
  return { res, body: await res.text() };
};

describe('home and show lists', () => {
  it('renders home with 36 demo show tiles, online first, and the category bar', async () => {
    const { res, body } = await html('/');
    expect(res.status).toBe(200);
    expect(body.startsWith('<!DOCTYPE html>')).toBe(true);
    const tiles = [...body.matchAll(/<article class="show-tile( online)?" data-show-id="(\d+)"/g)];
    expect(tiles).toHaveLength(36);
    expect(tiles[0][1]).toBe(' online');
    expect(body).toContain('class="category-bar"');
    for (const id of [20, 1013, 1024, 1051, 1052, 1054, 1062]) expect(body).toContain(`data-category="${id}"`);
    expect(body).toContain('<link rel="canonical" href="http://localhost/"/>');
  });

  it('paginates all shows with canonical links that keep the page', async () => {
    const { body } = await html('/shows/all-shows?page=2&utm_source=x');
    expect(body).toContain('<link rel="canonical" href="http://localhost/shows/all-shows?page=2"/>');
    expect(body).toContain('class="pagination"');
    expect(body).toMatch(/aria-current="page"[^>]*>2</);
  });

  it('renders a category with its breadcrumb, moves wrong slugs to its address and falls back to all shows for unknown ids', async () => {
    const moved = await req('/shows/20/toy-control/anything?page=2', { redirect: 'manual' });
    expect(moved.status).toBe(301);
    expect(moved.headers.get('Location')).toBe('/shows/20/toy-control/interactive-toy-control-shows?page=2');
    const { res, body } = await html('/shows/20/toy-control/interactive-toy-control-shows');
    expect(res.status).toBe(200);
    expect(body).toContain('class="breadcrumbs"');
    expect(body).toContain('Toy control');
    const unknown = await req('/shows/999/nope/nope', { redirect: 'manual' });
    expect(unknown.status).toBe(302);
    expect(unknown.headers.get('Location')).toBe('/shows/all-shows');
  });

  it('a page far past the end shows the empty state, not an error', async () => {
    const { res, body } = await html('/shows/all-shows?page=9999');
    expect(res.status).toBe(200);
    expect(body).toContain('class="empty-state"');
  });

  it('lists categories with counts', async () => {
    const { body } = await html('/shows/categories');
    expect(body).toContain('class="category-card"');
    expect(body).toMatch(/\d+ shows · \d+ live/);
  });
});

describe('languages', () => {
  it('defaults to English and sets the locale cookie for a year', async () => {
    const { res, body } = await html('/');
    expect(body).toContain('<html lang="en"');
    expect(res.headers.get('Set-Cookie')).toMatch(/i18n_redirected=en; Max-Age=31536000/);
  });

  it('follows Accept-Language, the cookie, and ?lang (which wins and is remembered)', async () => {
    expect((await html('/', { 'Accept-Language': 'de-DE,de;q=0.9' })).body).toContain('<html lang="de"');
    expect((await html('/', { Cookie: 'i18n_redirected=de' })).body).toContain('Alle Shows');
    const switched = await html('/?lang=de', { Cookie: 'i18n_redirected=en' });
    expect(switched.body).toContain('<html lang="de"');
    expect(switched.res.headers.get('Set-Cookie')).toMatch(/i18n_redirected=de/);
    expect((await html('/?lang=fr', { Cookie: 'i18n_redirected=de' })).body).toContain('<html lang="de"');
  });

  it('renders every info route in both languages with its anchors', async () => {
    for (const [lang, res] of [['en', en], ['de', de]] as const) {
      for (const key of Object.keys(INFO_PAGES) as (keyof typeof INFO_PAGES)[]) {
        const { res: r, body } = await html(`/${key}`, { Cookie: `i18n_redirected=${lang}` });
        expect(r.status, key).toBe(200);
        const page = (res as unknown as { info: Record<string, { title: string; sections: { id: string }[] }> }).info[key];
        expect(body, key).toContain(`<h1>${page.title.replace(/&/g, '&amp;')}</h1>`);
        for (const s of page.sections) expect(body, `${key}#${s.id}`).toContain(`id="${s.id}"`);
      }
    }
    const contact = (await html('/contact')).body;
    for (const id of ['contact', 'imprint', 'abuse']) expect(contact).toContain(`id="${id}"`);
    expect((await html('/privacy_policy')).body).toContain('id="google_analytics"');
    expect((await html('/contact')).body).toContain('support@livecam.example');
  });

  it('offers the mail to support with the subject of /contact?subject=, escaped and bounded', async () => {
    const { body } = await html(`/contact?subject=${encodeURIComponent('Payment Error (ProcessID BS42)')}`);
    expect(body).toContain('data-testid="contact-subject">Payment Error (ProcessID BS42)</strong>');
    expect(body).toContain('href="mailto:support@livecam.example?subject=Payment%20Error%20(ProcessID%20BS42)"');
    expect((await html('/contact')).body).not.toContain('data-testid="contact-mail"');
    // Markup stays text; a long subject is cut without splitting a character; never a 5xx.
    const hostile = await html(`/contact?subject=${encodeURIComponent('<img src=x onerror=alert(1)>')}`);
    expect(hostile.body).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(hostile.body).not.toContain('<img src=x');
    for (const subject of [`${'a'.repeat(199)}😀`, '😀'.repeat(300), '%ED%A0%80', ' '.repeat(50)]) {
      const { res } = await html(`/contact?subject=${encodeURIComponent(subject)}`);
      expect(res.status, subject.slice(0, 20)).toBe(200);
    }
  });
});

describe('layouts and header', () => {
  it('applies each layout from ?l= and remembers it for a year', async () => {
    for (const layout of LAYOUTS) {
      const { res, body } = await html(`/?l=${layout}`);
      expect(body).toContain(`data-layout="${layout}"`);
      expect(res.headers.get('Set-Cookie')).toMatch(new RegExp(`layout=${layout}; Max-Age=31536000`));
      expect((await html('/faq', { Cookie: `layout=${layout}` })).body).toContain(`data-layout="${layout}"`);
    }
  });

  it('ignores unknown layouts', async () => {
    const { res, body } = await html('/?l=bogus', { Cookie: 'layout=also-bogus' });
    expect(body).toContain('data-layout="redhot"');
    expect(res.headers.get('Set-Cookie') ?? '').not.toMatch(/layout=/);
  });

  it('?h=off hides the header', async () => {
    expect((await html('/')).body).toContain('class="app-bar"');
    expect((await html('/?h=off')).body).not.toContain('class="app-bar"');
  });
});

describe('age splash and consent are rendered by the server', () => {
  it('embeds the state: splash open until confirmed, consent open until answered', async () => {
    const state = (body: string) => JSON.parse(/<script id="__state" type="application\/json">(.*?)<\/script>/s.exec(body)![1]);
    const first = state((await html('/')).body);
    expect(first.splashOpen).toBe(true);
    expect(first.consentOpen).toBe(true);
    const later = state((await html('/', { Cookie: 'splash18=1; consent_analytics=0' })).body);
    expect(later.splashOpen).toBe(false);
    expect(later.consentOpen).toBe(false);
    expect(later.session.splash18_confirmed).toBe(true);
  });
});

describe('error pages', () => {
  it('unknown paths get the 404 page with a home button and support link, in both languages', async () => {
    for (const path of ['/no/such/page', '/404', '/chat-nothing']) {
      const { res, body } = await html(path);
      expect(res.status, path).toBe(404);
      expect(body).toContain('This page could not be found');
      expect(body).toContain('data-testid="support-link"');
    }
    expect((await html('/nope', { Cookie: 'i18n_redirected=de' })).body).toContain('Diese Seite wurde nicht gefunden');
  });
});
