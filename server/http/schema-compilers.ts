/**
 * Route schemas compiled on first use, once per process. Fastify compiles every route's validators
 * (Ajv) and response serializers (fast-json-stringify) while it starts, about 1.5 s of CPU for the
 * gateway's few hundred routes, most of which a process never serves. Here each is compiled when a
 * request first needs it, by one Ajv per option set shared by every Fastify instance of the process
 * (Ajv keeps what it compiled per schema object), and serializers are kept per schema object.
 * SCHEMA_PRECOMPILE=true compiles everything at start instead, as Fastify does by default.
 */
import { AjvCompiler } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type Factories = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
/** What Fastify passes a compiler for one route's part (body, querystring, a response status…). */
interface RouteSchema {
  schema: object;
}
type Validate = ((data: unknown, context?: unknown) => unknown) & { errors?: unknown; schemaEnv?: unknown };
type Serialize = (data: unknown) => string;
type ValidatorFactory = (externalSchemas: unknown, options: unknown) => (route: RouteSchema) => Validate;
type SerializerFactory = (externalSchemas: unknown, options: unknown) => (route: RouteSchema) => Serialize;

// The packages' own factories, typed by the shape Fastify calls them with.
const validatorPool = AjvCompiler() as unknown as ValidatorFactory;
const serializerSelector = SerializerSelector() as unknown as SerializerFactory;

function lazyValidators(precompile: boolean): ValidatorFactory {
  return (externalSchemas, options) => {
    const build = validatorPool(externalSchemas, options);
    return (route) => {
      if (precompile) return build(route);
      let compiled: Validate | null = null;
      // Fastify passes the parent (so Ajv may coerce or default the root value) only to a function
      // with `schemaEnv`, as Ajv's own functions have; it reads `errors` off the function it called.
      const validate: Validate = (data, context) => {
        compiled ??= build(route);
        const ok = compiled(data, context);
        validate.errors = compiled.errors;
        return ok;
      };
      validate.schemaEnv = true;
      return validate;
    };
  };
}

/** Serializers by option set (as JSON) and schema object. */
const serializers = new Map<string, WeakMap<object, Serialize>>();

function lazySerializers(precompile: boolean): SerializerFactory {
  return (externalSchemas, options) => {
    const build = serializerSelector(externalSchemas, options);
    const key = JSON.stringify([externalSchemas, options]);
    let kept = serializers.get(key);
    if (!kept) serializers.set(key, (kept = new WeakMap()));
    const cache = kept;
    const compile = (route: RouteSchema): Serialize => {
      let fn = cache.get(route.schema);
      if (!fn) cache.set(route.schema, (fn = build(route)));
      return fn;
    };
    return (route) => {
      if (precompile) return compile(route);
      let compiled: Serialize | null = null;
      return (data: unknown) => (compiled ??= compile(route))(data);
    };
  };
}

export function schemaCompilers(precompile: boolean): Factories {
  return { buildValidator: lazyValidators(precompile), buildSerializer: lazySerializers(precompile) } as unknown as Factories;
}
