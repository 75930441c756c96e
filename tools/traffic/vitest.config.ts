import { defineConfig } from 'vitest/config';

export default defineConfig({
  // @showroom/contracts resolves to its TypeScript sources (the `source` export condition).
  ssr: { resolve: { conditions: ['source', 'node', 'development|production'] } },
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
  },
});
