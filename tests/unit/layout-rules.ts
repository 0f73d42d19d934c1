import { posix } from 'node:path';
import { checkIslands, checkRouters } from './layout-mounts';

// The layout rules of the source tree (docs/architecture.md "Rules"), checked on a map of path -> source so a
// test can feed it a broken tree. Paths are relative to the repository root, with '/'.

export type Tree = Map<string, string>;

export interface Violation {
  file: string;
  rule: string;
  detail: string;
}

/**
 * Imports between features that are allowed (from-feature -> to-feature, per side). On the server
 * a feature may use another only through its `*.service.ts` (types may come from any file).
 */
export const FEATURE_ALLOW: Record<string, string[]> = {
  // server: everything runs on the session (who is asking); money goes through billing
  // the profile's favourites tab lists the member's favourites
  // a login that ends ends its live-room sessions
  'server:account': ['server:session', 'server:billing', 'server:favorites', 'server:chat'],
  'server:avs': ['server:session'],
  'server:billing': ['server:session'],
  // live rooms: who is asking, the show list's status push, coins pushed to the member's tabs
  'server:chat': ['server:session', 'server:shows', 'server:billing', 'server:video', 'server:dev'],
  'server:game': ['server:session', 'server:billing'],
  // the studio: the performer's show as its live room sees it; going online is the show list's business
  // the 2257 records: an upload names the show's verified people; co-performers are invited
  // an upload's performer appeals its removal or refusal (restrictions: statements and appeals)
  'server:studio': ['server:chat', 'server:shows', 'server:video', 'server:applications', 'server:restrictions'],
  // the development simulator flips shows and tells their rooms
  'server:dev': ['server:chat', 'server:shows'],
  // the contest: who is asking (votes are the member's own)
  'server:contest': ['server:session'],
  // an operator's status change is told to the show's room
  // operators are appointed and every token call is recorded in the audit trail
  'server:ops': ['server:billing', 'server:shows', 'server:chat', 'server:operator'],
  // the operators' door: the login behind the request (its auth cookie); bans and suspensions of accounts; the queue of reports
  // live shows: their rooms' viewers, and a stop takes the show offline (the show list's status push) and ends its room's sessions
  // performer applications: the operators' queue, the documents and the decisions
  'server:operator': ['server:session', 'server:restrictions', 'server:reports', 'server:shows', 'server:chat', 'server:applications'],
  // performer applications: the applicant's verified login (the session's guard)
  'server:applications': ['server:session'],
  // the 2257 page names the custodian of records kept with the applications
  'server:info': ['server:applications'],
  // the daily cron's retention deletes (applicants' documents)
  'server:system': ['server:applications'],
  // reports: a chat line is read from its show's room; the reporter's address caps by client address
  'server:reports': ['server:chat', 'server:session'],
  // a ban or suspension ends the account's logins and takes a performer's show offline
  'server:restrictions': ['server:account', 'server:shows'],
  'server:realtime': ['server:session'],
  // TURN credentials: a room token dies with the login it was issued to
  'server:video': ['server:session', 'server:chat'],
  // the store's lists: search, and the free-videos page of the show lists
  'server:search': ['server:shows', 'server:store'],
  // show lists mark the member's favourites; a show going online notifies them
  'server:shows': ['server:store', 'server:favorites'],
  // a favourite going online is pushed to the member's opted-in browsers
  'server:favorites': ['server:session', 'server:push'],
  // the push opt-in is the logged-in member's
  'server:push': ['server:session'],
  // buying: who is asking, coins pushed to the member's tabs
  'server:store': ['server:session', 'server:billing'],
  // conversations: who is asking, tips push the member's coins
  // support threads are answered behind the operators' door, each answer recorded
  // a reply to a member is pushed to the member's opted-in browsers
  'server:messages': ['server:session', 'server:billing', 'server:operator', 'server:push'],
  // the member behind a session is an account row (type only)
  'server:session': ['server:account'],
  // client: the profile shows the member's coupons and chat history; search lists shows with the show lists;
  // the session's overlays open the nickname dialog
  // the settings tab holds the push opt-in of this device
  'client:account': ['client:billing', 'client:chat', 'client:favorites', 'client:push'],
  'client:search': ['client:shows'],
  'client:session': ['client:account'],
  // live rooms: the chat asks for a nickname; the show page hosts the chat; the studio uses its room socket;
  // the chat plays and the studio sends the live video
  'client:chat': ['client:account', 'client:video', 'client:reports'],
  // the show page hosts the chat and opens the message popup; tiles and the show page carry the favourite heart
  'client:shows': ['client:chat', 'client:messages', 'client:favorites', 'client:reports'],
  // the studio hosts the performer's inbox of conversations; a rejected upload is appealed with the appeal form
  'client:studio': ['client:chat', 'client:video', 'client:messages', 'client:restrictions'],
  // the store's pages list videos and galleries with the show lists' tiles and list island
  'client:store': ['client:shows', 'client:reports'],
  // reports: the report button and dialog on chat lines, messages, the show page, videos and galleries
  'client:messages': ['client:reports'],
  // an operator watching a live show unseen plays its video and lists its public lines as a viewer's page does
  'client:operator': ['client:chat', 'client:video'],
};

