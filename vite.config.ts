import { defineConfig, type Plugin } from 'vite';

/**
 * Every built file carries a content hash, so the worker serves /assets/* as immutable. The worker
 * learns the entry's and the stylesheet's names from asset-manifest.json (outside /assets, read
 * through the assets binding, never served to browsers).
 */
function assetManifest(): Plugin {
  return {
    name: 'livecam-asset-manifest',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const files = Object.values(bundle);
      const js = files.find((f) => f.type === 'chunk' && f.isEntry)?.fileName;
      const css = files.find((f) => f.type === 'asset' && f.fileName.endsWith('.css'))?.fileName;
      if (!js || !css) throw new Error('asset manifest: entry or stylesheet missing');
      this.emitFile({ type: 'asset', fileName: 'asset-manifest.json', source: JSON.stringify({ js: `/${js}`, css: `/${css}` }) });
    },
  };
}

/**
 * The show list island and what only lists use, as one chunk: every list page needs all of it at
 * once, and one file compresses better than five small ones (the pieces are shared with other
 * list islands, so the bundler would split them). The media lists load it too (list-frame).
 */
const SHOW_LIST_MODULES = /\/src\/(client\/features\/shows\/(show-list\.island|list-view|list-pagination|promo-strip|show-tile|list-frame)|client\/features\/favorites\/favorite-button|shared\/(show-lists|shows|pagination))\.tsx?$/;

// Client bundle only (the worker is bundled by wrangler).
export default defineConfig({
  publicDir: 'public',
  plugins: [assetManifest()],
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    target: 'es2022',
    cssCodeSplit: false,
    // No preload lists in the entry: the island registry without them is 1.3 KB (brotli) smaller.
    // The islands on list pages need no second chunk (the list group below), so the price is one
    // round trip for the few islands whose chunk imports a shared one (e.g. csrf-field).
    modulePreload: false,
    rollupOptions: {
      input: 'src/client/main.ts',
      output: {
        codeSplitting: { includeDependenciesRecursively: false, groups: [{ name: (id) => (SHOW_LIST_MODULES.test(id) ? 'show-list' : null) }] },
        entryFileNames: 'assets/main-[hash].js',
        // Island chunks keep their component's name (show-list-<hash>.js): the entry lists them all.
        chunkFileNames: (info) => `assets/${info.name.replace(/\.island$/, '')}-[hash].js`,
        assetFileNames: (info) => (info.names.some((n) => n.endsWith('.css')) ? 'assets/main-[hash].css' : 'assets/[name]-[hash][extname]'),
      },
    },
  },
});
