import { defineConfig } from 'vitest/config';
import { shopperLists } from './build-plugins/shopper-lists';

// Unit tests only; browser tests are Playwright specs in tests/e2e.
export default defineConfig({
  // The committed shopper lists as the app imports them (virtual:shopper-lists and its lengths).
  plugins: [shopperLists(new URL('../../data/shoppers/', import.meta.url))],
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
