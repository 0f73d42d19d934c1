import { cloudflare } from '@cloudflare/vite-plugin';
import { defineConfig } from 'vite';

// `npm run dev`: the worker runs in workerd inside Vite (D1, Durable Objects, HMR for the client).
// Vite serves its own module URLs (/src, /@vite, …), so the worker must not see every request here.
export default defineConfig({
  publicDir: 'public',
  plugins: [cloudflare({ config: (c) => ({ assets: { ...c.assets, run_worker_first: false } }) })],
  server: { host: '127.0.0.1', port: Number(process.env.PORT ?? 5173) },
});
