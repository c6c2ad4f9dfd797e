/**
 * What Google's generateContent refuses with a 400, as the Gemini stand-in checks it: field names
 * (proto messages reject unknown ones), the OpenAPI schema subset, paired function calls and
 * responses, thought signatures on Gemini 3 and its thinking configuration.
 */
import { unknownKeys } from './model-behaviour.js';

export class GeminiRefusal extends Error {}

/** Google's documented values that skip signature validation when none can be recovered. */
export const SKIP_SIGNATURES = ['skip_thought_signature_validator', 'context_engineering_is_the_way_to_go'];

type Json = Record<string, any>;

const FIELDS = {
  request: [
    'model',
    'contents',
    'systemInstruction',
    'tools',
    'toolConfig',
    'generationConfig',
    'safetySettings',
    'cachedContent',
    'labels',
  ],
  content: ['role', 'parts'],
  part: [
    'text',
    'thought',
    'thoughtSignature',
    'inlineData',
    'fileData',
    'functionCall',
    'functionResponse',
    'executableCode',
    'codeExecutionResult',
    'videoMetadata',
    'mediaResolution',
  ],
  generationConfig: [
    'stopSequences',
    'responseMimeType',
    'responseSchema',
    'responseJsonSchema',
    'responseModalities',
    'candidateCount',
    'maxOutputTokens',
    'temperature',
    'topP',
    'topK',
    'seed',
    'presencePenalty',
    'frequencyPenalty',
    'responseLogprobs',
    'logprobs',
    'enableEnhancedCivicAnswers',
    'speechConfig',
    'thinkingConfig',
    'mediaResolution',
    'imageConfig',
  ],
  thinkingConfig: ['includeThoughts', 'thinkingBudget', 'thinkingLevel'],
  tool: ['functionDeclarations', 'googleSearch', 'googleSearchRetrieval', 'codeExecution', 'urlContext'],
  declaration: ['name', 'description', 'parameters', 'parametersJsonSchema', 'response', 'responseJsonSchema', 'behavior'],
  toolConfig: ['functionCallingConfig'],
  callingConfig: ['mode', 'allowedFunctionNames'],
  functionCall: ['id', 'name', 'args'],
  functionResponse: ['id', 'name', 'response', 'parts', 'willContinue', 'scheduling'],
  schema: [
    'type',
    'format',
    'title',
    'description',
    'nullable',
    'enum',
    'maxItems',
    'minItems',
    'properties',
    'required',
    'minProperties',
    'maxProperties',
    'minLength',
    'maxLength',
    'pattern',
    'example',
    'anyOf',
    'propertyOrdering',
    'default',
    'items',
    'minimum',
    'maximum',
  ],
} as const;

function known(value: unknown, fields: readonly string[], at: string): void {
  const extra = unknownKeys(value, fields);
  if (extra.length > 0)
    throw new GeminiRefusal(`Invalid JSON payload received. Unknown name "${extra[0]}" at '${at}': Cannot find field.`);
}

/** Gemini's OpenAPI schema subset (`parameters`, `responseSchema`): no JSON Schema extras. */
function checkSchema(schema: unknown, at: string): void {
  if (!schema || typeof schema !== 'object') return;
  known(schema, FIELDS.schema, at);
  const s = schema as Json;
  for (const [name, sub] of Object.entries((s.properties ?? {}) as Json)) checkSchema(sub, `${at}.properties[${name}].value`);
  if (s.items) checkSchema(s.items, `${at}.items`);
  for (const [i, sub] of ((s.anyOf ?? []) as unknown[]).entries()) checkSchema(sub, `${at}.any_of[${i}]`);
}

function checkStructure(body: Json): void {
  known(body, FIELDS.request, '');
  if (!Array.isArray(body.contents) || body.contents.length === 0)
    throw new GeminiRefusal('* GenerateContentRequest.contents: contents is not specified');
  const contents: Json[] = [...body.contents, ...(body.systemInstruction ? [body.systemInstruction] : [])];
  contents.forEach((content, i) => {
    known(content, FIELDS.content, `contents[${i}]`);
    if (!Array.isArray(content.parts) || content.parts.length === 0)
      throw new GeminiRefusal(`* GenerateContentRequest.contents[${i}].parts: contents.parts must not be empty.`);
    (content.parts as Json[]).forEach((part, j) => {
      known(part, FIELDS.part, `contents[${i}].parts[${j}]`);
      if (part.functionCall) known(part.functionCall, FIELDS.functionCall, `contents[${i}].parts[${j}].function_call`);
      if (part.functionResponse)
        known(part.functionResponse, FIELDS.functionResponse, `contents[${i}].parts[${j}].function_response`);
    });
  });
  const config = (body.generationConfig ?? {}) as Json;
  known(config, FIELDS.generationConfig, 'generation_config');
  if (config.thinkingConfig) known(config.thinkingConfig, FIELDS.thinkingConfig, 'generation_config.thinking_config');
  if (config.responseSchema) checkSchema(config.responseSchema, 'generation_config.response_schema');
  if (config.responseSchema && config.responseJsonSchema)
    throw new GeminiRefusal('response_schema and response_json_schema cannot both be set.');
  if ((config.responseSchema || config.responseJsonSchema) && config.responseMimeType !== 'application/json')
    throw new GeminiRefusal('response_mime_type must be application/json when a response schema is set.');
  for (const [i, tool] of ((body.tools ?? []) as Json[]).entries()) {
    known(tool, FIELDS.tool, `tools[${i}]`);
    for (const [j, d] of ((tool.functionDeclarations ?? []) as Json[]).entries()) {
      known(d, FIELDS.declaration, `tools[${i}].function_declarations[${j}]`);
      if (d.parameters && d.parametersJsonSchema)
        throw new GeminiRefusal('parameters and parameters_json_schema cannot both be set.');
      checkSchema(d.parameters, `tools[${i}].function_declarations[${j}].parameters`);
    }
  }
  if (body.toolConfig) {
    known(body.toolConfig, FIELDS.toolConfig, 'tool_config');
    known(body.toolConfig.functionCallingConfig, FIELDS.callingConfig, 'tool_config.function_calling_config');
  }
}

