import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: { name: 'server', include: ['tests/server/**/*.test.ts'], environment: 'node' },
      },
      {
        extends: true,
        test: {
          name: 'console',
          include: ['tests/console/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['tests/console/setup.ts'],
        },
      },
      {
        extends: true,
        test: { name: 'browser', include: ['tests/browser/**/*.test.ts'], environment: 'node', testTimeout: 120_000, fileParallelism: false },
      },
    ],
  },
});
