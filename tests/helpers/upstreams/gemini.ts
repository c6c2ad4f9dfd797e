/**
 * A scripted stand-in for Google's Gemini API that refuses what the real API refuses: unknown
 * fields (at any level the gateway writes), function calls and responses that do not pair up, a
 * Gemini 3 step's first functionCall sent back without its thought signature (or with one it never
 * issued), a thinking level on a model without levels, a schema without the JSON mime type.
 *
 * What it answers, by the request: when tools are declared (and not turned off), a call of each
 * declared function in turn, one step each (a multi-step run: each step's call signed on Gemini 3),
 * then text about the tool results; JSON matching responseSchema /
 * responseJsonSchema, a thought part with includeThoughts; usage by the stand-ins' own token rule
 * (model-behaviour.ts), the last figures kept in `lastUsage`. Also embedContent,
 * batchEmbedContents and countTokens.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { RecordedRequest } from './openai.js';
import { listenLocally, parseBody, readBody, sendJson } from './stand-in-server.js';
import { sampleOf, standInTokens, stringsIn, unknownKeys } from './model-behaviour.js';
import { checkGeminiRequest, currentTurn, GeminiRefusal, signedCall } from './gemini-checks.js';

export interface GeminiUsage {
  promptTokenCount: number;
  candidatesTokenCount: number;
  thoughtsTokenCount?: number;
  totalTokenCount: number;
}

export interface GeminiStandIn {
  url: string;
  requests: RecordedRequest[];
  /** The usage of the last generateContent answer. */
  lastUsage: GeminiUsage | null;
  /** The usage of every generateContent answer, in order. */
  usages: GeminiUsage[];
  /** How many function-call steps came back with Google's skip value instead of their signature. */
  skippedSignatures: number;
  close(): Promise<void>;
}

type Json = Record<string, any>;

const refuse = (res: ServerResponse, status: number, message: string) =>
  sendJson(res, status, { error: { code: status, message, status: status === 404 ? 'NOT_FOUND' : 'INVALID_ARGUMENT' } });

/** Deterministic vector for a text. */
function vectorOf(text: string, dimensions: number): number[] {
  let seed = 0;
  for (const ch of text) seed = (seed * 31 + ch.charCodeAt(0)) % 9973;
  return Array.from({ length: dimensions }, (_, i) => Math.round(((seed + i * 37) % 200) - 100) / 1000);
}

function promptCount(body: Json): number {
  return standInTokens(stringsIn([body.contents, body.systemInstruction, body.tools]));
}

/** Whether thinking is on: Gemini 2.5 and 3 think unless the budget is 0. */
function thinks(body: Json): boolean {
  return body.generationConfig?.thinkingConfig?.thinkingBudget !== 0;
}

function answerParts(model: string, body: Json, signatures: Map<string, string>): Json[] {
  const config = body.generationConfig ?? {};
  const parts: Json[] = [];
  const sign = (what: string) => {
    const signature = randomBytes(24).toString('base64');
    signatures.set(signature, what);
    return signature;
  };
  const gemini3 = model.startsWith('gemini-3');
  if (config.thinkingConfig?.includeThoughts && thinks(body)) parts.push({ text: 'Thinking it over.', thought: true });
  const last = body.contents.at(-1) as Json;
  const declarations: Json[] = (body.tools ?? []).flatMap((t: Json) => t.functionDeclarations ?? []);
  const mode = body.toolConfig?.functionCallingConfig?.mode ?? 'AUTO';
  const answered = (last.parts as Json[]).some((p) => p.functionResponse);
  const called = new Set(
    currentTurn(body.contents)
      .flatMap((c: Json) => c.parts as Json[])
      .flatMap((p) => (p.functionCall ? [p.functionCall.name] : [])),
  );
  const allowed: string[] | undefined = body.toolConfig?.functionCallingConfig?.allowedFunctionNames;
  const callable = mode === 'NONE' ? [] : declarations.filter((d) => !allowed || allowed.includes(d.name));
  const declaration = callable.find((d) => !called.has(d.name));
  if (declaration) {
    const call = {
      name: declaration.name,
      args: sampleOf(declaration.parametersJsonSchema ?? declaration.parameters ?? { type: 'object' }),
    };
    parts.push({ functionCall: call, ...(gemini3 ? { thoughtSignature: sign(signedCall(call)) } : {}) });
  } else if (answered) {
    const results = (last.parts as Json[])
      .filter((p) => p.functionResponse)
      .map((p) => JSON.stringify(p.functionResponse.response));
    parts.push({ text: `The tool answered ${results.join(' and ')}.` });
  } else {
    const schema = config.responseJsonSchema ?? config.responseSchema;
    const text = schema
      ? JSON.stringify(sampleOf(schema))
      : config.responseMimeType === 'application/json'
        ? '{"answer":"sample"}'
        : 'Hello from the Gemini stand-in.';
    parts.push({ text, ...(gemini3 ? { thoughtSignature: sign('text') } : {}) });
  }
  return parts;
}

function usageFor(body: Json, parts: Json[]): GeminiUsage {
  const promptTokenCount = promptCount(body);
  const candidatesTokenCount = standInTokens(stringsIn(parts.filter((p) => !p.thought).map((p) => [p.text, p.functionCall])));
  const thoughtsTokenCount = thinks(body) ? 20 : 0;
  return {
    promptTokenCount,
    candidatesTokenCount,
    ...(thoughtsTokenCount ? { thoughtsTokenCount } : {}),
    totalTokenCount: promptTokenCount + candidatesTokenCount + thoughtsTokenCount,
  };
}

