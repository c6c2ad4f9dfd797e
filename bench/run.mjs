// `npm run bench`: every benchmark under bench/, in turn.
import { spawnSync } from 'node:child_process';

for (const script of ['bench/startup.mjs', 'bench/relay.mjs']) {
  console.log(`\n== ${script}`);
  const r = spawnSync(process.execPath, [script], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
