import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  test: {
    testTimeout: 30_000,
    // The stand-in upstreams listen on loopback, which channels reach only with this (as operators of
    // self-hosted upstreams set it); tests of the refusal unset it where they need to.
    env: { ALLOW_PRIVATE_UPSTREAMS: 'true' },
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
        test: {
          name: 'browser',
          include: ['tests/browser/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
