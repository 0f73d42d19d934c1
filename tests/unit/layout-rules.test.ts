import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkLayout, type Tree, type Violation } from './layout-rules';

/**
 * TEMPORARY (issue 25): rules broken by files another branch is moving right now (the show room
 * out of src/server/realtime/ into features/chat/room/, video into features/video/, studio routes
 * into features/studio/). They are not touched here so the move merges cleanly; delete this list
 * (and its two uses below) once the move has landed. Entries are `file: rule`.
 */
const MOVING = [
  'src/server/realtime/hub.ts: realtime imports no feature',
  'src/server/realtime/lobby.ts: realtime imports no feature',
  'src/server/realtime/rooms.ts: realtime imports no feature',
  'src/server/realtime/shards.ts: realtime imports no feature',
  'src/server/realtime/show-room-core.ts: realtime imports no feature',
  'src/server/realtime/show-room.ts: realtime imports no feature',
  'src/server/realtime/show-room.ts: no file over 250 lines',
  'src/server/realtime/show-room-core.ts: no file over 250 lines',
  'src/server/features/studio/upload-containers.ts: no file over 250 lines',
  'src/client/features/chat/chat.css: no file over 250 lines',
  'src/client/features/chat/chat-state.ts: no file over 250 lines',
  'src/client/features/chat/chat-root.tsx: no file over 250 lines',
  'src/client/features/studio/studio-parts.tsx: no file over 250 lines',
  'src/client/features/video/publisher.ts: no file over 250 lines',
];
const moving = (v: Violation) => MOVING.includes(`${v.file}: ${v.rule}`);

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

const rulesOf = (tree: Tree) => checkLayout(tree).filter((v) => !moving(v)).map((v) => `${v.file}: ${v.rule}`);

describe('layout rules', () => {
  it('hold for the source tree', () => {
    expect(checkLayout(sourceTree()).filter((v) => !moving(v))).toEqual([]);
  });

  // Each rule, broken once on purpose: the check names the file and the rule.
  it.each([
    { rule: 'client never imports server', file: 'src/client/features/shows/x.tsx', source: "import { x } from '../../../server/lib/errors';" },
    { rule: 'server imports from the client only pages, shell and ui', file: 'src/server/features/shows/x.ts', source: "import { api } from '../../../client/lib/api';" },
    { rule: 'lib, ui, state and shared never import a feature', file: 'src/client/lib/x.ts', source: "import { x } from '../features/billing/billing-data';" },
    { rule: 'lib, ui, state and shared never import a feature', file: 'src/client/ui/x.tsx', source: "import { x } from '../features/billing/billing-data';" },
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
  ])('breaking $rule is found in $file', ({ file, source, rule }) => {
    expect(rulesOf(withChanges({ [file]: source }))).toEqual([`${file}: ${rule}`]);
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
