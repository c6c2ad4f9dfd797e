// `npm test`: the static checks in two lanes at once (type-aware lint is the longest step; the type
// checks, format check and build run beside it), then every test with vitest (the browser project in
// a vitest of its own beside the rest). Each step's output is shown when it fails; the times of all
// steps are printed at the end.
import { spawn } from 'node:child_process';

const run = (name, command, args) =>
  new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => {
      const seconds = (performance.now() - started) / 1000;
      if (code !== 0) process.stderr.write(`\n── ${name} failed (exit ${code}) ──\n${output}\n`);
      resolve({ name, ok: code === 0, seconds });
    });
  });

const npm = (script) => ['npm', ['run', '--silent', script]];
const lane = async (steps) => {
  const results = [];
  for (const [name, [command, args]] of steps) {
    const result = await run(name, command, args);
    results.push(result);
    if (!result.ok) break;
  }
  return results;
};

const started = performance.now();
const lanes = await Promise.all([
  lane([['lint', npm('lint')]]),
  lane([
    ['typecheck', npm('typecheck')],
    ['format:check', npm('format:check')],
    ['build', npm('build')],
  ]),
]);
const steps = lanes.flat();
const staticSeconds = (performance.now() - started) / 1000;
const report = (extra = []) => {
  const rows = [...steps, ...extra].map(
    (s) => `  ${s.name.padEnd(15)} ${s.seconds.toFixed(1).padStart(7)} s${s.ok ? '' : '  FAILED'}`,
  );
  console.log(`\nnpm test steps (static checks ${staticSeconds.toFixed(1)} s wall):\n${rows.join('\n')}`);
};
if (steps.some((s) => !s.ok) || steps.length < 4) {
  report();
  process.exit(1);
}

// Vitest runs a project whose files go one at a time (the browser's) after every other file, one
// file on two cores for minutes. Here it is a second vitest beside the first from the start; its
// output is shown when it ends.
const vitest = (name, projects, show) =>
  new Promise((resolve) => {
    const begun = performance.now();
    const args = ['vitest', 'run', '--passWithNoTests', ...projects.flatMap((p) => ['--project', p]), ...process.argv.slice(2)];
    const child = spawn('npx', args, { stdio: show ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => {
      if (!show) process.stdout.write(`\n── ${name} ──\n${output}`);
      resolve({ name, ok: code === 0, seconds: (performance.now() - begun) / 1000 });
    });
  });
const runs = await Promise.all([vitest('vitest', ['!browser'], true), vitest('vitest browser', ['browser'], false)]);
report(runs);
console.log(`  total           ${((performance.now() - started) / 1000).toFixed(1).padStart(7)} s`);
process.exit(runs.every((r) => r.ok) ? 0 : 1);
