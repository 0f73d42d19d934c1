import { posix } from 'node:path';
import type { Tree } from './layout-rules';

// The layout rules about what is mounted where: islands (the registry the browser hydrates from,
// and the <Island> that places them) and routers (the prefix app.tsx mounts each at).

type Add = (file: string, rule: string, detail: string) => void;

/** The module a relative import names, if the tree holds it. */
function resolve(from: string, spec: string, tree: Tree): string | null {
  const base = posix.normalize(posix.join(posix.dirname(from), spec));
  return ['', '.ts', '.tsx'].map((e) => base + e).find((p) => tree.has(p)) ?? null;
}

/** Local name -> module, for the relative imports of a file (default and named, `a as b`). */
function importedNames(file: string, source: string, tree: Tree): Map<string, string | null> {
  const out = new Map<string, string | null>();
  for (const m of source.matchAll(/import\s+(?:type\s+)?(\w+)?\s*,?\s*(?:\{([^}]*)\})?\s*from\s*'(\.[^']*)'/g)) {
    const target = resolve(file, m[3], tree);
    if (m[1]) out.set(m[1], target);
    for (const part of (m[2] ?? '').split(',')) {
      const local = part.trim().replace(/^type\s+/, '').split(/\s+as\s+/).pop();
      if (local) out.set(local, target);
    }
  }
  return out;
}

export const ISLANDS = 'src/client/islands.ts';

