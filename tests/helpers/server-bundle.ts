/**
 * Vitest global set-up: builds dist/server/main.js when a server file is newer (about 0.2 s), so
 * tests that run the gateway as a process start the built bundle rather than compiling the sources
 * with tsx at every start.
 */
import { spawnSync } from 'node:child_process';

export default function setup(): void {
  const built = spawnSync(process.execPath, ['scripts/build-server.mjs', '--if-stale'], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error('building dist/server/main.js failed');
}
