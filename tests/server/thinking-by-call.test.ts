import { describe, expect, it } from 'vitest';
import { MemoryKv } from '../../server/cache/kv.js';
import {
  restoreSignatures,
  sealCompletion,
  sealedParser,
  SignatureSealer,
} from '../../server/relay/wire/gemini/tool-call-signatures.js';
import type { StreamEvent } from '../../server/relay/wire/events.js';

type Json = Record<string, any>;

const BLOCKS = [
  { type: 'thinking', thinking: 'First I look.', signature: 'SIG-A' },
  { type: 'redacted_thinking', data: 'opaque-data' },
  { type: 'thinking', thinking: 'Then I list.', signature: 'SIG-B' },
];

/** A chat request echoing a tool call by id without its thinking, then the tool's result. */
const echo = (id: string, extra: Json = {}): Json => ({
  model: 'claude-sonnet-4-5',
  messages: [
    { role: 'user', content: 'List the files.' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id, type: 'function', function: { name: 'ls', arguments: '{}' } }],
      ...extra,
    },
    { role: 'tool', tool_call_id: id, content: 'a.txt' },
  ],
});

// Claude's thinking kept under the id of the tool call it led to, for clients that do not send
// thinking back, and put back on the assistant message that echoes the id.
describe('thinking kept by tool-call id', () => {
  it('seals a streamed call after signed thinking, blocks split at each signature, and restores them', async () => {
    const kv = new MemoryKv();
    const sealer = new SignatureSealer(kv);
    const events: StreamEvent[] = [
      { type: 'reasoning', index: 0, text: 'First ' },
      { type: 'reasoning', index: 0, text: 'I look.' },
      { type: 'reasoning', index: 0, text: '', signature: 'SIG-A' },
      { type: 'reasoning', index: 0, text: '', redacted: 'opaque-data' },
      { type: 'reasoning', index: 0, text: 'Then I list.' },
      { type: 'reasoning', index: 0, text: '', signature: 'SIG-B' },
      { type: 'tool_call', index: 0, callIndex: 0, id: 'toolu_1', name: 'ls', arguments: '' },
      { type: 'tool_call', index: 0, callIndex: 0, arguments: '{}' },
      { type: 'tool_call', index: 0, callIndex: 1, id: 'toolu_2', name: 'ls', arguments: '{}' },
    ];
    const parser = sealedParser({ push: (n: number) => [events[n]!] }, sealer);
    const out = events.map((_, n) => parser.push(n)).flat();
    await sealer.settle();
    // The redacted block reaches no client; only the call the thinking led to carries it; the rest pass as they came.
    const shown = events.filter((e) => !(e.type === 'reasoning' && e.redacted));
    expect(out).toHaveLength(shown.length);
    const first = out[5] as Extract<StreamEvent, { type: 'tool_call' }>;
    expect(first.id).toMatch(/^call_th1_[A-Za-z0-9_-]{22}$/);
    expect(out.filter((_, i) => i !== 5)).toEqual(shown.filter((_, i) => i !== 5));
    const restored = await restoreSignatures(echo(first.id!), kv);
    expect(restored.messages[1].thinking_blocks).toEqual(BLOCKS);
  });

  it('seals a whole answer’s first call and leaves a message with its own thinking as sent', async () => {
    const kv = new MemoryKv();
    const sealer = new SignatureSealer(kv);
    const completion = {
      choices: [{ index: 0, message: { ...echo('toolu_1').messages[1], thinking_blocks: BLOCKS }, finish_reason: 'tool_calls' }],
    };
    sealCompletion(completion, sealer);
    await sealer.settle();
    const id: string = completion.choices[0]!.message.tool_calls[0].id;
    expect(id).toMatch(/^call_th1_/);
    expect((await restoreSignatures(echo(id), kv)).messages[1].thinking_blocks).toEqual(BLOCKS);
    const own = [{ type: 'redacted_thinking', data: 'opaque' }];
    expect((await restoreSignatures(echo(id, { thinking_blocks: own }), kv)).messages[1].thinking_blocks).toEqual(own);
  });

  it('restores nothing for an id it never issued, and keeps nothing for clients that send thinking back', async () => {
    const kv = new MemoryKv();
    const unknown = echo('call_th1_AAAAAAAAAAAAAAAAAAAAAA');
    expect(await restoreSignatures(unknown, kv)).toBe(unknown);
    const sealer = new SignatureSealer(kv, false);
    const message = { ...echo('toolu_1').messages[1], thinking_blocks: BLOCKS };
    sealCompletion({ choices: [{ index: 0, message }] }, sealer);
    expect(message.tool_calls[0].id).toBe('toolu_1');
  });

  it('the memory store drops expired values now and then, read or not', async () => {
    const kv = new MemoryKv();
    await kv.set('old', 'x', 0);
    for (let i = 0; i < 1000; i++) await kv.set(`k${i}`, 'v', 60);
    const items = (kv as unknown as { items: Map<string, unknown> }).items;
    expect(items.has('old')).toBe(false);
    expect(items.size).toBe(1000);
  });
});
