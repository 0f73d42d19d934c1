import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NAME_FOLDS, NAME_KEY_DROP, NAME_KEY_MAX, nameKey, searchText } from '../../src/shared/search-names';

const migration = readFileSync(new URL('../../migrations/0020_search_names.sql', import.meta.url), 'utf8');

/** The SQL steps that fold shows.name_key: the migration must hold exactly these, in this order. */
function foldSteps(chunk: number): string[] {
  const pairs: [string, string][] = [];
  for (const [to, from] of Object.entries(NAME_FOLDS)) for (const ch of from) pairs.push([ch, to]);
  for (const ch of NAME_KEY_DROP) pairs.push([ch, '']);
  const lit = (s: string) => (/^[\s\u0300-\u036f]$/u.test(s) && s !== ' ' ? `char(${s.codePointAt(0)})` : `'${s.replace(/'/g, "''")}'`);
  const steps: string[] = [];
  for (let i = 0; i < pairs.length; i += chunk) {
    let e = 'name_key';
    for (const [a, b] of pairs.slice(i, i + chunk)) e = `replace(${e}, ${lit(a)}, ${lit(b)})`;
    steps.push(`UPDATE shows SET name_key = ${e}`);
  }
  return steps;
}

describe('name keys', () => {
  it('fold case, accents, spaces and punctuation, so names compare across the camel-case or space boundary', () => {
    expect(nameKey('FriedaBlue')).toBe('friedablue');
    expect(nameKey('Frieda Blue')).toBe('friedablue');
    expect(nameKey('frieda-blue')).toBe('friedablue');
    expect(nameKey('Yara & Ben')).toBe('yaraben');
    expect(nameKey('Zoë')).toBe('zoe');
    expect(nameKey('KÄTHE')).toBe('kathe');
    expect(nameKey('Jördis & Elias')).toBe('jordiselias');
    expect(nameKey('Łucja Øst Straße')).toBe('lucjaoststrasse');
    expect(nameKey('O\u0308rjan')).toBe('orjan');
    expect(nameKey('Liv😀')).toBe('liv😀');
  });

  it('a search term is folded like the names, and has none without a word', () => {
    expect(searchText('Liv Joy')).toEqual({ fts: '"Liv"* AND "Joy"*', key: 'livjoy' });
    expect(searchText('  Köln ')).toEqual({ fts: '"Köln"*', key: 'koln' });
    // A decomposed umlaut as some keyboards send it.
    expect(searchText('Ko\u0308ln')?.key).toBe('koln');
    expect(searchText('*')).toBeNull();
    expect(searchText('')).toBeNull();
    expect(searchText(null)).toBeNull();
    expect(searchText('x'.repeat(10_000))?.key).toHaveLength(NAME_KEY_MAX);
  });

  it('the migration folds with exactly these tables, in steps no deeper than 25 calls', () => {
    const steps = foldSteps(25);
    expect(steps.length).toBeGreaterThan(5);
    // Every statement that writes name_key, in order: both triggers (insert, name change), then the
    // backfill of the rows that existed before.
    const writes = migration
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l.startsWith('UPDATE shows SET name_key'));
    const trigger = ['UPDATE shows SET name_key = lower(new.name)', ...steps].map((x) => `${x} WHERE id = new.id;`);
    const backfill = ['UPDATE shows SET name_key = lower(name)', ...steps].map((x) => `${x};`);
    expect(writes).toEqual([...trigger, ...trigger, ...backfill]);
  });
});
