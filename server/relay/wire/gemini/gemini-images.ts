/**
 * OpenAI's /v1/images/generations over Gemini's image models (generateContent answering images as
 * inlineData parts), both ways. Pure functions over parsed JSON.
 *
 * - size → imageConfig.aspectRatio, the nearest ratio Gemini offers when one is near ('auto' or none:
 *   the model's choice); another size is refused, as is n > 1 (one image per call) and
 *   response_format 'url' (the images come back as bytes, never as links);
 * - the answer's images → data[].b64_json, its text → revised_prompt, its usageMetadata → usage in
 *   gpt-image-1's shape (input text/image tokens, output tokens) and the billing usage.
 */
import type { Usage } from '../../../billing/pricing.js';
import type { GeminiResponse, GeminiUsageMetadata } from './gemini-api-types.js';

type Json = Record<string, unknown>;

const RATIOS = ['1:1', '2:3', '3:2', '3:4', '4:3', '4:5', '5:4', '9:16', '16:9', '21:9'];

/** OpenAI's sizes are near, not on, Gemini's ratios (1792x1024 is 7:4): within this share they map. */
const TOLERANCE = 0.03;

/** The aspect ratio nearest `WxH` among Gemini's; undefined for no size or 'auto'; null when none is near. */
export function aspectRatioOf(size: unknown): string | undefined | null {
  if (size === undefined || size === null || size === 'auto') return undefined;
  const match = typeof size === 'string' ? /^(\d{1,5})x(\d{1,5})$/.exec(size) : null;
  if (!match || Number(match[1]) === 0 || Number(match[2]) === 0) return null;
  const wanted = Number(match[1]) / Number(match[2]);
  let best: { ratio: string; off: number } | null = null;
  for (const ratio of RATIOS) {
    const [w, h] = ratio.split(':').map(Number) as [number, number];
    const off = Math.abs(w / h - wanted) / wanted;
    if (off <= TOLERANCE && (!best || off < best.off)) best = { ratio, off };
  }
  return best?.ratio ?? null;
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

function imagesOf(response: GeminiResponse): Json[] {
  const data: Json[] = [];
  for (const candidate of response.candidates ?? []) {
    for (const part of candidate.content?.parts ?? []) {
      if (part.inlineData?.mimeType.startsWith('image/') && part.inlineData.data) data.push({ b64_json: part.inlineData.data });
    }
  }
  return data;
}

/** Why a 200 answer carries no image (a blocked prompt, a refusal in words), or null when it has one. */
export function missingImage(response: GeminiResponse): string | null {
  if (imagesOf(response).length > 0) return null;
  const why = response.promptFeedback?.blockReason ?? response.candidates?.[0]?.finishReason ?? 'no image part';
  return `Gemini answered without an image (${why})`;
}

/** The answer in OpenAI's images shape with its billing usage; throws when no image came back. */
export function convertGeminiImageResponse(response: GeminiResponse): { completion: Json; usage: Usage } {
  const missing = missingImage(response);
  if (missing) throw new Error(missing);
  const data = imagesOf(response);
  const texts: string[] = [];
  for (const candidate of response.candidates ?? []) {
    for (const part of candidate.content?.parts ?? []) if (typeof part.text === 'string' && !part.thought) texts.push(part.text);
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
