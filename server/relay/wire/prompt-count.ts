/**
 * A prompt's tokens counted locally, for answers that must name a count the upstream did not give
 * (token counting toward another protocol, a converted Claude stream's message_start). Text — system,
 * messages, tool calls and results, tool definitions — goes through the local tokenizer (`count`);
 * images follow each provider's documented rule:
 *
 * - Claude: width × height / 750 after fitting the long edge to 1568 px; an image given by link,
 *   whose size is unknown, as the largest (≈1600). Tools add Claude's tool-use system prompt: 346
 *   tokens with tool_choice auto or none, 313 with any or a named tool (the Claude 4 family's figures).
 * - Gemini: 258 tokens for an image within 384 × 384 px, else 258 for each 768 × 768 tile; a file
 *   given by URI as one tile.
 */
import { imageSizeOf } from './image-size.js';

type Json = Record<string, unknown>;
type Count = (text: string) => number;

const obj = (v: unknown): Json | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : null);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

const CLAUDE_LONG_EDGE = 1568;
const CLAUDE_UNKNOWN_IMAGE = 1600;
const CLAUDE_TOOLS_AUTO = 346;
const CLAUDE_TOOLS_FORCED = 313;
const GEMINI_TILE = 768;
const GEMINI_SMALL = 384;
const GEMINI_TILE_TOKENS = 258;

export function claudeImageTokens(base64: string | null): number {
  const size = base64 === null ? null : imageSizeOf(base64);
  if (!size) return CLAUDE_UNKNOWN_IMAGE;
  const scale = Math.min(1, CLAUDE_LONG_EDGE / Math.max(size.width, size.height, 1));
  return Math.ceil((size.width * scale * (size.height * scale)) / 750);
}

export function geminiImageTokens(base64: string | null): number {
  const size = base64 === null ? null : imageSizeOf(base64);
  if (!size) return GEMINI_TILE_TOKENS;
  if (size.width <= GEMINI_SMALL && size.height <= GEMINI_SMALL) return GEMINI_TILE_TOKENS;
  return Math.ceil(size.width / GEMINI_TILE) * Math.ceil(size.height / GEMINI_TILE) * GEMINI_TILE_TOKENS;
}

/** Claude content (a string or blocks): its text, and its images counted apart. */
function claudeContent(content: unknown, texts: string[]): number {
  if (typeof content === 'string') {
    texts.push(content);
    return 0;
  }
  let images = 0;
  for (const item of list(content)) {
    const block = obj(item);
    if (!block) continue;
    if (typeof block.text === 'string') texts.push(block.text);
    if (typeof block.thinking === 'string') texts.push(block.thinking);
    if (block.type === 'tool_use') texts.push(String(block.name ?? ''), JSON.stringify(block.input ?? {}));
    if (block.type === 'tool_result') images += claudeContent(block.content, texts);
    if (block.type === 'image') {
      const source = obj(block.source);
      images += claudeImageTokens(source?.type === 'base64' && typeof source.data === 'string' ? source.data : null);
    }
  }
  return images;
}

/** A Claude Messages request (or its count_tokens body). */
export function claudePromptTokens(body: Json, count: Count): number {
  const texts: string[] = [];
  let images = claudeContent(body.system, texts);
  for (const message of list(body.messages)) images += claudeContent(obj(message)?.content, texts);
  const tools = list(body.tools).filter(obj);
  let overhead = 0;
  if (tools.length > 0) {
    texts.push(JSON.stringify(tools));
    const choice = obj(body.tool_choice)?.type;
    overhead = choice === 'any' || choice === 'tool' ? CLAUDE_TOOLS_FORCED : CLAUDE_TOOLS_AUTO;
  }
  return count(texts.join('\n')) + images + overhead;
}

function geminiContent(content: unknown, texts: string[]): number {
  let images = 0;
  for (const item of list(obj(content)?.parts)) {
    const part = obj(item);
    if (!part) continue;
    if (typeof part.text === 'string') texts.push(part.text);
    const call = obj(part.functionCall);
    if (call) texts.push(String(call.name ?? ''), JSON.stringify(call.args ?? {}));
    const response = obj(part.functionResponse);
    if (response) texts.push(String(response.name ?? ''), JSON.stringify(response.response ?? {}));
    const inline = obj(part.inlineData);
    if (inline) images += geminiImageTokens(typeof inline.data === 'string' ? inline.data : null);
    if (obj(part.fileData)) images += geminiImageTokens(null);
  }
  return images;
}

/** A Gemini generateContent request (or a countTokens body: `contents` or `generateContentRequest`). */
export function geminiPromptTokens(body: Json, count: Count): number {
  const request = obj(body.generateContentRequest) ?? body;
  const texts: string[] = [];
  let images = geminiContent(request.systemInstruction ?? request.system_instruction, texts);
  for (const content of list(request.contents)) images += geminiContent(content, texts);
  const declarations = list(request.tools).flatMap((t) => list(obj(t)?.functionDeclarations));
  if (declarations.length > 0) texts.push(JSON.stringify(declarations));
  return count(texts.join('\n')) + images;
}
