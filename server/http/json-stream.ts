/**
 * An incremental JSON parser: text goes in as it arrives, one chunk at a time, so a large body is
 * parsed a slice per network read instead of in one long pause of the event loop once it is all in.
 * It accepts what JSON.parse accepts and builds the same values, with three refusals of its own: a
 * nesting deeper than `maxDepth`, a `__proto__` key (assigning it would replace an object's
 * prototype), and a number or literal longer than MAX_ATOM characters (nobody sends those but an
 * attacker, and carrying them across chunks would cost quadratic time).
 */
export class JsonSyntaxError extends Error {}

const MAX_ATOM = 512;
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const NUMBER_RUN = /[\d.eE+-]*/y;
// JSON forbids raw control characters inside strings, so the scan stops at them.
// eslint-disable-next-line no-control-regex
const STRING_STOP = /["\\\u0000-\u001f]/g;
const WHITESPACE = /[ \t\n\r]*/y;
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

type Container = { array: unknown[]; object?: undefined } | { object: Record<string, unknown>; array?: undefined };

/** Where the parser stands between two characters. */
const enum Expect {
  Value,
  /** Right after `[`: a value or `]`. */
  FirstItem,
  /** Right after `{`: a key or `}`. */
  FirstKey,
  Key,
  Colon,
  /** After a value inside a container: `,` or its closing bracket. */
  Next,
  Done,
}

export class JsonStreamParser {
  private readonly stack: Container[] = [];
  private readonly keys: string[] = [];
  private expect = Expect.Value;
  private root: unknown = undefined;
  /** The start of a token the last chunk cut short (a number, a literal or an escape). */
  private carry = '';
  /** The parts of a string the chunks so far have delivered, while inside one. */
  private stringParts: string[] | null = null;

  constructor(private readonly maxDepth: number) {}

  write(chunk: string): void {
    const text = this.carry + chunk;
    this.carry = '';
    let i = 0;
    if (this.stringParts) {
      i = this.scanString(text, 0);
      if (i < 0) return;
    }
    const length = text.length;
    while (i < length) {
      WHITESPACE.lastIndex = i;
      WHITESPACE.test(text);
      i = WHITESPACE.lastIndex;
      if (i >= length) return;
      const c = text[i]!;
      switch (this.expect) {
        case Expect.Done:
          throw new JsonSyntaxError(`unexpected '${c}' after the end of the JSON value`);
        case Expect.Colon:
          if (c !== ':') throw new JsonSyntaxError(`expected ':' but found '${c}'`);
          this.expect = Expect.Value;
          i++;
          continue;
        case Expect.Next: {
          const top = this.stack.at(-1)!;
          if (c === ',') {
            this.expect = top.array ? Expect.Value : Expect.Key;
            i++;
          } else if ((c === ']' && top.array) || (c === '}' && top.object)) {
            i++;
            this.close();
          } else throw new JsonSyntaxError(`unexpected '${c}' in ${top.array ? 'an array' : 'an object'}`);
          continue;
        }
        case Expect.FirstKey:
        case Expect.Key:
          if (c === '}' && this.expect === Expect.FirstKey) {
            i++;
            this.close();
            continue;
          }
          if (c !== '"') throw new JsonSyntaxError(`expected a property name but found '${c}'`);
          this.stringParts = [];
          i = this.scanString(text, i + 1);
          if (i < 0) return;
          continue;
        case Expect.FirstItem:
          if (c === ']') {
            i++;
            this.close();
            continue;
          }
          break;
        case Expect.Value:
          break;
      }
      // A value starts here.
      if (c === '"') {
        this.stringParts = [];
        i = this.scanString(text, i + 1);
        if (i < 0) return;
      } else if (c === '{' || c === '[') {
        if (this.stack.length >= this.maxDepth) throw new JsonSyntaxError(`nesting deeper than ${this.maxDepth} levels`);
        const container: Container = c === '[' ? { array: [] } : { object: {} };
        this.stack.push(container);
        this.expect = c === '[' ? Expect.FirstItem : Expect.FirstKey;
        i++;
      } else {
        const end = this.scanAtom(text, i);
        if (end < 0) {
          this.carry = text.slice(i);
          if (this.carry.length > MAX_ATOM) throw new JsonSyntaxError('a number or literal is too long');
          return;
        }
        i = end;
      }
    }
  }

  /** The parsed value; throws if the text ended inside it. */
  end(): unknown {
    if (this.carry !== '' && this.stringParts === null) {
      // A number at the very end has nothing after it to show it is complete.
      const end = this.scanAtom(this.carry + ' ', 0);
      if (end < 0 || this.carry.slice(end).trim() !== '') throw new JsonSyntaxError('unexpected end of JSON input');
      this.carry = '';
    }
    if (this.expect !== Expect.Done || this.carry !== '' || this.stringParts) {
      throw new JsonSyntaxError('unexpected end of JSON input');
    }
    return this.root;
  }

  /** A number or literal at `i`: returns where it ends, or -1 if the chunk may have cut it short. */
  private scanAtom(text: string, i: number): number {
    const c = text[i]!;
    for (const [word, value] of LITERALS) {
      if (c !== word[0]) continue;
      const piece = text.slice(i, i + word.length);
      if (piece === word) {
        this.value(value);
        return i + word.length;
      }
      if (word.startsWith(piece)) return -1;
      throw new JsonSyntaxError(`unexpected token '${piece}'`);
    }
    if (c !== '-' && (c < '0' || c > '9')) throw new JsonSyntaxError(`unexpected '${c}'`);
    NUMBER_RUN.lastIndex = i;
    const run = NUMBER_RUN.exec(text)![0];
    if (run.length > MAX_ATOM) throw new JsonSyntaxError('a number or literal is too long');
    const end = i + run.length;
    // The number may go on in the next chunk.
    if (end >= text.length) return -1;
    if (!NUMBER.test(run)) throw new JsonSyntaxError(`malformed number '${run.slice(0, 40)}'`);
    this.value(Number(run));
    return end;
  }

  /** Continues a string from `i`: returns the index after its closing quote, or -1 at the chunk's end. */
  private scanString(text: string, i: number): number {
    const parts = this.stringParts!;
    for (;;) {
      STRING_STOP.lastIndex = i;
      const stop = STRING_STOP.exec(text);
      if (!stop) {
        if (i < text.length) parts.push(text.slice(i));
        return -1;
      }
      const j = stop.index;
      if (j > i) parts.push(text.slice(i, j));
      const c = text[j]!;
      if (c === '"') {
        this.stringParts = null;
        this.string(parts.length === 1 ? parts[0]! : parts.join(''));
        return j + 1;
      }
      if (c !== '\\') throw new JsonSyntaxError('a control character inside a string');
      const kind = text[j + 1];
      if (kind === undefined) {
        this.carry = text.slice(j);
        return -1;
      }
      if (kind === 'u') {
        const hex = text.slice(j + 2, j + 6);
        if (hex.length < 4 && /^[0-9a-fA-F]*$/.test(hex)) {
          this.carry = text.slice(j);
          return -1;
        }
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new JsonSyntaxError('a bad \\u escape');
        parts.push(String.fromCharCode(parseInt(hex, 16)));
        i = j + 6;
        continue;
      }
      const escaped = ESCAPES[kind];
      if (escaped === undefined) throw new JsonSyntaxError(`a bad escape '\\${kind}'`);
      parts.push(escaped);
      i = j + 2;
    }
  }

  /** A finished string: a key where one is expected, otherwise a value. */
  private string(s: string): void {
    if (this.expect === Expect.Key || this.expect === Expect.FirstKey) {
      if (s === '__proto__') throw new JsonSyntaxError('a "__proto__" key');
      this.keys.push(s);
      this.expect = Expect.Colon;
      return;
    }
    this.value(s);
  }

  private value(v: unknown): void {
    const top = this.stack.at(-1);
    if (!top) {
      this.root = v;
      this.expect = Expect.Done;
    } else if (top.array) {
      top.array.push(v);
      this.expect = Expect.Next;
    } else {
      top.object![this.keys.pop()!] = v;
      this.expect = Expect.Next;
    }
  }

  private close(): void {
    const done = this.stack.pop()!;
    this.value(done.array ?? done.object);
  }
}

const LITERALS: ReadonlyArray<readonly [string, unknown]> = [
  ['true', true],
  ['false', false],
  ['null', null],
];
