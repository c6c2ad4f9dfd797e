/**
 * OpenAI's /v1/images/generations over Gemini's image models (generateContent answering images as
 * inlineData parts), both ways. Pure functions over parsed JSON.
 *
 * - size → imageConfig.aspectRatio when the size reduces to a ratio Gemini offers ('auto' or none:
 *   the model's choice); another size is refused, as is n > 1 (one image per call) and
 *   response_format 'url' (the images come back as bytes, never as links);
 * - the answer's images → data[].b64_json, its text → revised_prompt, its usageMetadata → usage in
 *   gpt-image-1's shape (input text/image tokens, output tokens) and the billing usage.
 */
import type { Usage } from '../../../billing/pricing.js';
import type { GeminiResponse, GeminiUsageMetadata } from './gemini-api-types.js';

type Json = Record<string, unknown>;

const RATIOS = ['1:1', '2:3', '3:2', '3:4', '4:3', '4:5', '5:4', '9:16', '16:9', '21:9'];

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** The aspect ratio of `WxH`, when Gemini offers it; undefined for no size or 'auto'; null otherwise. */
export function aspectRatioOf(size: unknown): string | undefined | null {
  if (size === undefined || size === null || size === 'auto') return undefined;
  const match = typeof size === 'string' ? /^(\d{1,5})x(\d{1,5})$/.exec(size) : null;
  if (!match) return null;
  const width = Number(match[1]);
  const height = Number(match[2]);
  if (width === 0 || height === 0) return null;
  const d = gcd(width, height);
  const ratio = `${width / d}:${height / d}`;
  return RATIOS.includes(ratio) ? ratio : null;
}

export type GeminiImagePlan = { ok: true; body: Json } | { ok: false; message: string };

export function convertToGeminiImageRequest(request: Json): GeminiImagePlan {
  const prompt = request.prompt;
  if (typeof prompt !== 'string' || prompt.trim() === '') return { ok: false, message: 'prompt is required' };
  const n = request.n ?? 1;
  if (n !== 1) return { ok: false, message: 'Gemini image models make one image per call: n must be 1' };
  if (request.response_format === 'url') {
    return { ok: false, message: "Gemini image models answer images as bytes: use response_format 'b64_json'" };
  }
  const aspectRatio = aspectRatioOf(request.size);
  if (aspectRatio === null) {
    return { ok: false, message: `size ${JSON.stringify(request.size)} has no Gemini aspect ratio (${RATIOS.join(', ')})` };
  }
  const generationConfig: Json = { responseModalities: ['IMAGE'] };
  if (aspectRatio) generationConfig.imageConfig = { aspectRatio };
  return { ok: true, body: { contents: [{ role: 'user', parts: [{ text: prompt }] }], generationConfig } };
}

type ModalityCount = { modality?: string; tokenCount?: number };
type ImageUsageMetadata = GeminiUsageMetadata & {
  promptTokensDetails?: ModalityCount[];
  candidatesTokensDetails?: ModalityCount[];
};

function countOf(details: ModalityCount[] | undefined, modality: string): number {
  return (details ?? []).reduce((sum, d) => sum + (d.modality === modality ? (d.tokenCount ?? 0) : 0), 0);
}

/** The answer in OpenAI's images shape with its billing usage; throws when no image came back. */
export function convertGeminiImageResponse(response: GeminiResponse): { completion: Json; usage: Usage } {
  const data: Json[] = [];
  const texts: string[] = [];
  for (const candidate of response.candidates ?? []) {
    for (const part of candidate.content?.parts ?? []) {
      if (part.inlineData?.mimeType.startsWith('image/') && part.inlineData.data) data.push({ b64_json: part.inlineData.data });
      else if (typeof part.text === 'string' && !part.thought) texts.push(part.text);
    }
  }
  if (data.length === 0) {
    const why = response.promptFeedback?.blockReason ?? response.candidates?.[0]?.finishReason ?? 'no image part';
    throw new Error(`Gemini answered without an image (${why})`);
  }
  const revised = texts.join('').trim();
  if (revised !== '') for (const item of data) item.revised_prompt = revised;
  const meta = (response.usageMetadata ?? {}) as ImageUsageMetadata;
  const input = (meta.promptTokenCount ?? 0) + (meta.toolUsePromptTokenCount ?? 0);
  // Thinking is output the model is paid for, as on chat.
  const output = (meta.candidatesTokenCount ?? 0) + (meta.thoughtsTokenCount ?? 0);
  const cached = meta.cachedContentTokenCount ?? 0;
  const inputImages = countOf(meta.promptTokensDetails, 'IMAGE');
  const completion: Json = {
    created: Math.floor(Date.now() / 1000),
    data,
    usage: {
      input_tokens: input,
      output_tokens: output,
      total_tokens: input + output,
      input_tokens_details: { text_tokens: input - inputImages, image_tokens: inputImages },
      output_tokens_details: { image_tokens: countOf(meta.candidatesTokensDetails, 'IMAGE') },
    },
  };
  return { completion, usage: { promptTokens: input, completionTokens: output, cachedTokens: cached } };
}
