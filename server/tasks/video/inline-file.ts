/**
 * Vendors that answer a finished video inline, base64 in one JSON answer (Veo on Vertex AI without a
 * storage bucket): the answer is scanned as it streams in, so the video's bytes are never held
 * whole. Reading a state drops the base64 (the JSON left is small); serving the file decodes it.
 * The text is scanned as latin1, which keeps every byte as it came (JSON structure and base64 are ASCII).
 */

type Part = { kind: 'text' | 'value'; text: string };

/** `"key": "` as JSON writes it; a quote inside another string would be escaped and not match. */
function opening(key: string): RegExp {
  return new RegExp(`"${key.replace(/[^\w]/g, '\\$&')}"\\s*:\\s*"`);
}

/** The answer's text cut into the string values of `key` and everything else, chunk by chunk. */
async function* scan(body: AsyncIterable<Buffer | Uint8Array>, key: string): AsyncGenerator<Part> {
  const marker = opening(key);
  // A marker cut by a chunk boundary: this much of the text is kept back until the next chunk.
  const keep = key.length + 64;
  let inside = false;
  let pending = '';
  for await (const chunk of body) {
    pending += Buffer.from(chunk).toString('latin1');
    for (;;) {
      if (inside) {
        const end = pending.indexOf('"');
        if (end < 0) {
          yield { kind: 'value', text: pending };
          pending = '';
          break;
        }
        yield { kind: 'value', text: pending.slice(0, end) };
        pending = pending.slice(end);
        inside = false;
        continue;
      }
      const m = marker.exec(pending);
      if (m) {
        yield { kind: 'text', text: pending.slice(0, m.index + m[0].length) };
        pending = pending.slice(m.index + m[0].length);
        inside = true;
        continue;
      }
      if (pending.length > keep) {
        yield { kind: 'text', text: pending.slice(0, pending.length - keep) };
        pending = pending.slice(pending.length - keep);
      }
      break;
    }
  }
  if (pending) yield { kind: inside ? 'value' : 'text', text: pending };
}

/** The answer with every value of `key` emptied (`"key":""`). */
export async function* withoutInline(body: AsyncIterable<Buffer | Uint8Array>, key: string): AsyncGenerator<Buffer> {
  for await (const part of scan(body, key)) if (part.kind === 'text') yield Buffer.from(part.text, 'latin1');
}

/**
 * The bytes of the first value of `key`, decoded four characters at a time as they arrive; JSON's
 * optional escaping of `/` (`\/`) is undone. Throws when the answer holds no such value.
 */
export async function* inlineBytes(body: AsyncIterable<Buffer | Uint8Array>, key: string): AsyncGenerator<Buffer> {
  let rest = '';
  let seen = false;
  for await (const part of scan(body, key)) {
    if (part.kind === 'text') {
      if (seen) break;
      continue;
    }
    seen = true;
    const chars = rest + part.text.replace(/\\/g, '');
    const whole = chars.length - (chars.length % 4);
    rest = chars.slice(whole);
    if (whole > 0) yield Buffer.from(chars.slice(0, whole), 'base64');
  }
  if (!seen) throw new Error('no inline file in the answer');
  if (rest) yield Buffer.from(rest, 'base64');
}
