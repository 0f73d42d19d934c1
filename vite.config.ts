import { defineConfig } from 'vite';

// Client bundle only (the worker is bundled by wrangler). The entry keeps a fixed name so the
// server can reference it without a manifest; the document appends ?v=<build> to bust caches.
export default defineConfig({
  publicDir: 'public',
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    target: 'es2022',
    cssCodeSplit: false,
    modulePreload: { polyfill: false },
    rollupOptions: {
      input: 'src/client/main.ts',
      output: {
        entryFileNames: 'assets/main.js',
        // Island chunks keep their component's name (show-list-<hash>.js): the entry lists them all.
        chunkFileNames: (info) => `assets/${info.name.replace(/\.island$/, '')}-[hash].js`,
        assetFileNames: (info) => (info.names.some((n) => n.endsWith('.css')) ? 'assets/main.css' : 'assets/[name]-[hash][extname]'),
      },
    },
  },
});
