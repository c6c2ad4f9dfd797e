import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/**
 * The import graph of a source tree, read by TypeScript's parser rather than a pattern: a pattern
 * misses multi-line import lists, `import type`, `typeof import('…')` and re-exports, and cannot
 * tell a type-only import (erased at build) from one that loads the module.
 */
export interface Edge {
  /** Absolute path of a relative import's file (as written when no source file matches, e.g. a
   * .css); a package's or builtin's name as written. */
  target: string;
  /** Erased at build: `import type`, every name marked `type`, or `typeof import('…')`. */
  typeOnly: boolean;
}

const SOURCE = /\.tsx?$/;

export function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return SOURCE.test(path) && !path.endsWith('.d.ts') ? [path] : [];
  });
}

/** The file a relative specifier names, as the bundler and NodeNext resolve it (`.js` means `.ts`). */
function resolveSpecifier(from: string, spec: string): string {
  const base = resolve(dirname(from), spec);
  const stem = base.replace(/\.js$/, '');
  const candidates = [base, `${stem}.ts`, `${stem}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')];
  return candidates.find((path) => SOURCE.test(path) && existsSync(path)) ?? base;
}

function namesAllTypes(elements: ts.NodeArray<ts.ImportSpecifier | ts.ExportSpecifier>): boolean {
  return elements.length > 0 && elements.every((element) => element.isTypeOnly);
}

function typeOnlyImport(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false; // `import './x'` runs the module
  if (clause.isTypeOnly) return true;
  const named = clause.namedBindings;
  return !clause.name && named !== undefined && ts.isNamedImports(named) && namesAllTypes(named.elements);
}

function typeOnlyExport(node: ts.ExportDeclaration): boolean {
  if (node.isTypeOnly) return true;
  const clause = node.exportClause;
  return clause !== undefined && ts.isNamedExports(clause) && namesAllTypes(clause.elements);
}

/** Every import of one file: static, re-exports, dynamic `import()` and import types. */
export function importsOf(file: string): Edge[] {
  const text = readFileSync(file, 'utf8');
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const tree = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind);
  const edges: Edge[] = [];
  const add = (spec: ts.Node | undefined, typeOnly: boolean) => {
    if (!spec || !ts.isStringLiteralLike(spec)) return;
    const relativeSpec = spec.text.startsWith('.');
    edges.push({ target: relativeSpec ? resolveSpecifier(file, spec.text) : spec.text, typeOnly });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) add(node.moduleSpecifier, typeOnlyImport(node));
    else if (ts.isExportDeclaration(node)) add(node.moduleSpecifier, typeOnlyExport(node));
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal, true);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node.arguments[0], false);
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return edges;
}

export type Graph = Map<string, Edge[]>;

export function graphOf(dirs: string[]): Graph {
  return new Map(dirs.flatMap(sources).map((file) => [file, importsOf(file)]));
}

/** The strongly connected components with more than one module (or a module importing itself). */
export function cycles(graph: Graph, root: string): string[][] {
  let index = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    order.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const { target: w } of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!order.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, order.get(w)!));
    }
    if (low.get(v) !== order.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    const selfImport = (graph.get(v) ?? []).some((edge) => edge.target === v);
    if (component.length > 1 || selfImport) out.push(component.map((p) => relative(root, p)).sort());
  };
  for (const v of graph.keys()) if (!order.has(v)) visit(v);
  return out;
}
