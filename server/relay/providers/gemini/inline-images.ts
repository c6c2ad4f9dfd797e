/**
 * Gemini takes images inline (base64) or as files it already holds, not as arbitrary links. Before
 * an OpenAI chat body is converted for Gemini, images given by http(s) link are fetched — through
 * the SSRF-safe fetcher, since the link is the client's — and replaced by data URLs. The converter
 * itself stays pure.
 */
import { privateUpstreamsAllowed, safeFetch } from '../../../http/safe-fetch.js';
import { refusedCall } from '../refusal.js';
import type { PreparedCall } from '../types.js';

/** Gemini's limit for a whole inline request is 20 MB; one image may not take more. */
const MAX_IMAGE_BYTES = 20 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 30_000;

type Json = Record<string, unknown>;

/** Why a linked image could not be inlined; the relay answers it as the client's 400. */
class ImageFetchError extends Error {}

function linkedImage(part: unknown): { image_url: Json; url: string } | null {
  if (!part || typeof part !== 'object') return null;
  const p = part as Json;
  if (p.type !== 'image_url' || !p.image_url || typeof p.image_url !== 'object') return null;
  const url = (p.image_url as Json).url;
  return typeof url === 'string' && /^https?:\/\//i.test(url) ? { image_url: p.image_url as Json, url } : null;
}

async function dataUrlOf(url: string): Promise<string> {
  let res;
  try {
    res = await safeFetch(url, {
      allowPrivate: privateUpstreamsAllowed(),
      timeoutMs: FETCH_TIMEOUT_MS,
      maxBytes: MAX_IMAGE_BYTES,
    });
  } catch (err) {
    throw new ImageFetchError(`无法获取图片 ${url}：${(err as Error).message}`);
  }
  if (res.status < 200 || res.status >= 300) throw new ImageFetchError(`无法获取图片 ${url}：HTTP ${res.status}`);
  const type = String(res.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
  if (!type.startsWith('image/')) throw new ImageFetchError(`链接不是图片 ${url}（${type || '未知类型'}）`);
  return `data:${type};base64,${res.body.toString('base64')}`;
}

/**
 * The body with every linked image replaced by its data URL (fetched concurrently, once per
 * distinct link). Bodies without linked images are returned as they are.
 */
export async function inlineLinkedImages(body: Json): Promise<Json> {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const links = new Set<string>();
  for (const m of messages) {
    const content = (m as Json | null)?.content;
    if (Array.isArray(content)) for (const part of content) if (linkedImage(part)) links.add(linkedImage(part)!.url);
  }
  if (links.size === 0) return body;
  const urls = [...links];
  const inlined = new Map(urls.map((url, i) => [url, i]));
  const data = await Promise.all(urls.map(dataUrlOf));
  return {
    ...body,
    messages: messages.map((m) => {
      const content = (m as Json | null)?.content;
      if (!Array.isArray(content)) return m;
      return {
        ...(m as Json),
        content: content.map((part) => {
          const linked = linkedImage(part);
          return linked ? { ...(part as Json), image_url: { ...linked.image_url, url: data[inlined.get(linked.url)!] } } : part;
        }),
      };
    }),
  };
}

/**
 * A Gemini-bound call built from the body with its linked images inlined; when one cannot be
 * fetched, a refused call (the client's 400, no upstream contacted — send with sendUnlessRefused).
 */
export async function withInlinedImages(
  body: Json,
  build: (body: Json) => PreparedCall | Promise<PreparedCall>,
): Promise<PreparedCall> {
  let inlined: Json;
  try {
    inlined = await inlineLinkedImages(body);
  } catch (err) {
    if (err instanceof ImageFetchError) return refusedCall(err.message);
    throw err;
  }
  return build(inlined);
}