/** Island name -> its module (null: the import names no file), as src/client/islands.ts registers them. */
export function registeredIslands(tree: Tree): Map<string, { spec: string; module: string | null }> {
  const source = tree.get(ISLANDS) ?? '';
  const names = importedNames(ISLANDS, source, tree);
  const specs = new Map([...source.matchAll(/import\s+(\w+)\s+from\s*'([^']+)'/g)].map((m) => [m[1], m[2]]));
  const out = new Map<string, { spec: string; module: string | null }>();
  // `Name: inEntry(Component)` (part of the entry) or `Name: () => import('./module')` (a chunk).
  for (const m of source.matchAll(/^\s*(\w+):\s*(?:inEntry\((\w+)\)|\(\)\s*=>\s*import\(\s*'([^']+)'\s*\))/gm)) {
    const spec = m[3] ?? specs.get(m[2]) ?? m[2];
    out.set(m[1], { spec, module: m[3] ? resolve(ISLANDS, m[3], tree) : (names.get(m[2]) ?? null) });
  }
  return out;
}

/**
 * Islands: every registered island's module is a `*.island.tsx` file, every `*.island.tsx` is
 * registered, and an `<Island name component>` renders on the server the module the browser
 * hydrates under that name.
 */
export function checkIslands(tree: Tree, add: Add): void {
  const registry = registeredIslands(tree);
  const modules = new Set<string>();
  for (const [name, { spec, module }] of registry) {
    if (module) modules.add(module);
    if (!module?.endsWith('.island.tsx')) add(ISLANDS, 'a registered island is a *.island.tsx file', `${name}: ${module ?? `${spec} (no such file)`}`);
  }
  for (const file of tree.keys()) {
    if (file.endsWith('.island.tsx') && !modules.has(file)) add(file, 'every *.island.tsx is a registered island', `not in ${ISLANDS}`);
  }
  for (const [file, source] of tree) {
    if (!file.endsWith('.tsx') || !source.includes('<Island')) continue;
    const names = importedNames(file, source, tree);
    for (const m of source.matchAll(/<Island\b/g)) {
      const tag = source.slice(m.index, source.indexOf('/>', m.index));
      const name = /\bname="(\w+)"/.exec(tag)?.[1];
      const component = /\bcomponent=\{(\w+)\}/.exec(tag)?.[1];
      if (!name || !component) continue;
      const rendered = names.get(component) ?? null;
      const registered = registry.get(name)?.module ?? null;
      if (rendered !== registered) add(file, 'an <Island> renders the module registered under its name', `${name}: ${rendered ?? component} (registered: ${registered ?? 'none'})`);
    }
  }
}

/**
 * The feature a router's prefix names: its first segment (under /api for the API), through this
 * table. A new prefix goes into the table (or ROUTER_EXCEPTIONS), so where its router lives is
 * decided once.
 */
export const PREFIX_FEATURE: Record<string, string> = {
  // sign-up, login and the member's own account (/api/user)
  auth: 'account',
  register: 'account',
  user: 'account',
  session: 'session',
  shows: 'shows',
  tags: 'shows',
  categories: 'shows',
  search: 'search',
  favorites: 'favorites',
  billing: 'billing',
  coupons: 'billing',
  ruf: 'billing',
  game: 'game',
  contest: 'contest',
  chatsession: 'chat',
  chatroom: 'chat',
  chat: 'chat',
  studio: 'studio',
  video: 'video',
  // OBS over WHIP (RFC 9725): the video feature's ingest, outside /api
  whip: 'video',
  videos: 'store',
  galleries: 'store',
  archive: 'store',
  media: 'store',
  conversations: 'messages',
  // reports of content (issue 29 point 3)
  reports: 'reports',
  // performer applications (issue 29 point 1)
  applications: 'applications',
  // the operators' inbox of support conversations
  support: 'messages',
  realtime: 'realtime',
  ops: 'ops',
  // the operators' own pages and APIs: their second factor, the audit trail
  operator: 'operator',
  // a banned or suspended account's statement of reasons and appeal, by its mailed link
  restrictions: 'restrictions',
  // Web Push opt-in of the member's browsers (issue 30 point 5)
  push: 'push',
  log: 'system',
  'pixel.gif': 'system',
  i18n: 'system',
  img: 'images',
};

/** Routers whose prefix (the whole of it) belongs to another feature than its first segment says, and why. */
export const ROUTER_EXCEPTIONS: Record<string, { feature: string; reason: string }> = {
  '/api/user/chathistory': { feature: 'chat', reason: "the member's past chat sessions are the chat's rows; the spec puts the list under /user" },
  '/api/user/favorites': { feature: 'favorites', reason: "the member's favourites; the spec puts the list under /user" },
  '/api/user/history': { feature: 'favorites', reason: "the shows the member visited, kept beside the favourites (the top bar's two menus); the spec's URL is under /user" },
  '/api/studio/conversations': { feature: 'messages', reason: "the performer's inbox is a view of the members' conversations" },
  '/api/videos/image': { feature: 'images', reason: "a video's preview picture is drawn by the images feature, at the URL the spec gives it" },
};

export const APP = 'src/server/app.tsx';

/** Each router app.tsx mounts (`xRoutes`) with its whole prefix and the module it is imported from. */
export function mountedRouters(tree: Tree): { prefix: string; router: string; module: string | null }[] {
  const app = tree.get(APP) ?? '';
  const names = importedNames(APP, app, tree);
  const out: { prefix: string; router: string; module: string | null }[] = [];
  const start = app.indexOf('const api = new Hono');
  const end = start < 0 ? -1 : app.indexOf(';', start);
  const chain = start < 0 ? '' : app.slice(start, end);
  for (const m of chain.matchAll(/\.route\(\s*'([^']*)'\s*,\s*(\w+)\s*\)/g)) out.push({ prefix: `/api${m[1]}`, router: m[2], module: names.get(m[2]) ?? null });
  for (const m of app.matchAll(/\bapp\.route\(\s*'([^']*)'\s*,\s*(\w+)\s*\)/g)) out.push({ prefix: m[1], router: m[2], module: names.get(m[2]) ?? null });
  return out.filter((r) => r.router.endsWith('Routes'));
}

/** Routers: each router's file is in the feature its prefix names (PREFIX_FEATURE, ROUTER_EXCEPTIONS). */
export function checkRouters(tree: Tree, add: Add): void {
  const rule = 'a router lives in the feature its prefix names';
  for (const { prefix, router, module } of mountedRouters(tree)) {
    const segment = prefix.replace(/^\/api(?=\/|$)/, '').split('/')[1] ?? '';
    // A router at '/' (or '/api') is "every router is mounted at its prefix".
    if (!segment) continue;
    const feature = ROUTER_EXCEPTIONS[prefix]?.feature ?? PREFIX_FEATURE[segment];
    const file = module ?? APP;
    if (!feature) add(file, rule, `${router} at ${prefix}: '${segment}' is not in the prefix table`);
    else if (!module?.startsWith(`src/server/features/${feature}/`)) add(file, rule, `${router} at ${prefix} belongs in src/server/features/${feature}/`);
  }
}
