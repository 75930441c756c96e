import { defineConfig } from 'vitest/config';

// Unit tests only; browser tests are Playwright specs in tests/e2e.
export default defineConfig({
  // @showroom/contracts resolves to its TypeScript sources (the `source` export condition).
  ssr: { resolve: { conditions: ['source', 'node', 'development|production'] } },
  test: {
    include: [
      'app/**/*.test.ts',
      'app/**/*.test.tsx',
      'server/**/*.test.ts',
      'build-plugins/**/*.test.ts',
    ],
    environment: 'node',
  },
});
