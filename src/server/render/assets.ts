import type { AppEnv } from '../env';

/**
 * The built client as the document references it: the entry's and the stylesheet's hashed names
 * (from dist/client/asset-manifest.json, written by vite.config.ts) and the stylesheet's text,
 * which the document inlines so the first paint waits on no second request.
 */
export interface BuiltAssets {
  js: string;
  css: string;
  /** The whole stylesheet (inlined); null when it could not be read (then it is linked). */
  cssText: string | null;
}

/** Without a build (tests that never built the client): the bare names, linked. */
const UNBUILT: BuiltAssets = { js: '/assets/main.js', css: '/assets/main.css', cssText: null };

let loaded: BuiltAssets | null = null;
let loading: Promise<void> | null = null;

async function read(assets: Fetcher, path: string): Promise<Response> {
  return assets.fetch(new Request(`http://assets.local${path}`));
}

async function load(assets: Fetcher): Promise<void> {
  try {
    const res = await read(assets, '/asset-manifest.json');
    if (!res.ok) return;
    const manifest = (await res.json()) as { js?: unknown; css?: unknown };
    if (typeof manifest.js !== 'string' || typeof manifest.css !== 'string') return;
    const cssRes = await read(assets, manifest.css);
    const text = cssRes.ok ? await cssRes.text() : null;
    // A "</" could end the inline <style> early: such a stylesheet is linked instead.
    loaded = { js: manifest.js, css: manifest.css, cssText: text !== null && !text.includes('</') ? text : null };
  } catch {
    // No assets binding or no build: the document links the bare names.
  }
}

/** Reads the manifest once per isolate (again after a failure), before the first page renders. */
export async function ensureBuiltAssets(env: AppEnv['Bindings']): Promise<void> {
  if (loaded || !env.ASSETS) return;
  loading ??= load(env.ASSETS).finally(() => (loading = null));
  await loading;
}

export function builtAssets(): BuiltAssets {
  return loaded ?? UNBUILT;
}
