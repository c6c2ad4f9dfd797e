// Keeps in node_modules only the packages the server bundle loads and what they depend on (per
// package-lock.json), for the runtime image: the console is served prebuilt, so its React, MUI and
// react-admin packages (production dependencies of its build, over half of node_modules) go.
// Fails when the bundle imports a package the lock does not hold. Usage: node server-deps.mjs [--dry-run]
import { builtinModules } from 'node:module';
import { readFileSync, rmSync } from 'node:fs';

const bundle = readFileSync('dist/server/main.js', 'utf8');
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')).packages;
// Not a method of that name (Buffer.from("…"), Array.from): only the keywords and require.
const specifiers = [...bundle.matchAll(/(?<![.\w$])(?:from|import|require)\s*\(?\s*"([^"./][^"]*)"/g)].map((m) => m[1]);
const roots = new Set(
  specifiers
    .filter((s) => !s.startsWith('node:') && !builtinModules.includes(s.split('/')[0]))
    .map((s) =>
      s
        .split('/')
        .slice(0, s.startsWith('@') ? 2 : 1)
        .join('/'),
    ),
);

/** Node's lookup: the nearest node_modules/<name> from `from` up to the root. */
function resolve(from, name) {
  for (let dir = from; ; dir = dir.slice(0, Math.max(0, dir.lastIndexOf('/node_modules/')))) {
    const path = `${dir ? `${dir}/` : ''}node_modules/${name}`;
    if (lock[path]) return path;
    if (!dir) return null;
  }
}

const keep = new Set();
const visit = (path) => {
  if (keep.has(path)) return;
  keep.add(path);
  const p = lock[path];
  for (const name of Object.keys({ ...p.dependencies, ...p.optionalDependencies, ...p.peerDependencies })) {
    const dep = resolve(path, name);
    if (dep) visit(dep);
    else if (p.dependencies?.[name]) throw new Error(`${path} needs ${name}, which the lock does not hold`);
  }
};
for (const name of roots) {
  const path = resolve('', name);
  if (!path) throw new Error(`the server imports ${name}, which package-lock.json does not hold`);
  visit(path);
}

const drop = Object.keys(lock).filter((path) => path.startsWith('node_modules/') && !keep.has(path));
if (!process.argv.includes('--dry-run')) {
  for (const path of [...drop, 'node_modules/.bin', 'node_modules/.package-lock.json'])
    rmSync(path, { recursive: true, force: true });
}
console.log(`server packages: ${roots.size} imported, ${keep.size} kept, ${drop.length} dropped`);
