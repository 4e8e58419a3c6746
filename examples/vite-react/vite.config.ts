import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Where `npm run api` (server.js) listens. The dev server forwards the token endpoint there, so the
// page and /api/paydesk share one origin, as they do in production.
const api = process.env.PAYDESK_API_ORIGIN ?? 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [react()],
  server: {
    // No `changeOrigin`: the handler compares the browser's Origin with the Host it is asked for.
    proxy: { '/api/paydesk': api },
  },
});
