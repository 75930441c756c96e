import { reactRouter } from '@react-router/dev/vite';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [reactRouter()],
  build: {
    // The monitoring SDK is a lazily loaded chunk; keep the initial bundle lean.
    chunkSizeWarningLimit: 600,
  },
});