/** The islands the shell places (app bar slots, overlays host, layout). */
export const SHELL_ALLOW = [
  'src/client/features/account/account-area.island.tsx',
  'src/client/features/search/quicksearch.island.tsx',
  // the history and favourites menus of the top bar
  'src/client/features/favorites/top-menus.island.tsx',
  'src/client/features/session/age-splash.island.tsx',
  'src/client/features/session/session-overlays.tsx',
  'src/client/features/billing/billing-overlays.tsx',
  // the drawer's notice while a phone payment runs
  'src/client/features/billing/voicecall-notice.tsx',
  // the top bar's messages menu (unread badge)
  'src/client/features/messages/messages-menu.island.tsx',
];

/** Non-feature server folders that render pages and so may import the client's state providers. */
const SERVER_RENDER = 'src/server/render/';
/** Folders a feature-free module lives in. */
const FEATURE_FREE = ['src/client/lib/', 'src/client/ui/', 'src/client/state/', 'src/shared/'];
/** Server folders that serve every feature: they call a feature only through its `*.service.ts` (types from any file). */
const THROUGH_SERVICE = ['src/server/lib/', 'src/server/middleware/', 'src/server/render/'];
/** What any feature may build on (room base class, lobby, hub, shards): it knows no feature, not even its types. */
const SERVER_REALTIME = 'src/server/realtime/';
const EXTENSIONS = ['', '.ts', '.tsx', '.css'];
const MAX_LINES = 250;
/** Data, not code: the demo data's word lists and tables may be longer. */
const LONG_DATA = /^src\/server\/seed\/(words|tables)[\w.-]*\.ts$/;

interface Import {
  spec: string;
  target: string | null;
  typeOnly: boolean;
}

function imports(file: string, source: string, tree: Tree): Import[] {
  const out: Import[] = [];
  const re = /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|@import\s+['"]([^'"]+)['"]/g;
  for (const m of source.matchAll(re)) {
    const spec = m[3] ?? m[4] ?? m[5];
    if (!spec.startsWith('.')) continue;
    const base = posix.normalize(posix.join(posix.dirname(file), spec));
    const target = EXTENSIONS.map((e) => base + e).find((p) => tree.has(p)) ?? null;
    out.push({ spec, target, typeOnly: !!m[2] });
  }
  return out;
}

