import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/helpers/node-adapter.ts'],
    testTimeout: 60_000,
    pool: 'forks',
  },
});
