import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mountedRouters } from './layout-mounts';
import { checkLayout, type Tree } from './layout-rules';


function sourceTree(dir = 'src'): Tree {
  const tree: Tree = new Map();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(ts|tsx|css)$/.test(e.name)) tree.set(p.split('\\').join('/'), readFileSync(p, 'utf8'));
    }
  };
  walk(dir);
  return tree;
}

/** The real tree with `changes` applied (a file set to null is removed). */
function withChanges(changes: Record<string, string | null>): Tree {
  const tree = sourceTree();
  for (const [path, source] of Object.entries(changes)) {
    if (source === null) tree.delete(path);
    else tree.set(path, source);
  }
  return tree;
}

const rulesOf = (tree: Tree) => checkLayout(tree).map((v) => `${v.file}: ${v.rule}`);

describe('layout rules', () => {
  it('hold for the source tree', () => {
    expect(checkLayout(sourceTree())).toEqual([]);
  });

  // Each rule, broken once on purpose: the check names the file and the rule.
  it.each([
    { rule: 'client never imports server', file: 'src/client/features/shows/x.tsx', source: "import { x } from '../../../server/lib/errors';" },
    { rule: 'server imports from the client only pages, shell and ui', file: 'src/server/features/shows/x.ts', source: "import { api } from '../../../client/lib/api';" },
    { rule: 'lib, ui, state and shared never import a feature', file: 'src/client/lib/x.ts', source: "import { x } from '../features/billing/billing-data';" },
    { rule: 'lib, ui, state and shared never import a feature', file: 'src/client/ui/x.tsx', source: "import { x } from '../features/billing/billing-data';" },
    { rule: 'lib, ui, state and shared never import a feature', file: 'src/client/state/x.ts', source: "import { x } from '../features/billing/billing-data';" },
    { rule: 'shared imports only shared', file: 'src/shared/x.ts', source: "import type { x } from '../client/lib/api';" },
    { rule: 'shell imports only the islands it places', file: 'src/client/shell/x.tsx', source: "import { x } from '../features/billing/billing-data';" },
    { rule: 'features import each other only through the allow-list', file: 'src/client/features/game/x.tsx', source: "import { x } from '../billing/billing-data';" },
    { rule: 'another server feature only through its *.service.ts', file: 'src/server/features/game/x.ts', source: "import { findBilling } from '../billing/billing.repo';" },
    { rule: 'lib, middleware and render reach a feature only through its *.service.ts', file: 'src/server/middleware/x.ts', source: "import { loadVisitor } from '../features/session/session.repo';" },
    { rule: 'realtime imports no feature', file: 'src/server/realtime/x.ts', source: "import type { SessionRow } from '../features/session/session.repo';" },
    { rule: 'no prepare( outside *.repo.ts', file: 'src/server/features/game/x.ts', source: 'export const f = (db: D1Database) => db.prepare("SELECT 1");' },
    { rule: 'kebab-case file names', file: 'src/server/features/game/Game_Thing.ts', source: 'export const x = 1;' },
    { rule: 'no barrel files (re-exports)', file: 'src/server/features/game/x.ts', source: "export * from './game.repo';" },
    { rule: 'no file over 250 lines', file: 'src/server/features/game/x.ts', source: 'export const x = 1;\n'.repeat(251) },
    { rule: 'every *.island.tsx is a registered island', file: 'src/client/features/game/x.island.tsx', source: 'export default function X() {\n  return null;\n}' },
    {
      rule: 'an <Island> renders the module registered under its name',
      file: 'src/client/features/game/x.tsx',
      source: "import { Island } from '../../ui/island';\nimport { GamePage } from './game-page';\nexport const X = () => <Island name=\"GameWheel\" component={GamePage} props={{ wheel: null }} />;",
    },
  ])('breaking $rule is found in $file', ({ file, source, rule }) => {
    expect(rulesOf(withChanges({ [file]: source }))).toEqual([`${file}: ${rule}`]);
  });

  // The file names the rule it breaks; `app.tsx` and `islands.ts` are edited, not added.
  const appWith = (from: string, to: string) => {
    const app = sourceTree().get('src/server/app.tsx') ?? '';
    expect(app).toContain(from);
    return withChanges({ 'src/server/app.tsx': app.replace(from, to) });
  };

  it('an island module that is not a *.island.tsx breaks "a registered island is a *.island.tsx file"', () => {
    const islands = sourceTree().get('src/client/islands.ts') ?? '';
    const anchor = "  GameWheel: () => import('./features/game/game-wheel.island'),\n";
    expect(islands).toContain(anchor);
    const broken = islands.replace(anchor, `${anchor}  GameRules: () => import('./features/game/game-page'),\n`);
    expect(rulesOf(withChanges({ 'src/client/islands.ts': broken }))).toEqual(['src/client/islands.ts: a registered island is a *.island.tsx file']);
  });

  it('a router mounted at the prefix of another feature breaks "a router lives in the feature its prefix names"', () => {
    expect(rulesOf(appWith(".route('/game', gameRoutes)", ".route('/contest', gameRoutes)"))).toEqual([
      'src/server/features/game/game.routes.ts: a router lives in the feature its prefix names',
    ]);
  });

  it('a prefix missing from the prefix table breaks "a router lives in the feature its prefix names"', () => {
    const found = checkLayout(appWith(".route('/game', gameRoutes)", ".route('/wheel', gameRoutes)"));
    expect(found).toEqual([
      { file: 'src/server/features/game/game.routes.ts', rule: 'a router lives in the feature its prefix names', detail: "gameRoutes at /api/wheel: 'wheel' is not in the prefix table" },
    ]);
  });

  it('an exception holds for its own prefix only', () => {
    expect(rulesOf(appWith(".route('/user/history', historyRoutes)", ".route('/user/visits', historyRoutes)"))).toEqual([
      'src/server/features/favorites/history.routes.ts: a router lives in the feature its prefix names',
    ]);
  });

  it('sees every router app.tsx mounts', () => {
    const app = sourceTree().get('src/server/app.tsx') ?? '';
    const mounts = app.match(/\.route\(\s*'[^']*'\s*,\s*\w+Routes\s*\)/g) ?? [];
    expect(mountedRouters(sourceTree()).filter((r) => r.module)).toHaveLength(mounts.length);
  });

  it('a router mounted at / breaks "every router is mounted at its prefix"', () => {
    const app = sourceTree().get('src/server/app.tsx') ?? '';
    const broken = app.replace(".route('/billing', billingRoutes)", ".route('/', billingRoutes)");
    expect(broken).not.toBe(app);
    expect(rulesOf(withChanges({ 'src/server/app.tsx': broken }))).toEqual(['src/server/app.tsx: every router is mounted at its prefix']);
  });

  it('lib, middleware and render may take a type from any file of a feature', () => {
    expect(rulesOf(withChanges({ 'src/server/lib/x.ts': "import type { SessionRow } from '../features/session/session.repo';" }))).toEqual([]);
  });

  it('a type from another server feature is allowed where the pair is', () => {
    expect(rulesOf(withChanges({ 'src/server/features/session/x.ts': "import type { UserRow } from '../account/account.repo';" }))).toEqual([]);
  });
});