/** Each function-call turn is answered by the next turn, one functionResponse a call. */
function checkPairs(contents: Json[]): void {
  contents.forEach((content, i) => {
    const calls = (content.parts as Json[]).filter((p) => p.functionCall).length;
    const responses = (content.parts as Json[]).filter((p) => p.functionResponse).length;
    const before = i > 0 ? (contents[i - 1]!.parts as Json[]).filter((p) => p.functionCall).length : 0;
    if (responses > 0 && before === 0)
      throw new GeminiRefusal('Please ensure that function response turn comes immediately after a function call turn.');
    if (calls > 0 && i + 1 < contents.length) {
      const next = (contents[i + 1]!.parts as Json[]).filter((p) => p.functionResponse).length;
      if (next !== calls)
        throw new GeminiRefusal(
          'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.',
        );
    }
  });
}

/** The contents of the current turn: from the last user text on (a turn's steps answer function calls). */
export function currentTurn(contents: Json[]): Json[] {
  let start = 0;
  contents.forEach((c, i) => {
    if (c.role !== 'model' && (c.parts as Json[]).some((p) => typeof p.text === 'string')) start = i;
  });
  return contents.slice(start);
}

/** What a signature the stand-in issued signs: the call it came on (`name(args)`), or a text part. */
export const signedCall = (call: Json): string => `${call.name}(${JSON.stringify(call.args ?? {})})`;

/**
 * Gemini 3: in the current turn, each step's first functionCall part carries the signature the API
 * issued on that call (or a documented skip value); one issued on another call or on text is refused.
 * Returns how many skip values stood in.
 */
function checkSignatures(contents: Json[], signatures: ReadonlyMap<string, string>): number {
  let skipped = 0;
  for (const content of currentTurn(contents)) {
    if (content.role !== 'model') continue;
    const parts = content.parts as Json[];
    const first = parts.findIndex((p) => p.functionCall);
    if (first === -1) continue;
    const signature = parts[first]!.thoughtSignature;
    if (signature === undefined)
      throw new GeminiRefusal(
        `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${parts[first]!.functionCall.name}\` , position ${first + 1}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`,
      );
    if (SKIP_SIGNATURES.includes(signature)) skipped += 1;
    else if (signatures.get(signature) !== signedCall(parts[first]!.functionCall))
      throw new GeminiRefusal('Corrupted thought signature.');
  }
  return skipped;
}

function checkThinking(model: string, config: Json | undefined): void {
  if (!config) return;
  const gemini3 = model.startsWith('gemini-3');
  const thinkingBudget = config.thinkingBudget as unknown;
  if (
    /^gemini-(?:1\.|2\.0)/.test(model) &&
    (config.thinkingLevel !== undefined || (typeof thinkingBudget === 'number' && thinkingBudget > 0))
  )
    throw new GeminiRefusal('Thinking is not supported for this model.');
  if (config.thinkingLevel !== undefined) {
    if (!gemini3) throw new GeminiRefusal('Thinking level is not supported for this model.');
    if (config.thinkingBudget !== undefined)
      throw new GeminiRefusal('You can only set only one of thinking budget and thinking level.');
    if (!['minimal', 'low', 'medium', 'high'].includes(String(config.thinkingLevel).toLowerCase()))
      throw new GeminiRefusal(`Invalid value at 'generation_config.thinking_config.thinking_level': ${config.thinkingLevel}`);
  }
  const budget = config.thinkingBudget;
  if (budget === undefined) return;
  if (!Number.isInteger(budget) || budget < -1 || budget > 32768)
    throw new GeminiRefusal('The thinking budget is out of range; please adjust the budget to be between 0 and 32768.');
  if (budget === 0 && model.includes('-pro'))
    throw new GeminiRefusal('Budget 0 is invalid. This model only works in thinking mode.');
}

/**
 * Refuses what Google refuses; returns how many skip values stood in for signatures. `signatures`:
 * each signature issued, with what it signs (`signedCall`, or `text`).
 */
export function checkGeminiRequest(model: string, body: Json, signatures: ReadonlyMap<string, string>, action: string): number {
  checkStructure(body);
  if (action === 'countTokens') return 0;
  checkPairs(body.contents);
  const skipped = model.startsWith('gemini-3') ? checkSignatures(body.contents, signatures) : 0;
  checkThinking(model, body.generationConfig?.thinkingConfig);
  return skipped;
}
