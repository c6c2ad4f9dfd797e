import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cycles, graphOf, importsOf, type Graph } from '../helpers/import-graph';

// No module imports itself back, directly or through others (type-only imports included: a cycle of
// types is still two modules that cannot be understood apart), and the two programs depend one way:
// the console may read the server's types and its one shared module, the server nothing of the console.
const ROOT = resolve('.');
const SERVER = resolve('server');
const SRC = resolve('src');
/** What the console may run of the server: pure data both sides need, so it exists once. */
const SHARED = join(SERVER, 'shared.ts');

const graph = graphOf([SERVER, SRC]);
const inside = (dir: string) => (path: string) => path.startsWith(`${dir}/`);
const edges = (from: (path: string) => boolean) =>
  [...graph].flatMap(([file, out]) => (from(file) ? out.map((edge) => ({ file, ...edge })) : []));
const shown = (file: string, target: string) => `${relative(ROOT, file)} -> ${relative(ROOT, target)}`;

describe('import graph', () => {
  it('has no import cycles in server/', () => {
    const server: Graph = new Map([...graph].filter(([file]) => inside(SERVER)(file)));
    expect(server.size).toBeGreaterThan(100);
    expect(cycles(server, ROOT)).toEqual([]);
  });

  it('has no import cycles in src/', () => {
    const console: Graph = new Map([...graph].filter(([file]) => inside(SRC)(file)));
    expect(console.size).toBeGreaterThan(100);
    expect(cycles(console, ROOT)).toEqual([]);
  });

  it('server/ imports nothing from src/', () => {
    const wrong = edges(inside(SERVER)).filter((edge) => inside(SRC)(edge.target));
    expect(wrong.map((edge) => shown(edge.file, edge.target))).toEqual([]);
  });

  it('src/ runs nothing of server/ but its shared module', () => {
    const wrong = edges(inside(SRC)).filter((e) => inside(SERVER)(e.target) && !e.typeOnly && e.target !== SHARED);
    expect(wrong.map((edge) => shown(edge.file, edge.target))).toEqual([]);
  });

  // The console bundles what the shared module runs: no package or builtin of the server's may come with it.
  it('the shared module runs only pure modules of server/', () => {
    const seen = new Set<string>();
    const wrong: string[] = [];
    const walk = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const edge of graph.get(file) ?? []) {
        if (edge.typeOnly) continue;
        if (inside(SERVER)(edge.target)) walk(edge.target);
        else wrong.push(`${relative(ROOT, file)} -> ${relative(ROOT, edge.target) || edge.target}`);
      }
    };
    walk(SHARED);
    expect(graph.has(SHARED)).toBe(true);
    expect(wrong).toEqual([]);
  });
});

describe('the import reader', () => {
  const dir = mkdtempSync(join(tmpdir(), 'imports-'));
  const write = (name: string, text: string) => {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  };
  write('a.ts', "import type { B } from './b.js';\nexport type A = B;\n");
  write('b.tsx', "import { type A } from './a';\nexport type B = A;\nexport const c = () => import('./c');\n");
  write('c/index.ts', "export { x } from '../d';\nexport type Y = typeof import('../e.js');\n");
  write('e.ts', 'export const e = 1;\n');
  write('d.ts', "import './c';\nimport { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n");

  it('resolves .js, extensionless, .tsx and index imports, and tells type-only ones apart', () => {
    expect(importsOf(join(dir, 'a.ts'))).toEqual([{ target: join(dir, 'b.tsx'), typeOnly: true }]);
    expect(importsOf(join(dir, 'b.tsx'))).toEqual([
      { target: join(dir, 'a.ts'), typeOnly: true },
      { target: join(dir, 'c/index.ts'), typeOnly: false },
    ]);
    expect(importsOf(join(dir, 'c/index.ts'))).toEqual([
      { target: join(dir, 'd.ts'), typeOnly: false },
      { target: join(dir, 'e.ts'), typeOnly: true },
    ]);
    expect(importsOf(join(dir, 'd.ts'))).toEqual([
      { target: join(dir, 'c/index.ts'), typeOnly: false },
      { target: 'node:fs', typeOnly: false },
    ]);
  });

  it('finds cycles of types and of side-effect imports', () => {
    expect(cycles(graphOf([dir]), dir)).toEqual(
      expect.arrayContaining([
        ['a.ts', 'b.tsx'],
        ['c/index.ts', 'd.ts'],
      ]),
    );
  });
});
