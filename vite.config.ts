import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const server = process.env.GATEWAY_URL ?? 'http://127.0.0.1:3000';
const proxied = ['/api', '/v1', '/v1beta', '/pg', '/mj', '/suno'];

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist/console', emptyOutDir: true, chunkSizeWarningLimit: 1500 },
  server: {
    port: 5173,
    // `ws` lets the realtime websocket (/v1/realtime) through in development too.
    proxy: Object.fromEntries(proxied.map((path) => [path, { target: server, changeOrigin: false, ws: path === '/v1' }])),
  },
});
