// `npm run bench`: every benchmark under bench/, in turn.
import { spawnSync } from 'node:child_process';

for (const script of ['bench/startup.mjs', 'bench/relay.mjs', 'bench/bodies.mjs', 'bench/logs.mjs', 'bench/log-writes.mjs']) {
  console.log(`\n== ${script}`);
  // bench/logs.mjs imports the server's TypeScript directly.
  const r = spawnSync(process.execPath, ['--import', 'tsx', script], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
