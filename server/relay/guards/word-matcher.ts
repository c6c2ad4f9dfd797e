/**
 * Finds many words in a text at once (Aho–Corasick): one pass over the text whatever the number of
 * words, case-insensitive, and resumable across pieces of a stream (a word split between two
 * chunks is still found). Built once per word list and shared.
 */

/** Lower-cases one UTF-16 unit when that keeps it one unit (so positions stay those of the text). */
function fold(code: number): number {
  if (code >= 65 && code <= 90) return code + 32;
  if (code < 128) return code;
  const lower = String.fromCharCode(code).toLowerCase();
  return lower.length === 1 ? lower.charCodeAt(0) : code;
}

export interface WordMatch {
  /** Index in the text just past the match's last unit. */
  end: number;
  /** Length of the longest listed word ending there. */
  length: number;
}

export class WordMatcher {
  private readonly next: Array<Map<number, number>> = [new Map()];
  private readonly fail: number[] = [0];
  /** The word ending exactly at each node (index into `words`), or -1. */
  private readonly own: number[] = [-1];
  /** Length of the longest word ending at each node, through its fail chain (0 = none). */
  private readonly longest: number[] = [0];
  /** The nearest node down the fail chain that ends a word, or 0. */
  private readonly dict: number[] = [0];
  readonly words: readonly string[];

  constructor(list: Iterable<string>) {
    const words: string[] = [];
    for (const word of list) {
      if (word === '') continue;
      let node = 0;
      for (let i = 0; i < word.length; i++) {
        const code = fold(word.charCodeAt(i));
        let child = this.next[node]!.get(code);
        if (child === undefined) {
          child = this.next.length;
          this.next.push(new Map());
          this.fail.push(0);
          this.own.push(-1);
          this.longest.push(0);
          this.dict.push(0);
          this.next[node]!.set(code, child);
        }
        node = child;
      }
      if (this.own[node] === -1) {
        this.own[node] = words.length;
        words.push(word);
      }
    }
    this.words = words;
    this.link();
  }

  get empty(): boolean {
    return this.words.length === 0;
  }

  /** Breadth-first: each node's fail link is the longest proper suffix of its path that is also a path. */
  private link(): void {
    const queue: number[] = [];
    for (const child of this.next[0]!.values()) {
      queue.push(child);
      this.finish(child);
    }
    for (let head = 0; head < queue.length; head++) {
      const node = queue[head]!;
      for (const [code, child] of this.next[node]!) {
        let f = this.fail[node]!;
        while (f !== 0 && !this.next[f]!.has(code)) f = this.fail[f]!;
        const target = this.next[f]!.get(code);
        this.fail[child] = target !== undefined && target !== child ? target : 0;
        this.finish(child);
        queue.push(child);
      }
    }
  }

  private finish(node: number): void {
    const f = this.fail[node]!;
    const ownWord = this.own[node]!;
    this.longest[node] = ownWord >= 0 ? this.words[ownWord]!.length : this.longest[f]!;
    this.dict[node] = this.own[f]! >= 0 ? f : this.dict[f]!;
  }

  /** The state after one more unit of text (state 0 = nothing matched yet). */
  step(state: number, code: number): number {
    const c = fold(code);
    let s = state;
    for (;;) {
      const child = this.next[s]!.get(c);
      if (child !== undefined) return child;
      if (s === 0) return 0;
      s = this.fail[s]!;
    }
  }

  /** Whether a word ends in this state. */
  matches(state: number): boolean {
    return this.longest[state]! > 0;
  }

  /** Every listed word ending in this state, added to `into`. */
  collect(state: number, into: Set<string>): void {
    let s = this.own[state]! >= 0 ? state : this.dict[state]!;
    while (s !== 0) {
      into.add(this.words[this.own[s]!]!);
      s = this.dict[s]!;
    }
  }

  /** The words found in `text` (each once, as listed). */
  find(text: string): string[] {
    const found = new Set<string>();
    let state = 0;
    for (let i = 0; i < text.length; i++) {
      state = this.step(state, text.charCodeAt(i));
      if (this.matches(state)) this.collect(state, found);
    }
    return [...found];
  }

  /** `text` with every unit of every listed word replaced by `*`, and the words found. */
  mask(text: string): { text: string; words: string[] } {
    const found = new Set<string>();
    const spans: Array<[number, number]> = [];
    let state = 0;
    for (let i = 0; i < text.length; i++) {
      state = this.step(state, text.charCodeAt(i));
      if (!this.matches(state)) continue;
      this.collect(state, found);
      // Spans end in order; a new one swallows the earlier ones it touches.
      let start = i + 1 - this.longest[state]!;
      while (spans.length > 0 && start <= spans.at(-1)![1]) start = Math.min(start, spans.pop()![0]);
      spans.push([start, i + 1]);
    }
    if (spans.length === 0) return { text, words: [] };
    let out = '';
    let at = 0;
    for (const [start, end] of spans) {
      out += text.slice(at, start) + '*'.repeat(end - start);
      at = end;
    }
    return { text: out + text.slice(at), words: [...found] };
  }
}
