/**
 * Two-step tool rounds shaped like the coding agents' requests (Claude Code on /v1/messages with
 * `?beta=true` and its beta headers, Codex on /v1/responses, Gemini CLI on /v1beta, Qwen Code on
 * chat): the first step offers a shell tool and gets a call, the second sends the call back with
 * its result the way that agent does (Claude Code its thinking blocks, Codex its reasoning items
 * with encrypted_content, Gemini CLI without its thoughts) and gets text.
 */
type Json = Record<string, any>;

export type Agent = 'claude-code' | 'codex' | 'gemini-cli' | 'qwen-code';

export interface Step {
  status: number;
  body: Json;
}

const SHELL = {
  name: 'run_shell',
  description: 'Runs a shell command and returns its output.',
  parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
};
const SYSTEM = 'You are a coding agent working in the user’s repository.';
const TASK = 'List the files in the current directory.';
const OUTPUT = 'README.md\npackage.json';

async function post(url: string, headers: Record<string, string>, body: Json): Promise<Step> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Json };
}

export interface AgentShape {
  first(model: string): Json;
  /** The second request, from the first and its answer; null when the answer holds no tool call. */
  second(first: Json, answer: Json): Json | null;
  send(base: string, key: string, model: string, body: Json): Promise<Step>;
}

const claudeCode: AgentShape = {
  first: (model) => ({
    model,
    max_tokens: 32000,
    temperature: 1,
    thinking: { type: 'enabled', budget_tokens: 31999 },
    system: [{ type: 'text', text: SYSTEM, cache_control: { type: 'ephemeral' } }],
    messages: [{ role: 'user', content: [{ type: 'text', text: TASK, cache_control: { type: 'ephemeral' } }] }],
    tools: [{ name: SHELL.name, description: SHELL.description, input_schema: SHELL.parameters }],
    metadata: { user_id: 'user_0123_account__session_4567' },
  }),
  second(first, answer) {
    const use = (answer.content as Json[]).find((b) => b.type === 'tool_use');
    if (!use) return null;
    const result = { type: 'tool_result', tool_use_id: use.id, content: OUTPUT };
    return {
      ...first,
      messages: [...first.messages, { role: 'assistant', content: answer.content }, { role: 'user', content: [result] }],
    };
  },
  send: (base, key, _model, body) =>
    post(
      `${base}/v1/messages?beta=true`,
      {
        'x-api-key': key,
        'anthropic-version': '2023-06-01',
        'anthropic-beta': 'claude-code-20250219,interleaved-thinking-2025-05-14,fine-grained-tool-streaming-2025-05-14',
      },
      body,
    ),
};

const codex: AgentShape = {
  first: (model) => ({
    model,
    instructions: SYSTEM,
    input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: TASK }] }],
    tools: [{ type: 'function', strict: false, ...SHELL }],
    tool_choice: 'auto',
    parallel_tool_calls: false,
    reasoning: { effort: 'medium', summary: 'auto' },
    store: false,
    include: ['reasoning.encrypted_content'],
    prompt_cache_key: '0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
  }),
  second(first, answer) {
    const output = answer.output as Json[];
    const call = output.find((i) => i.type === 'function_call');
    if (!call) return null;
    // Codex sends back every output item (reasoning with its encrypted_content included), then the result.
    const echoed = output.map(({ status: _s, ...item }) => item);
    return {
      ...first,
      input: [...first.input, ...echoed, { type: 'function_call_output', call_id: call.call_id, output: OUTPUT }],
    };
  },
  send: (base, key, _model, body) => post(`${base}/v1/responses`, { authorization: `Bearer ${key}` }, body),
};

const geminiCli: AgentShape = {
  first: () => ({
    contents: [{ role: 'user', parts: [{ text: TASK }] }],
    systemInstruction: { role: 'user', parts: [{ text: SYSTEM }] },
    tools: [
      { functionDeclarations: [{ name: SHELL.name, description: SHELL.description, parametersJsonSchema: SHELL.parameters }] },
    ],
    generationConfig: { temperature: 0, topP: 1, thinkingConfig: { includeThoughts: true, thinkingBudget: 8192 } },
  }),
  second(first, answer) {
    const parts = (answer.candidates?.[0]?.content?.parts ?? []) as Json[];
    const call = parts.find((p) => p.functionCall)?.functionCall;
    if (!call) return null;
    // Gemini CLI keeps its thoughts out of the history it sends back.
    const model = { role: 'model', parts: parts.filter((p) => !p.thought) };
    const result = {
      role: 'user',
      parts: [{ functionResponse: { id: call.id, name: call.name, response: { output: OUTPUT } } }],
    };
    return { ...first, contents: [...first.contents, model, result] };
  },
  send: (base, key, model, body) => post(`${base}/v1beta/models/${model}:generateContent`, { 'x-goog-api-key': key }, body),
};

const qwenCode: AgentShape = {
  first: (model) => ({
    model,
    messages: [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: TASK },
    ],
    tools: [{ type: 'function', function: SHELL }],
    temperature: 0,
    top_p: 1,
  }),
  second(first, answer) {
    const message = answer.choices?.[0]?.message as Json | undefined;
    const call = message?.tool_calls?.[0];
    if (!call) return null;
    return {
      ...first,
      messages: [...first.messages, message, { role: 'tool', tool_call_id: call.id, content: OUTPUT }],
    };
  },
  send: (base, key, _model, body) => post(`${base}/v1/chat/completions`, { authorization: `Bearer ${key}` }, body),
};

export const AGENTS: Record<Agent, AgentShape> = {
  'claude-code': claudeCode,
  codex,
  'gemini-cli': geminiCli,
  'qwen-code': qwenCode,
};
