import { cloudflare } from '@cloudflare/vite-plugin';
import { defineConfig } from 'vite';

// `npm run dev`: the worker runs in workerd inside Vite (D1, Durable Objects, HMR for the client).
export default defineConfig({
  publicDir: 'public',
  plugins: [cloudflare()],
  server: { host: '127.0.0.1', port: Number(process.env.PORT ?? 5173) },
});
