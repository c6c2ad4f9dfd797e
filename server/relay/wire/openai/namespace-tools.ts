/**
 * Codex's `namespace` tools on channels without the Responses API. Codex groups tools (its sub-agent
 * tools, each MCP server's) as `{ type: 'namespace', name, description, tools: [{ type: 'function',
 * name, … }] }` and the model calls one as `{ type: 'function_call', namespace, name, … }`
 * (openai/codex, codex-rs/tools/src/responses_api.rs). Chat has no namespaces: each function goes as
 * `<namespace>__<name>` (Codex's own spelling for MCP tools; a longer name than chat's 64 characters
 * is cut and given a hash), and a call of such a name comes back as its namespace and name. The map
 * is rebuilt from the request's tools each time, so nothing is stored.
 */
import { createHash } from 'node:crypto';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : null);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Chat's (and Gemini's) limit on a function name. */
const MAX_NAME = 64;

export function flatToolName(namespace: string, name: string): string {
  const flat = `${namespace}__${name}`.replace(/[^A-Za-z0-9_-]/g, '_');
  if (flat.length <= MAX_NAME) return flat;
  const hash = createHash('sha256').update(`${namespace}\0${name}`).digest('hex').slice(0, 8);
  return `${flat.slice(0, MAX_NAME - 9)}_${hash}`;
}

/** The request's tools with each namespace's functions as plain function tools of flat names. */
export function flattenNamespaces(tools: unknown): unknown[] {
  const list = Array.isArray(tools) ? tools : [];
  return list.flatMap((raw) => {
    const tool = obj(raw);
    if (tool?.type !== 'namespace') return [raw];
    const namespace = str(tool.name);
    const about = str(tool.description);
    return (Array.isArray(tool.tools) ? tool.tools : []).flatMap((child) => {
      const fn = obj(child);
      if (fn?.type !== 'function' || str(fn.name) === '') return [];
      const description = [about, str(fn.description)].filter((d) => d !== '').join('\n\n');
      return [{ ...fn, name: flatToolName(namespace, str(fn.name)), ...(description ? { description } : {}) }];
    });
  });
}

export interface Namespaced {
  namespace: string;
  name: string;
}

/** Flat name → namespace and name, for the request's namespace tools (a plain function of that name wins). */
export function namespacedNames(tools: unknown): Map<string, Namespaced> {
  const map = new Map<string, Namespaced>();
  const list = Array.isArray(tools) ? tools.map(obj) : [];
  const plain = new Set(list.filter((t) => t?.type === 'function').map((t) => str(t?.name)));
  for (const tool of list) {
    if (tool?.type !== 'namespace') continue;
    for (const child of Array.isArray(tool.tools) ? tool.tools : []) {
      const name = str(obj(child)?.name);
      const flat = flatToolName(str(tool.name), name);
      if (name !== '' && !plain.has(flat)) map.set(flat, { namespace: str(tool.name), name });
    }
  }
  return map;
}

/** A chat call's name as the Responses call's `name` (and `namespace` when it was flattened). */
export function callName(flat: string, names: Map<string, Namespaced>): { name: string; namespace?: string } {
  const found = names.get(flat);
  return found ? { namespace: found.namespace, name: found.name } : { name: flat };
}

/** A Responses function_call item's name as chat knows it. */
export const chatCallName = (item: Json): string =>
  typeof item.namespace === 'string' && item.namespace !== '' ? flatToolName(item.namespace, str(item.name)) : str(item.name);
