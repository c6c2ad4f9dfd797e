// Builds the server into one ES module, dist/server/main.js, with esbuild: no type-check here (that
// is `npm run typecheck`'s one pass), and one file starts faster than some three hundred. Packages
// stay in node_modules (native ones such as better-sqlite3 cannot be bundled).
// `--if-stale` rebuilds only when a file under server/ is newer than the bundle (test runs).
import { build } from 'esbuild';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const out = 'dist/server/main.js';

function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

function stale() {
  try {
    return newest('server') > statSync(out).mtimeMs;
  } catch {
    return true;
  }
}

if (!process.argv.includes('--if-stale') || stale()) {
  const started = performance.now();
  await build({
    entryPoints: ['server/main.ts'],
    outfile: out,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  });
  console.log(`built ${out} in ${Math.round(performance.now() - started)} ms`);
}
