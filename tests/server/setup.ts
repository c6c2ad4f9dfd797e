/**
 * Runs before each server test file. Server files share their worker's module graph (no isolation:
 * re-importing the server for every file cost seconds each), so what one file changes process-wide
 * is put back when it ends: environment variables, spies and stubs, fake timers.
 */
import { afterAll, beforeAll, vi } from 'vitest';
import { setPasswordHashCost } from '../../server/auth/password.js';

let env: NodeJS.ProcessEnv = {};

beforeAll(() => {
  env = { ...process.env };
  // Users a test makes straight in the repository get hashes as cheap as its gateways' (cost 4, see
  // tests/helpers/gateway.ts); the login timing test sets its own.
  setPasswordHashCost(4);
});

afterAll(() => {
  for (const key of Object.keys(process.env)) if (!(key in env)) delete process.env[key];
  Object.assign(process.env, env);
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});
