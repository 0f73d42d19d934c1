import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Components must take every visible string from the locales: no JSX text with letters and no
// literal strings in user-facing attributes.
const VISIBLE_ATTRS = new Set(['title', 'alt', 'placeholder', 'aria-label', 'label']);
const ALLOWED_TEXT = new Set(['18+', '…', 'Live', 'Cam']); // brand mark and symbols

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.tsx') ? [join(dir, e.name)] : [],
  );
}

export function hardcodedTexts(source: string, fileName = 'x.tsx'): string[] {
  const sf = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node)) {
      const text = node.getText().trim();
      if (/\p{L}/u.test(text) && !ALLOWED_TEXT.has(text)) found.push(text);
    }
    if (ts.isJsxAttribute(node) && VISIBLE_ATTRS.has(node.name.getText()) && node.initializer && ts.isStringLiteral(node.initializer)) {
      if (/\p{L}/u.test(node.initializer.text)) found.push(`${node.name.getText()}="${node.initializer.text}"`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

describe('components hold no hard-coded text', () => {
  it('finds none in src/client and src/server', () => {
    const offenders = [...files('src/client'), ...files('src/server')].flatMap((f) =>
      hardcodedTexts(readFileSync(f, 'utf8'), f).map((t) => `${f}: ${t}`),
    );
    expect(offenders).toEqual([]);
  });

  it('the scan catches text and visible attributes', () => {
    expect(hardcodedTexts('const a = <p>Hello world</p>;')).toEqual(['Hello world']);
    expect(hardcodedTexts('const a = <img alt="A picture" />;')).toEqual(['alt="A picture"']);
    expect(hardcodedTexts('const a = <p>{t("x")}</p>;')).toEqual([]);
  });
});
