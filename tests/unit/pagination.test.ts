import { describe, expect, it } from 'vitest';
import { canonicalHref, pageHref, pageItems, parsePage } from '../../src/shared/pagination';

const pages = (items: ReturnType<typeof pageItems>) => items.map((i) => (i.kind === 'page' ? i.page : '…'));

describe('pagination', () => {
  it('is hidden (no items) when the last page is 1 or less', () => {
    expect(pageItems(1, 1)).toEqual([]);
    expect(pageItems(1, 0)).toEqual([]);
  });

  it('shows every page when they fit', () => {
    expect(pages(pageItems(3, 9, 9))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(pages(pageItems(2, 5, 5))).toEqual([1, 2, 3, 4, 5]);
  });

  it('uses at most 9 entries on desktop and 5 on small screens, first and last always present', () => {
    for (const max of [9, 5]) {
      for (let current = 1; current <= 40; current++) {
        const items = pageItems(current, 40, max);
        expect(items.length).toBeLessThanOrEqual(max);
        expect(pages(items)[0]).toBe(1);
        expect(pages(items).at(-1)).toBe(40);
        expect(pages(items)).toContain(current);
      }
    }
    expect(pages(pageItems(20, 40, 9))).toEqual([1, '…', 18, 19, 20, 21, 22, '…', 40]);
    expect(pages(pageItems(20, 40, 5))).toEqual([1, '…', 20, '…', 40]);
    expect(pages(pageItems(1, 40, 9))).toEqual([1, 2, 3, 4, 5, 6, 7, '…', 40]);
    expect(pages(pageItems(40, 40, 9))).toEqual([1, '…', 34, 35, 36, 37, 38, 39, 40]);
  });

  it('keeps search, tags, sort, cat (and a location) in page links and drops page=1', () => {
    const q = new URLSearchParams('search=anna&tags=music&sort=new&cat=3&page=4&utm=x');
    expect(pageHref('/search', q, 2)).toBe('/search?search=anna&tags=music&sort=new&cat=3&page=2');
    expect(pageHref('/search', q, 1)).toBe('/search?search=anna&tags=music&sort=new&cat=3');
    expect(pageHref('/', new URLSearchParams(), 1)).toBe('/');
    expect(pageHref('/search/shows', 'lat=52.5&lon=13.4&page=3', 2)).toBe('/search/shows?lat=52.5&lon=13.4&page=2');
  });

  it('canonical links keep page, search, tags and cat only', () => {
    const q = new URLSearchParams('search=anna&tags=music&sort=new&cat=3&page=4&l=greenhorn');
    expect(canonicalHref('https://x.test', '/search', q)).toBe('https://x.test/search?page=4&search=anna&tags=music&cat=3');
    expect(canonicalHref('https://x.test', '/', new URLSearchParams('page=1'))).toBe('https://x.test/');
  });

  it('parses page numbers defensively', () => {
    expect(parsePage('3')).toBe(3);
    for (const bad of [null, undefined, '', '0', '-1', 'abc', '1e9', '2.5', '9999999999']) expect(parsePage(bad)).toBeGreaterThanOrEqual(1);
    expect(parsePage('abc')).toBe(1);
  });
});
