/**
 * Input rules every console route gets without asking, installed once before the routes:
 *
 * - Numbers are finite and integers fit their column: an integer a schema leaves unbounded is held
 *   to a 32-bit column's range (bigint columns declare `Int53`); a `number` field's route checks
 *   its range itself.
 *   Ajv coerces a string such as `"1e999"` or `"Infinity"` to Infinity and then skips every numeric
 *   keyword, so a `finite` keyword refuses what coercion made of it.
 * - An empty query value (`?channel=&p=`) of a parameter that cannot be a string is the same as
 *   leaving it out, as clients of this family send it.
 * - Text holds no NUL character and at most 65,535 bytes, in the body, the query and the path,
 *   with or without a schema: PostgreSQL refuses NUL in text and MySQL's TEXT columns hold 64 KiB,
 *   while SQLite takes both, so without this rule one input had three different answers.
 *
 * Schemas are copied before they are changed: the same TypeBox objects also describe answers.
 */
import type {
  FastifyInstance,
  FastifyReply,
  FastifyServerOptions,
  FastifyRequest,
  HookHandlerDoneFunction,
  RouteOptions,
} from 'fastify';
import { refuse } from './errors.js';
import { INT32_MAX, INT32_MIN } from './schemas.js';

type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

/** An Ajv plugin as Fastify's `ajv.plugins` takes it. */
type AjvPlugin = Exclude<NonNullable<NonNullable<FastifyServerOptions['ajv']>['plugins']>[number], unknown[]>;

/** The Ajv keyword behind the rule on numbers (`ajv.plugins` of the Fastify instance). */
export const finiteKeyword: AjvPlugin = (ajv) => {
  const validate = (enabled: boolean, data: unknown): boolean => {
    if (!enabled || typeof data !== 'number' || Number.isFinite(data)) return true;
    validate.errors = [{ keyword: 'finite', message: 'must be a finite number', params: {} }];
    return false;
  };
  validate.errors = [] as object[];
  return ajv.addKeyword({ keyword: 'finite', schemaType: 'boolean', errors: true, validate });
};

function typesOf(schema: Schema): string[] {
  const { type } = schema;
  return Array.isArray(type) ? type.map(String) : typeof type === 'string' ? [type] : [];
}

/** A copy of `schema` whose numbers are finite and integers bounded (an explicit bound is kept). */
export function boundedCopy(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(boundedCopy);
  if (!isSchema(schema)) return schema;
  const copy: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    // Literal values (`const`, `enum`, `default`, examples) are data, not schemas.
    copy[key] = key === 'const' || key === 'enum' || key === 'default' ? value : boundedCopy(value);
  }
  const types = typesOf(schema);
  if (types.includes('integer')) {
    copy.minimum ??= INT32_MIN;
    copy.maximum ??= INT32_MAX;
    copy.finite = true;
  } else if (types.includes('number')) {
    // A number field's route checks its range itself (with its own message); it must be finite.
    copy.finite = true;
  }
  return copy;
}

/** Whether a property's schema accepts some string (then `""` is a value, not absence). */
function takesString(schema: unknown): boolean {
  if (!isSchema(schema)) return true;
  if (typesOf(schema).includes('string') || typeof schema.const === 'string') return true;
  if (Array.isArray(schema.enum) && schema.enum.some((v) => typeof v === 'string')) return true;
  const branches = [schema.anyOf, schema.oneOf].flatMap((b) => (Array.isArray(b) ? (b as unknown[]) : []));
  if (branches.length > 0) return branches.some(takesString);
  // No type at all (Type.Unknown, Type.Any) takes anything.
  return typesOf(schema).length === 0 && schema.const === undefined && schema.enum === undefined;
}

/** The query parameters of a schema whose empty value means absent. */
export function emptyMeansAbsent(querystring: unknown): string[] {
  if (!isSchema(querystring) || !isSchema(querystring.properties)) return [];
  return Object.entries(querystring.properties)
    .filter(([, property]) => !takesString(property))
    .map(([name]) => name);
}

function dropEmpty(names: readonly string[]) {
  return (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    const query = request.query as Record<string, unknown> | undefined;
    if (query) for (const name of names) if (query[name] === '') delete query[name];
    done();
  };
}

/** The most bytes of text one field holds: a MySQL TEXT column. */
export const MAX_TEXT_BYTES = 65_535;
/** A string this short cannot pass MAX_TEXT_BYTES (at most 3 UTF-8 bytes per UTF-16 unit). */
const SURELY_SHORT = Math.floor(MAX_TEXT_BYTES / 3);

function textProblem(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain NUL characters';
  if (text.length > SURELY_SHORT && Buffer.byteLength(text) > MAX_TEXT_BYTES) return `must be at most ${MAX_TEXT_BYTES} bytes`;
  return null;
}

/** The first string in `value` (keys included) that breaks the text rule, as `path must …`; null when none. */
export function badText(value: unknown, path: string): string | null {
  if (typeof value === 'string') {
    const problem = textProblem(value);
    return problem && `${path} ${problem}`;
  }
  if (typeof value !== 'object' || value === null || Buffer.isBuffer(value)) return null;
  for (const [key, child] of Object.entries(value)) {
    const problem = textProblem(key);
    if (problem) return `a key of ${path} ${problem}`;
    const found = badText(child, `${path}/${key}`);
    if (found) return found;
  }
  return null;
}

function refuseBadText(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  const detail = badText(request.body, 'body') ?? badText(request.query, 'querystring') ?? badText(request.params, 'params');
  done(detail ? refuse(400, 'request.invalid_params', { detail }) : undefined);
}

/** Adds `hook` before a route's own preValidation hooks. */
function preValidate(route: RouteOptions, hook: typeof refuseBadText): void {
  const { preValidation } = route;
  const hooks = preValidation === undefined ? [] : Array.isArray(preValidation) ? preValidation : [preValidation];
  route.preValidation = [hook, ...hooks];
}

/** Applies the rules to every console route registered after this call. */
export function installInputRules(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!route.url.startsWith('/api/')) return;
    preValidate(route, refuseBadText);
    if (!route.schema) return;
    const schema = { ...route.schema };
    for (const part of ['body', 'querystring', 'params', 'headers'] as const) {
      if (schema[part] !== undefined) schema[part] = boundedCopy(schema[part]);
    }
    route.schema = schema;
    const names = emptyMeansAbsent(schema.querystring);
    if (names.length === 0) return;
    const { preValidation } = route;
    const hooks = preValidation === undefined ? [] : Array.isArray(preValidation) ? preValidation : [preValidation];
    route.preValidation = [...hooks, dropEmpty(names)];
  });
}
