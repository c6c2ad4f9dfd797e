// `npm run dev`: the gateway (restarted on change by tsx watch) and Vite's dev server together.
// Vite proxies /api, /v1, /pg, /mj and /suno to the gateway (see vite.config.ts).
import { spawn } from 'node:child_process';

const children = [
  spawn('npx', ['tsx', 'watch', 'server/main.ts'], { stdio: 'inherit', env: { ...process.env, CONSOLE_DIR: '' } }),
  spawn('npx', ['vite'], { stdio: 'inherit' }),
];

const stop = () => {
  for (const child of children) child.kill('SIGTERM');
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', (code) => code && stop());
