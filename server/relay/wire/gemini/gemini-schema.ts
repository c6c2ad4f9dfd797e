/**
 * Gemini's function parameters and responseSchema take a subset of OpenAPI 3.0's schema object and
 * refuse the whole request over one key outside it. JSON Schemas written for OpenAI are rewritten:
 *
 * - kept: type, format (see below), title, description, nullable, enum, items, properties, required,
 *   anyOf, propertyOrdering, minItems, maxItems, minProperties, maxProperties, minLength, maxLength,
 *   pattern, minimum, maximum, default, example;
 * - rewritten: `type: [T, "null"]` → T + nullable, several types → anyOf, `oneOf` → anyOf, `const` →
 *   a one-value enum, enum values → strings (a `null` value → nullable), local `$ref`s
 *   (`#/$defs/…`, `#/definitions/…`) → inlined up to a depth of 8, type names → upper case;
 * - dropped (everything else), notably: $schema, $id, $defs, definitions, $ref that cannot be
 *   inlined, additionalProperties, patternProperties, unevaluatedProperties, allOf, not,
 *   if/then/else, exclusiveMinimum, exclusiveMaximum, multipleOf, uniqueItems, examples, strict,
 *   readOnly, writeOnly, deprecated, contentEncoding, contentMediaType; a `format` other than
 *   enum/date-time on strings or float/double/int32/int64 on numbers; `required` names that are not
 *   among `properties`.
 */
import type { JsonObject, JsonValue } from '../openai/openai-types.js';

const KEPT = new Set([
  'title',
  'description',
  'propertyOrdering',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'default',
  'example',
]);
const FORMATS: Record<string, Set<string>> = {
  STRING: new Set(['enum', 'date-time']),
  NUMBER: new Set(['float', 'double']),
  INTEGER: new Set(['int32', 'int64']),
};
const MAX_REF_DEPTH = 8;

export const isJsonObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

function resolvePointer(root: JsonObject, ref: string): JsonObject | undefined {
  if (!ref.startsWith('#/')) return undefined;
  let node: JsonValue | undefined = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = isJsonObject(node) ? node[key] : undefined;
  }
  return isJsonObject(node) ? node : undefined;
}

function enumValues(values: JsonValue[], out: JsonObject): void {
  const kept = values.filter((v) => v !== null);
  if (kept.length !== values.length) out.nullable = true;
  out.enum = kept.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
}

function clean(node: JsonObject, root: JsonObject, depth: number): JsonObject {
  if (typeof node.$ref === 'string') {
    const target = depth < MAX_REF_DEPTH ? resolvePointer(root, node.$ref) : undefined;
    const siblings: JsonObject = { ...node };
    delete siblings.$ref;
    return clean(target ? { ...target, ...siblings } : siblings, root, depth + 1);
  }
  const out: JsonObject = {};
  let type = node.type;
  if (Array.isArray(type)) {
    const types = type.filter((t): t is string => typeof t === 'string' && t !== 'null');
    if (types.length !== type.length) out.nullable = true;
    if (types.length > 1) out.anyOf = types.map((t) => ({ type: t.toUpperCase() }));
    type = types.length === 1 ? types[0] : undefined;
  }
  if (typeof type === 'string') out.type = type.toUpperCase();
  for (const [key, value] of Object.entries(node)) {
    if (key === 'nullable' && value === true) out.nullable = true;
    else if (key === 'properties' && isJsonObject(value)) {
      const properties: JsonObject = {};
      for (const [name, child] of Object.entries(value)) if (isJsonObject(child)) properties[name] = clean(child, root, depth);
      out.properties = properties;
    } else if (key === 'items') {
      const first = Array.isArray(value) ? value[0] : value;
      if (isJsonObject(first)) out.items = clean(first, root, depth);
    } else if ((key === 'anyOf' || key === 'oneOf') && Array.isArray(value)) {
      const branches = value.filter(isJsonObject).map((b) => clean(b, root, depth));
      out.anyOf = [...(Array.isArray(out.anyOf) ? out.anyOf : []), ...branches];
    } else if (key === 'enum' && Array.isArray(value)) enumValues(value, out);
    else if (key === 'const' && !Array.isArray(node.enum)) enumValues([value], out);
    else if (key === 'format' && typeof value === 'string') {
      if (typeof out.type === 'string' && FORMATS[out.type]?.has(value)) out.format = value;
    } else if (KEPT.has(key)) out[key] = value;
  }
  if (Array.isArray(node.required) && isJsonObject(out.properties)) {
    const properties = out.properties;
    const required = node.required.filter((n): n is string => typeof n === 'string' && n in properties);
    if (required.length > 0) out.required = required;
  }
  if (Array.isArray(out.enum) && out.type === undefined) out.type = 'STRING';
  return out;
}

/** An OpenAI-side JSON Schema as Gemini accepts it (see the list above). */
export function cleanSchemaForGemini(schema: JsonObject): JsonObject {
  return clean(schema, schema, 0);
}

/** True when an object schema declares no properties: Gemini refuses such function parameters. */
export function hasNoProperties(schema: JsonObject): boolean {
  return !isJsonObject(schema.properties) || Object.keys(schema.properties).length === 0;
}

/**
 * A Gemini schema as JSON Schema for OpenAI channels: lower-case type names, `nullable` as a
 * `"null"` type, Gemini-only keys (`propertyOrdering`, `format: enum`) dropped.
 */
export function geminiSchemaToJsonSchema(schema: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'type' && typeof value === 'string') out.type = value.toLowerCase();
    else if (key === 'properties' && isJsonObject(value)) {
      const properties: JsonObject = {};
      for (const [name, child] of Object.entries(value))
        if (isJsonObject(child)) properties[name] = geminiSchemaToJsonSchema(child);
      out.properties = properties;
    } else if (key === 'items' && isJsonObject(value)) out.items = geminiSchemaToJsonSchema(value);
    else if (key === 'anyOf' && Array.isArray(value)) out.anyOf = value.filter(isJsonObject).map(geminiSchemaToJsonSchema);
    else if (key === 'format' && value === 'enum') continue;
    else if (key !== 'nullable' && key !== 'propertyOrdering') out[key] = value;
  }
  if (schema.nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
  return out;
}
