import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// tools/ holds development and test aids (the local Realtime SFU stand-in): nothing under src/,
// which is what gets deployed, may import from it or pull in its werift dependency.

const root = resolve(import.meta.dirname, '../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.(ts|tsx|mts|js|mjs)$/.test(e.name) ? [p] : [];
  });
}

/** Specifiers of import/export ... from, import(), require() in `source`. */
function specifiers(source: string): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm)) found.push(m[1]);
  return found;
}

/** Where `file` breaks the rule: imports that resolve into tools/, or the werift package. */
function toolImports(file: string, source: string): string[] {
  return specifiers(source).filter((s) => {
    if (s === 'werift' || s.startsWith('werift/')) return true;
    const target = s.startsWith('.') ? resolve(dirname(file), s) : resolve(root, s);
    return s.startsWith('.') || s.startsWith('tools/') ? !relative(join(root, 'tools'), target).startsWith('..') : false;
  });
}

describe('dev tools stay out of the deployed code', () => {
  it('no file under src/ imports from tools/ or imports werift', () => {
    const offenders = sourceFiles(join(root, 'src')).flatMap((f) => toolImports(f, readFileSync(f, 'utf8')).map((s) => `${relative(root, f)}: ${s}`));
    expect(offenders).toEqual([]);
  });

  it('the check catches such imports', () => {
    const file = join(root, 'src/server/features/video/x.ts');
    expect(toolImports(file, "import { createLocalSfu } from '../../../../tools/local-sfu/server';")).toHaveLength(1);
    expect(toolImports(file, "const m = await import('../../../../tools/local-sfu/main');")).toHaveLength(1);
    expect(toolImports(file, "import { RTCPeerConnection } from 'werift';")).toHaveLength(1);
    expect(toolImports(file, "import type { Sfu } from 'tools/local-sfu/control';")).toHaveLength(1);
    expect(toolImports(file, "import { z } from 'zod';\nimport { x } from './realtime-api';")).toEqual([]);
  });
});
