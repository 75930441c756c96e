import { defineConfig } from 'vitest/config';

// Unit tests only; browser tests are Playwright specs in tests/e2e.
export default defineConfig({
  test: {
    include: [
      'app/**/*.test.ts',
      'app/**/*.test.tsx',
      'scripts/**/*.test.ts',
      'server/**/*.test.ts',
    ],
    environment: 'node',
  },
});