/** 'server:billing' for a file of a feature folder, else null. */
export function featureOf(path: string): string | null {
  const m = path.match(/^src\/(server|client)\/features\/([^/]+)\//);
  return m ? `${m[1]}:${m[2]}` : null;
}

/** The application's worker (wrangler.toml) and the live rooms' shards (wrangler.shard.toml). */
const WORKER_ENTRIES = new Set(['src/server/index.ts', 'src/server/shard-worker.ts']);

export function checkLayout(tree: Tree): Violation[] {
  const found: Violation[] = [];
  const add = (file: string, rule: string, detail: string) => found.push({ file, rule, detail });

  for (const [file, source] of tree) {
    const name = posix.basename(file);
    if (!/^[a-z0-9]+(?:[-.][a-z0-9]+)*\.(ts|tsx|css)$/.test(name)) add(file, 'kebab-case file names', name);
    // The Workers' entries export the Durable Object classes, as workerd requires.
    if (!WORKER_ENTRIES.has(file) && /^export\s+(\*|\{[^}]*\})\s+from\s/m.test(source)) add(file, 'no barrel files (re-exports)', 'export ... from');
    const lines = source.split('\n').length - (source.endsWith('\n') ? 1 : 0);
    if (lines > MAX_LINES && !LONG_DATA.test(file)) add(file, `no file over ${MAX_LINES} lines`, `${lines} lines`);
    if (/\.prepare\(/.test(source) && !file.endsWith('.repo.ts') && !file.startsWith('src/server/seed/')) add(file, 'no prepare( outside *.repo.ts', 'prepare(');

    const from = featureOf(file);
    for (const imp of imports(file, source, tree)) {
      const to = imp.target;
      if (!to) continue;
      const toFeature = featureOf(to);
      if (file.startsWith('src/client/') && to.startsWith('src/server/')) add(file, 'client never imports server', to);
      if (file.startsWith('src/shared/') && !to.startsWith('src/shared/')) add(file, 'shared imports only shared', to);
      if (file.startsWith('src/server/') && to.startsWith('src/client/')) {
        const rendered = /^src\/client\/(features|shell|ui)\//.test(to) || (file.startsWith(SERVER_RENDER) && to.startsWith('src/client/state/'));
        if (!rendered) add(file, 'server imports from the client only pages, shell and ui', to);
      }
      // The root store (state/) assembles the features' slices: it may import a feature's *.slice.ts, nothing else.
      const slice = file.startsWith('src/client/state/') && to.endsWith('.slice.ts');
      if (toFeature && !slice && FEATURE_FREE.some((dir) => file.startsWith(dir))) add(file, 'lib, ui, state and shared never import a feature', to);
      if (to.startsWith('src/server/features/') && THROUGH_SERVICE.some((dir) => file.startsWith(dir)) && !imp.typeOnly && !to.endsWith('.service.ts')) {
        add(file, 'lib, middleware and render reach a feature only through its *.service.ts', to);
      }
      if (toFeature && file.startsWith(SERVER_REALTIME)) add(file, 'realtime imports no feature', to);
      if (toFeature && file.startsWith('src/client/shell/') && !SHELL_ALLOW.includes(to)) add(file, 'shell imports only the islands it places', to);
      if (from && toFeature && from !== toFeature) {
        const side = (f: string) => f.split(':')[0];
        const serverToClient = side(from) === 'server' && side(toFeature) === 'client' && from.split(':')[1] === toFeature.split(':')[1];
        if (serverToClient) continue;
        if (!(FEATURE_ALLOW[from] ?? []).includes(toFeature)) add(file, 'features import each other only through the allow-list', to);
        else if (side(from) === 'server' && !imp.typeOnly && !to.endsWith('.service.ts')) add(file, 'another server feature only through its *.service.ts', to);
      }
    }
  }

  const app = tree.get('src/server/app.tsx') ?? '';
  for (const m of app.matchAll(/\.route\(\s*'([^']*)'\s*,\s*(\w+)\s*\)/g)) {
    if (m[2].endsWith('Routes') && m[1] === '/') add('src/server/app.tsx', 'every router is mounted at its prefix', `${m[2]} at '/'`);
  }
  checkIslands(tree, add);
  checkRouters(tree, add);
  return found;
}
