/**
 * What the scripted stand-ins (gemini.ts, claude.ts, openai-chat.ts) "generate": a value that
 * satisfies a JSON schema (structured output, forced tool input), and a token rule of their own —
 * one token a word plus a fixed overhead — deliberately unlike the gateway's tokenizer, so a test
 * can tell a figure the upstream reported from one the gateway counted.
 */

type Schema = Record<string, any>;

/** A value valid under `schema` (JSON Schema or Gemini's OpenAPI subset, types in either case). */
export function sampleOf(schema: Schema | undefined, depth = 0): unknown {
  if (!schema || typeof schema !== 'object' || depth > 8) return null;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if ('const' in schema) return schema.const;
  const variants = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(variants) && variants.length > 0) return sampleOf(variants[0], depth + 1);
  const type = String(Array.isArray(schema.type) ? schema.type[0] : (schema.type ?? 'object')).toLowerCase();
  switch (type) {
    case 'string':
      return schema.format === 'date' ? '2025-01-01' : 'sample';
    case 'integer':
      return 42;
    case 'number':
      return 4.5;
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array':
      return [sampleOf(schema.items, depth + 1)];
    default: {
      const out: Record<string, unknown> = {};
      for (const [name, sub] of Object.entries((schema.properties ?? {}) as Record<string, Schema>))
        out[name] = sampleOf(sub, depth + 1);
      return out;
    }
  }
}

/** The stand-ins' token rule: words of every text, plus 3. */
export function standInTokens(texts: string[]): number {
  return 3 + texts.reduce((n, t) => n + t.split(/\s+/).filter(Boolean).length, 0);
}

/** Every string value inside a JSON value (the "text" a stand-in counts). */
export function stringsIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) stringsIn(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) stringsIn(v, out);
  return out;
}

/** Keys of `value` outside `known`. */
export function unknownKeys(value: unknown, known: readonly string[]): string[] {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.keys(value).filter((k) => !known.includes(k));
}
