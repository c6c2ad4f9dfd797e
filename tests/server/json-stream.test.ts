import { describe, expect, it } from 'vitest';
import { JsonStreamParser } from '../../server/http/json-stream.js';
import { seeded as random } from '../helpers/seeded.js';

const PIECES = ['a', 'é', '中', '😀', '"', '\\', '\n', '\t', '\u0001', '\u2028', ' ', '/', 'z'];

function value(next: () => number, depth: number): unknown {
  const pick = Math.floor(next() * (depth > 4 ? 5 : 7));
  switch (pick) {
    case 0:
      return null;
    case 1:
      return next() < 0.5;
    case 2: {
      const n = [0, -0, 1, -1, 0.5, 1e21, 1.5e-7, 123456789012, -3.25e300][Math.floor(next() * 9)]!;
      return n;
    }
    case 3:
    case 4: {
      let s = '';
      const length = Math.floor(next() * 12);
      for (let i = 0; i < length; i++) s += PIECES[Math.floor(next() * PIECES.length)];
      return s;
    }
    case 5:
      return Array.from({ length: Math.floor(next() * 4) }, () => value(next, depth + 1));
    default: {
      const o: Record<string, unknown> = {};
      const n = Math.floor(next() * 4);
      for (let i = 0; i < n; i++) o[String(value(next, 99)) + i] = value(next, depth + 1);
      return o;
    }
  }
}

/** Serialises with random whitespace between tokens and \u escapes in strings. */
function text(next: () => number, v: unknown): string {
  const ws = () => [' ', '', '\n', '\t', '\r\n  '][Math.floor(next() * 5)]!;
  if (Array.isArray(v)) return `[${ws()}${v.map((x) => ws() + text(next, x) + ws()).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v).map(([k, x]) => `${ws()}${text(next, k)}${ws()}:${ws()}${text(next, x)}`);
    return `{${entries.join(',')}${ws()}}`;
  }
  if (typeof v === 'string' && next() < 0.3) {
    return `"${v
      .split('')
      .map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
      .join('')}"`;
  }
  return JSON.stringify(v);
}

function parseInChunks(source: string, next: () => number, maxDepth = 128): unknown {
  const parser = new JsonStreamParser(maxDepth);
  let i = 0;
  while (i < source.length) {
    const size = 1 + Math.floor(next() * (next() < 0.5 ? 3 : 40));
    parser.write(source.slice(i, i + size));
    i += size;
  }
  return parser.end();
}

const outcome = (run: () => unknown): { ok: true; value: unknown } | { ok: false } => {
  try {
    return { ok: true, value: run() };
  } catch {
    return { ok: false };
  }
};

describe('incremental JSON parser', () => {
  it('builds what JSON.parse builds, whatever the chunk boundaries (2,000 seeded documents)', () => {
    for (let seed = 1; seed <= 2000; seed++) {
      const next = random(seed);
      const source = text(next, value(next, 0));
      expect(parseInChunks(source, next), `seed ${seed}: ${source}`).toEqual(JSON.parse(source));
    }
  });

  it('refuses what JSON.parse refuses (3,000 seeded corruptions)', () => {
    const alphabet = ['{', '}', '[', ']', ',', ':', '"', '\\', 'u', '0', '1', '-', '.', 'e', 't', 'n', ' ', '\u0000', 'x'];
    for (let seed = 1; seed <= 3000; seed++) {
      const next = random(seed);
      let source = text(next, value(next, 0));
      const edits = 1 + Math.floor(next() * 3);
      for (let e = 0; e < edits; e++) {
        const at = Math.floor(next() * (source.length + 1));
        const kind = next();
        const c = alphabet[Math.floor(next() * alphabet.length)]!;
        if (kind < 0.4) source = source.slice(0, at) + c + source.slice(at);
        else if (kind < 0.8) source = source.slice(0, at) + source.slice(at + 1);
        else source = source.slice(0, at);
      }
      const expected = outcome(() => JSON.parse(source));
      const got = outcome(() => parseInChunks(source, next));
      if (expected.ok && typeof expected.value === 'object' && expected.value !== null && source.includes('__proto__')) continue;
      expect(got.ok, `seed ${seed}: ${JSON.stringify(source)}`).toBe(expected.ok);
      if (got.ok && expected.ok) expect(got.value).toEqual(expected.value);
    }
  });

  it('refuses nesting deeper than its limit and a __proto__ key, without touching any prototype', () => {
    expect(() => parseInChunks('['.repeat(129) + ']'.repeat(129), random(1))).toThrow(/nesting/);
    expect(parseInChunks('['.repeat(128) + ']'.repeat(128), random(1))).toBeInstanceOf(Array);
    expect(() => parseInChunks('{"a":{"__proto__":{"polluted":1}}}', random(2))).toThrow(/__proto__/);
    expect(() => parseInChunks('{"\\u005f_proto__":{}}', random(3))).toThrow(/__proto__/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses a number too long to be anything but an attack', () => {
    expect(() => parseInChunks('[' + '1'.repeat(5000) + ']', random(4))).toThrow(/too long/);
    expect(parseInChunks('[' + '1'.repeat(300) + ']', random(4))).toEqual([Number('1'.repeat(300))]);
  });
});