function embed(res: ServerResponse, model: string, action: string, body: Json): void {
  const single = (request: Json, batch: boolean) => {
    const known = ['content', 'taskType', 'title', 'outputDimensionality', 'model'];
    const extra = unknownKeys(request, known);
    if (extra.length > 0)
      throw new GeminiRefusal(`Invalid JSON payload received. Unknown name "${extra[0]}": Cannot find field.`);
    if (batch && request.model !== `models/${model}`)
      throw new GeminiRefusal(`Model names should be the same in all requests and in the URL: ${String(request.model)}`);
    const text = ((request.content?.parts ?? []) as Json[]).map((p) => p.text ?? '').join('');
    return { values: vectorOf(text, request.outputDimensionality ?? 8) };
  };
  if (action === 'embedContent') return sendJson(res, 200, { embedding: single(body, false) });
  const extra = unknownKeys(body, ['requests']);
  if (extra.length > 0 || !Array.isArray(body.requests) || body.requests.length === 0)
    throw new GeminiRefusal('* BatchEmbedContentsRequest.requests: contents is not specified');
  return sendJson(res, 200, { embeddings: body.requests.map((r: Json) => single(r, true)) });
}

function countTokens(res: ServerResponse, model: string, body: Json): void {
  const extra = unknownKeys(body, ['contents', 'generateContentRequest']);
  if (extra.length > 0) throw new GeminiRefusal(`Invalid JSON payload received. Unknown name "${extra[0]}": Cannot find field.`);
  if (body.contents && body.generateContentRequest)
    throw new GeminiRefusal('contents and generate_content_request cannot both be set.');
  const request: Json = body.generateContentRequest ?? { contents: body.contents ?? [] };
  if (body.generateContentRequest) checkGeminiRequest(model, { ...request, model: undefined }, new Map(), 'countTokens');
  const totalTokens = promptCount(request);
  sendJson(res, 200, { totalTokens, promptTokensDetails: [{ modality: 'TEXT', tokenCount: totalTokens }] });
}

export async function startGeminiStandIn(): Promise<GeminiStandIn> {
  const signatures = new Map<string, string>();
  const state: GeminiStandIn = {
    url: '',
    requests: [],
    lastUsage: null,
    usages: [],
    skippedSignatures: 0,
    close: async () => undefined,
  };

  function generate(res: ServerResponse, model: string, body: Json, stream: boolean): void {
    state.skippedSignatures += checkGeminiRequest(model, body, signatures, 'generateContent');
    const parts = answerParts(model, body, signatures);
    const usage = usageFor(body, parts);
    state.lastUsage = usage;
    state.usages.push(usage);
    const responseId = randomBytes(9).toString('base64url');
    if (!stream) {
      const candidate = { content: { role: 'model', parts }, finishReason: 'STOP', index: 0 };
      return sendJson(res, 200, { candidates: [candidate], usageMetadata: usage, modelVersion: model, responseId });
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    // One chunk a part, a text split in two; the last chunk carries the finish reason and full usage.
    const pieces: Json[] = parts.flatMap((p) => {
      if (typeof p.text !== 'string' || p.thought || p.text.length < 8) return [p];
      const half = Math.floor(p.text.length / 2);
      const { thoughtSignature, ...rest } = p;
      return [
        { ...rest, text: p.text.slice(0, half) },
        { ...p, text: p.text.slice(half), thoughtSignature },
      ];
    });
    pieces.forEach((part, i) => {
      const last = i === pieces.length - 1;
      const chunk = {
        candidates: [{ content: { role: 'model', parts: [part] }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) }],
        usageMetadata: last ? usage : { promptTokenCount: usage.promptTokenCount, totalTokenCount: usage.promptTokenCount },
        modelVersion: model,
        responseId,
      };
      res.write(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
    });
    res.end();
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = parseBody(await readBody(req));
    state.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
    if (!req.headers['x-goog-api-key']) return refuse(res, 403, 'Method doesn\u2019t allow unregistered callers.');
    const match = /^\/v1beta\/models\/([^/:]+):([A-Za-z]+)(\?alt=sse)?$/.exec(req.url ?? '');
    if (!match || req.method !== 'POST') return refuse(res, 404, `Not found: ${req.url}`);
    const [, model = '', action = ''] = match;
    if (!body || typeof body !== 'object') return refuse(res, 400, 'Invalid JSON payload received.');
    try {
      if (action === 'generateContent') return generate(res, model, body, false);
      if (action === 'streamGenerateContent') return generate(res, model, body, true);
      if (action === 'embedContent' || action === 'batchEmbedContents') return embed(res, model, action, body);
      if (action === 'countTokens') return countTokens(res, model, body);
      return refuse(res, 404, `Method not found: ${action}`);
    } catch (err) {
      if (err instanceof GeminiRefusal) return refuse(res, 400, err.message);
      throw err;
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: Error) => {
      if (!res.headersSent) refuse(res, 500, err.message);
      else res.destroy();
    });
  });
  const listening = await listenLocally(server);
  state.url = listening.url;
  state.close = listening.close;
  return state;
}
