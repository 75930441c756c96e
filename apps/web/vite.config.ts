import { reactRouter } from '@react-router/dev/vite';
import { defaultClientConditions, defaultServerConditions, defineConfig } from 'vite';

export default defineConfig({
  plugins: [reactRouter()],
  // Workspace packages (@showroom/contracts) are bundled from their TypeScript sources.
  resolve: { conditions: ['source', ...defaultClientConditions] },
  ssr: { resolve: { conditions: ['source', ...defaultServerConditions] } },
  build: {
    // The monitoring SDK is a lazily loaded chunk; keep the initial bundle lean.
    chunkSizeWarningLimit: 600,
  },
});
