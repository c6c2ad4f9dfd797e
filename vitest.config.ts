import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

/**
 * Files run in parallel (each server file has its own database copy and Redis prefix; browser files
 * share one Chromium and run one at a time). Server and console files share their worker's modules
 * between files: importing the server or react-admin again for each file cost seconds per file,
 * and each file's setup puts back what it changes process-wide.
 */
export default defineConfig({
  plugins: [react()],
  test: {
    testTimeout: 30_000,
    // The stand-in upstreams listen on loopback, which channels reach only with this (as operators of
    // self-hosted upstreams set it); tests of the refusal unset it where they need to.
    env: { ALLOW_PRIVATE_UPSTREAMS: 'true' },
    hookTimeout: 60_000,
    maxWorkers: Number(process.env.TEST_WORKERS) || 3,
    reporters: ['default', './tests/helpers/project-counts-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts'],
          exclude: ['tests/server/fixture-provider.test.ts'],
          environment: 'node',
          isolate: false,
          setupFiles: ['tests/server/setup.ts'],
          globalSetup: ['tests/helpers/database-templates.ts', 'tests/helpers/server-bundle.ts'],
        },
      },
      {
        // As console-mocks: a server file that mocks a module keeps a worker of its own.
        extends: true,
        test: {
          name: 'server-mocks',
          include: ['tests/server/fixture-provider.test.ts'],
          environment: 'node',
          setupFiles: ['tests/server/setup.ts'],
          globalSetup: ['tests/helpers/database-templates.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'console',
          include: ['tests/console/**/*.test.{ts,tsx}'],
          exclude: ['tests/console/fixture-resource.test.tsx'],
          environment: 'jsdom',
          // A form test types and clicks through a whole drawer: 15 s alone, past 30 s beside the
          // server files on two cores.
          testTimeout: 60_000,
          isolate: false,
          setupFiles: ['tests/console/setup.ts', 'tests/console/preload.ts'],
        },
      },
      {
        // vi.mock replaces a module for the whole worker, so a file that mocks keeps a worker of its own.
        extends: true,
        test: {
          name: 'console-mocks',
          include: ['tests/console/fixture-resource.test.tsx'],
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
          globalSetup: ['tests/helpers/database-templates.ts'],
        },
      },
    ],
  },
});
