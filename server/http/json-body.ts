/**
 * Reading JSON bodies on the routes that take large ones (the relay's and the task platforms'). The
 * caller is authenticated from the headers before any of this runs, so only a known key gets its
 * body read. A body is decoded as strict UTF-8 and parsed as it arrives: small ones in one
 * JSON.parse once complete, larger ones chunk by chunk, so that no single request holds the event
 * loop for the length of its body. Both paths refuse the same things: more than the route's body
 * limit, invalid UTF-8, nesting deeper than MAX_DEPTH (converters and schema walkers recurse), and a
 * `__proto__` key.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isUtf8 } from 'node:buffer';
import type { Readable } from 'node:stream';
import { refuse } from './errors.js';
import { JsonStreamParser, JsonSyntaxError } from './json-stream.js';

export const MAX_DEPTH = 128;
/** Below this a body is parsed whole: JSON.parse takes well under a millisecond per 100 KB. */
const WHOLE_PARSE_LIMIT = 256 * 1024;

/**
 * A whole body's text as strict UTF-8, a leading byte order mark dropped (as TextDecoder drops it):
 * cheaper for a small body than making a decoder for it.
 */
function utf8Text(bytes: Buffer): string {
  if (!isUtf8(bytes)) throw new TypeError('invalid UTF-8');
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  return bytes.toString('utf8', bom ? 3 : 0);
}

const invalid = (detail: string) => refuse(400, 'request.invalid', { detail }, 'invalid_request_error');

/** Refuses what the incremental parser refuses, on a value JSON.parse built. */
function checkParsed(root: unknown): void {
  const pending: Array<[unknown, number]> = [[root, 0]];
  while (pending.length > 0) {
    const [value, depth] = pending.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_DEPTH) throw new JsonSyntaxError(`nesting deeper than ${MAX_DEPTH} levels`);
    if (Array.isArray(value)) {
      for (const item of value) if (item !== null && typeof item === 'object') pending.push([item, depth + 1]);
      continue;
    }
    if (Object.hasOwn(value, '__proto__')) throw new JsonSyntaxError('a "__proto__" key');
    for (const key in value) {
      const item = (value as Record<string, unknown>)[key];
      if (item !== null && typeof item === 'object') pending.push([item, depth + 1]);
    }
  }
}

/** Small bodies' text as received, by the value parsed from it: sent on as is when nothing changed. */
const texts = new WeakMap<object, string>();
export const receivedText = (body: object): string | undefined => texts.get(body);

export function readJsonBody(request: FastifyRequest, payload: Readable): Promise<unknown> {
  const limit = request.routed?.bodyLimit ?? request.routeOptions.bodyLimit ?? WHOLE_PARSE_LIMIT;
  const declared = Number(request.headers['content-length']);
  if (declared > limit) return Promise.reject(refuse(413, 'request.body_too_large'));
  return new Promise((resolve, reject) => {
    /** Made for a body too large to parse whole, which is decoded as it arrives. */
    let decoder: InstanceType<typeof TextDecoder> | null = null;
    let received = 0;
    let small: Buffer[] | null = [];
    let parser: JsonStreamParser | null = null;
    const stop = (error: unknown) => {
      payload.removeListener('data', onData);
      payload.removeListener('end', onEnd);
      payload.removeListener('error', stop);
      if (error instanceof JsonSyntaxError) reject(invalid(error.message));
      else if (error instanceof TypeError) reject(invalid('the body is not valid UTF-8'));
      else reject(error);
    };
    const feed = (bytes: Buffer, last: boolean) => {
      parser ??= new JsonStreamParser(MAX_DEPTH);
      decoder ??= new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
      parser.write(decoder.decode(bytes, { stream: !last }));
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) return stop(refuse(413, 'request.body_too_large'));
      try {
        if (small) {
          small.push(chunk);
          if (received <= WHOLE_PARSE_LIMIT) return;
          const held = Buffer.concat(small);
          small = null;
          feed(held, false);
        } else feed(chunk, false);
      } catch (error) {
        stop(error);
      }
    };
    const onEnd = () => {
      payload.removeListener('data', onData);
      payload.removeListener('error', stop);
      try {
        if (small) {
          const text = utf8Text(small.length === 1 ? small[0]! : Buffer.concat(small));
          if (text.trim() === '') throw new JsonSyntaxError('the body is empty');
          let value: unknown;
          try {
            value = JSON.parse(text);
          } catch (error) {
            throw new JsonSyntaxError((error as Error).message);
          }
          checkParsed(value);
          if (value !== null && typeof value === 'object') texts.set(value, text);
          return resolve(value);
        }
        feed(Buffer.alloc(0), true);
        resolve(parser!.end());
      } catch (error) {
        stop(error);
      }
    };
    payload.on('data', onData);
    payload.on('end', onEnd);
    payload.on('error', stop);
  });
}

/** Installs the reader for `application/json` in a route scope. */
export function readJsonBodies(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', readJsonBody);
}
