/**
 * Gemini takes images inline (base64) or as files it already holds, not as arbitrary links. Before
 * an OpenAI chat body is converted for Gemini, images given by http(s) link are fetched — through
 * the SSRF-safe fetcher, since the link is the client's — and replaced by data URLs. The converter
 * itself stays pure.
 */
import { safeFetch } from '../../../http/safe-fetch.js';
import { refusedCall } from '../refusal.js';
import type { PreparedCall } from '../types.js';
import type { OpenAIChatRequest, OpenAIContentPart } from '../../wire/openai/openai-types.js';

/** Gemini's limit for a whole inline request is 20 MB; one image may not take more. */
const MAX_IMAGE_BYTES = 20 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 30_000;

/** Why a linked image could not be inlined; the relay answers it as the client's 400. */
class ImageFetchError extends Error {}

/** The http(s) link of an image part, or null (data URLs and other parts stay as they are). */
function linkOf(part: OpenAIContentPart): string | null {
  return part.type === 'image_url' && /^https?:\/\//i.test(part.image_url.url) ? part.image_url.url : null;
}

async function dataUrlOf(url: string): Promise<string> {
  let res;
  try {
    res = await safeFetch(url, {
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
export async function inlineLinkedImages(body: OpenAIChatRequest): Promise<OpenAIChatRequest> {
  const links = new Set<string>();
  for (const m of body.messages) {
    if (!Array.isArray(m.content)) continue;
    for (const part of m.content) {
      const link = linkOf(part);
      if (link) links.add(link);
    }
  }
  if (links.size === 0) return body;
  const urls = [...links];
  const data = new Map(await Promise.all(urls.map(async (url) => [url, await dataUrlOf(url)] as const)));
  return {
    ...body,
    messages: body.messages.map((m) => {
      if (!Array.isArray(m.content)) return m;
      const content = m.content.map((part): OpenAIContentPart => {
        const link = linkOf(part);
        return link && part.type === 'image_url' ? { ...part, image_url: { ...part.image_url, url: data.get(link)! } } : part;
      });
      return { ...m, content };
    }),
  };
}

/**
 * A Gemini-bound call built from the body with its linked images inlined; when one cannot be
 * fetched, a refused call (the client's 400, no upstream contacted — send with sendUnlessRefused).
 */
export async function withInlinedImages(
  body: OpenAIChatRequest,
  build: (body: OpenAIChatRequest) => PreparedCall | Promise<PreparedCall>,
): Promise<PreparedCall> {
  let inlined: OpenAIChatRequest;
  try {
    inlined = await inlineLinkedImages(body);
  } catch (err) {
    if (err instanceof ImageFetchError) return refusedCall(err.message);
    throw err;
  }
  return build(inlined);
}
