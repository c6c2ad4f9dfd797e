/**
 * An incremental Server-Sent Events parser: feed it bytes as they arrive, get whole events back.
 * Follows the event-stream format: fields `event`, `data` (joined with newlines), `id`; lines end
 * with LF, CRLF or CR; a blank line ends an event; lines starting with `:` are comments.
 */
export interface SseEvent {
  event: string;
  data: string;
}

export class SseParser {
  /** Made at the first chunk: a decoder costs more to make than a short text costs to parse. */
  private decoder: InstanceType<typeof TextDecoder> | null = null;
  private buffer = '';
  private event = '';
  private data: string[] = [];

  /** The events of a complete text (a last one without its blank line included). */
  static eventsIn(text: string): SseEvent[] {
    const parser = new SseParser();
    parser.buffer = text;
    return parser.drain(true);
  }

  /** Parses a chunk; returns the events it completed. */
  push(chunk: Uint8Array): SseEvent[] {
    this.buffer += (this.decoder ??= new TextDecoder()).decode(chunk, { stream: true });
    return this.drain(false);
  }

  /** Ends the stream; returns a last event left without its blank line. */
  end(): SseEvent[] {
    if (this.decoder) this.buffer += this.decoder.decode();
    return this.drain(true);
  }

  private drain(final: boolean): SseEvent[] {
    const out: SseEvent[] = [];
    let start = 0;
    for (;;) {
      const lf = this.buffer.indexOf('\n', start);
      const cr = this.buffer.indexOf('\r', start);
      let end: number;
      let next: number;
      if (cr !== -1 && (lf === -1 || cr < lf)) {
        // A CR at the very end may be the first half of CRLF: wait for more.
        if (cr === this.buffer.length - 1 && !final) break;
        end = cr;
        next = this.buffer[cr + 1] === '\n' ? cr + 2 : cr + 1;
      } else if (lf !== -1) {
        end = lf;
        next = lf + 1;
      } else {
        break;
      }
      this.line(this.buffer.slice(start, end), out);
      start = next;
    }
    this.buffer = this.buffer.slice(start);
    if (final) {
      if (this.buffer) this.line(this.buffer, out);
      this.buffer = '';
      this.line('', out);
    }
    return out;
  }

  private line(line: string, out: SseEvent[]): void {
    if (line === '') {
      if (this.data.length > 0) out.push({ event: this.event || 'message', data: this.data.join('\n') });
      this.event = '';
      this.data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
  }
}
