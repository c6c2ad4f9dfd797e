/**
 * Watches what an answer writes to its client, as it passes: the model the upstream named, the
 * finish reasons of each wire format, and (for body logs) the first `keep` bytes of the text. The
 * writes go on unchanged and unbuffered; only copies of the first `keep` bytes are held.
 */
import type { ServerResponse } from 'node:http';

/** finish_reason (OpenAI), stop_reason (Claude), finishReason (Gemini), status (Responses). */
const FINISH = /"(?:finish_reason|stop_reason|finishReason)"\s*:\s*"([^"]{1,40})"/g;
const MODEL = /"(?:model|modelVersion)"\s*:\s*"([^"]{1,200})"/;
/** Chunk edges may split a match: this much of the previous chunk is scanned again. */
const OVERLAP = 256;

export class AnswerTap {
  readonly finishReasons = new Set<string>();
  responseModel: string | undefined;
  /** Bytes written in all. */
  bytes = 0;
  private readonly kept: Buffer[] = [];
  private keptBytes = 0;
  private tail = '';

  constructor(private readonly keep: number) {}

  note(chunk: unknown, encoding?: BufferEncoding): void {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    const buffer = Buffer.isBuffer(chunk)
      ? chunk
      : chunk instanceof Uint8Array
        ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
        : Buffer.from(String(chunk), encoding ?? 'utf8');
    this.bytes += buffer.length;
    if (this.keptBytes < this.keep) {
      const part = buffer.subarray(0, this.keep - this.keptBytes);
      this.kept.push(Buffer.from(part));
      this.keptBytes += part.length;
    }
    const text = this.tail + buffer.toString('utf8');
    for (const m of text.matchAll(FINISH)) this.finishReasons.add(m[1]!);
    this.responseModel ??= MODEL.exec(text)?.[1];
    this.tail = text.slice(-OVERLAP);
  }

  /** The kept text, and whether the answer went on past it. */
  text(): { text: string; truncated: boolean } {
    return { text: Buffer.concat(this.kept).toString('utf8'), truncated: this.bytes > this.keptBytes };
  }
}

/** Starts watching `out`'s writes; `out` keeps its own methods, called with the same arguments. */
export function tapAnswer(out: ServerResponse, keep: number): AnswerTap {
  const tap = new AnswerTap(keep);
  const write = out.write;
  const end = out.end;
  out.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
    tap.note(chunk, typeof rest[0] === 'string' ? (rest[0] as BufferEncoding) : undefined);
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as ServerResponse['write'];
  out.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
    tap.note(chunk, typeof rest[0] === 'string' ? (rest[0] as BufferEncoding) : undefined);
    return (end as (...args: unknown[]) => ServerResponse).call(this, chunk, ...rest);
  } as ServerResponse['end'];
  return tap;
}
