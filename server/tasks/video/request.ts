/**
 * A client's `POST /v1/videos` read into a VideoRequest: JSON, or multipart with the image as the
 * `input_reference` file (JSON takes it as a `data:` URL). Checked against one schema either way,
 * before anything is charged.
 */
import { Type } from '@sinclair/typebox';
import { edgeCheck } from '../../relay/wire/edge-check.js';
import { relayErrors } from '../../relay/errors.js';
import type { VideoRequest } from './platform.js';

export const DEFAULT_SECONDS = 4;
export const DEFAULT_SIZE = '720x1280';
const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp']);

const check = edgeCheck(
  Type.Object({
    model: Type.String({ minLength: 1, maxLength: 128 }),
    prompt: Type.String({ minLength: 1, maxLength: 32_000 }),
    seconds: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 60 }), Type.String({ pattern: '^[1-9][0-9]?$' })])),
    size: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{1,4}x[1-9][0-9]{1,4}$' })),
    input_reference: Type.Optional(Type.String({ maxLength: 16 * 1024 * 1024 })),
  }),
);

function fromDataUrl(url: string): { data: Buffer; mime: string } {
  const m = /^data:(image\/[a-z]+);base64,([A-Za-z0-9+/=\s]+)$/.exec(url);
  if (!m) throw relayErrors.badBody('input_reference: a data:image/…;base64 URL (or a multipart file)');
  return image(Buffer.from(m[2]!, 'base64'), m[1]!);
}

function image(data: Buffer, mime: string): { data: Buffer; mime: string } {
  if (!IMAGE_TYPES.has(mime)) throw relayErrors.badBody('input_reference: PNG, JPEG or WebP');
  if (data.length === 0 || data.length > MAX_IMAGE_BYTES) throw relayErrors.badBody('input_reference: 1 byte to 10 MB');
  return { data, mime };
}

function toRequest(body: Record<string, unknown>, file?: { data: Buffer; mime: string }): VideoRequest {
  const ref = typeof body.input_reference === 'string' ? fromDataUrl(body.input_reference) : file;
  return {
    model: body.model as string,
    prompt: body.prompt as string,
    seconds: body.seconds === undefined ? DEFAULT_SECONDS : Number(body.seconds),
    size: (body.size as string | undefined) ?? DEFAULT_SIZE,
    ...(ref ? { image: ref } : {}),
  };
}

/** A JSON body (already parsed) or a multipart one (raw bytes with their content type). */
export async function readVideoRequest(body: unknown, contentType: string | undefined): Promise<VideoRequest> {
  if (!Buffer.isBuffer(body)) return toRequest(check(body));
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(body), { headers: { 'content-type': contentType ?? '' } }).formData();
  } catch {
    throw relayErrors.badBody('unreadable multipart body');
  }
  const fields: Record<string, unknown> = {};
  let file: { data: Buffer; mime: string } | undefined;
  for (const [key, value] of form) {
    if (typeof value === 'string') fields[key] = value;
    else if (key === 'input_reference') file = image(Buffer.from(await value.arrayBuffer()), value.type);
  }
  return toRequest(check(fields), file);
}
