/**
 * The sensitive-word filter: the matcher on its own, then through the real gateway and the OpenAI
 * stand-in — prompts refused before any charge, answers masked or withheld, streams cut mid-way.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WordMatcher } from '../../server/relay/guards/word-matcher.js';
import { matcherFor, promptOf, sensitiveWordList } from '../../server/relay/guards/sensitive-words.js';
import type { RelayInput } from '../../server/relay/types.js';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { startMidjourneyStandIn, type MidjourneyStandIn } from '../helpers/upstreams/midjourney.js';
import { startSunoStandIn, type SunoStandIn } from '../helpers/upstreams/suno.js';

describe('WordMatcher', () => {
  it('finds every listed word in one pass, ignoring case, overlaps included', () => {
    const m = new WordMatcher(['he', 'she', 'his', 'hers']);
    expect(m.find('USHERS').sort()).toEqual(['he', 'hers', 'she']);
    expect(m.find('this is fine')).toEqual(['his']);
    expect(m.find('nothing here?')).toEqual(['he']);
    expect(m.find('xyz')).toEqual([]);
  });

  it('matches words of any script and reports them as listed', () => {
    const m = new WordMatcher(['违禁词', 'Bad Word', 'ÉCOLE']);
    expect(m.find('这里有一个违禁词。')).toEqual(['违禁词']);
    expect(m.find('a bad word and an école')).toEqual(['Bad Word', 'ÉCOLE']);
  });

  it('masks each character of every listed word, merging overlaps, keeping the rest', () => {
    const m = new WordMatcher(['ab', 'bcd', 'x']);
    expect(m.mask('zabcdz x')).toEqual({ text: 'z****z *', words: ['ab', 'bcd', 'x'] });
    expect(m.mask('clean')).toEqual({ text: 'clean', words: [] });
    // A longer word ending later swallows the earlier, shorter ones.
    const n = new WordMatcher(['b', 'd', 'abcde']);
    expect(n.mask('xabcdex').text).toBe('x*****x');
  });

  it('carries its state across pieces, so a word split between stream chunks is found', () => {
    const m = new WordMatcher(['secret']);
    let state = 0;
    const hits: number[] = [];
    ['the se', 'cr', 'et is out'].forEach((piece, index) => {
      for (let i = 0; i < piece.length; i++) {
        state = m.step(state, piece.charCodeAt(i));
        if (m.matches(state)) hits.push(index);
      }
    });
    expect(hits).toEqual([2]);
  });

  it('reads the list one word a line and compiles each list once', () => {
    expect(sensitiveWordList(' a \r\n\n b\n')).toEqual(['a', 'b']);
    expect(matcherFor('one\ntwo')).toBe(matcherFor('one\ntwo'));
    expect(matcherFor('  \n')).toBeNull();
  });

  it('reads the prompt of Claude and Gemini requests, system text included', () => {
    const claude: RelayInput = {
      endpoint: 'chat.completions',
      client: 'claude',
      body: {
        system: [{ type: 'text', text: 'sys words' }],
        messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      },
      raw: null,
      contentType: 'application/json',
      model: 'm',
      stream: false,
    };
    expect(promptOf(claude)).toContain('sys words');
    expect(promptOf(claude)).toContain('hi');
    const gemini: RelayInput = {
      ...claude,
      client: 'gemini',
      body: { systemInstruction: { parts: [{ text: 'be brief' }] }, contents: [{ role: 'user', parts: [{ text: 'question' }] }] },
    };
    expect(promptOf(gemini)).toContain('be brief');
    expect(promptOf(gemini)).toContain('question');
  });
});

describe('sensitive words through the relay', () => {
  let f: RelayFixture;
  const db = () => f.tg.gateway.ctx.db;
  const userQuota = async () =>
    (await db().selectFrom('users').select('quota').where('id', '=', f.userId).executeTakeFirstOrThrow()).quota;
  const consumeLogs = async () => {
    await f.flush();
    return (await db().selectFrom('logs').select('id').where('user_id', '=', f.userId).where('type', '=', 2).execute()).length;
  };
  const setOption = async (key: string, value: string) => {
    const res = await f.root.put('/api/option/', { key, value });
    expect(res.body.success, `${key}: ${res.body.message}`).toBe(true);
  };
  const chat = (body: Record<string, unknown>, path = '/v1/chat/completions', headers: Record<string, string> = {}) =>
    fetch(`${f.tg.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${f.key}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  let mj: MidjourneyStandIn;
  let suno: SunoStandIn;

  beforeAll(async () => {
    f = await startRelayFixture('sqlite');
    mj = await startMidjourneyStandIn();
    suno = await startSunoStandIn();
    await f.addChannel({ type: 2, name: 'mj', key: mj.secret, base_url: mj.url, models: 'mj_imagine' });
    await f.addChannel({ type: 36, name: 'suno', key: suno.key, base_url: suno.url, models: 'suno_music,suno_lyrics' });
  });
  afterAll(async () => {
    await f?.close();
    await mj?.close();
    await suno?.close();
  });
  afterEach(async () => {
    for (const [key, value] of Object.entries({
      CheckSensitiveEnabled: 'false',
      CheckSensitiveOnPromptEnabled: 'true',
      CheckSensitiveOnCompletionEnabled: 'false',
      StopOnSensitiveEnabled: 'true',
      SensitiveWords: '',
    }))
      await setOption(key, value);
  });

  it('refuses a prompt holding a listed word with 400, calls no upstream and charges nothing', async () => {
    await setOption('SensitiveWords', 'forbidden topic\n违禁');
    const prompt = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Tell me about the Forbidden Topic' }] };
    // Listed but the filter is off: relayed.
    expect((await chat(prompt)).status).toBe(200);

    await setOption('CheckSensitiveEnabled', 'true');
    const requests = f.upstream.requests.length;
    const quota = await userQuota();
    const logs = await consumeLogs();
    const res = await chat(prompt);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: {
        message: '请求包含敏感词：forbidden topic',
        type: 'invalid_request_error',
        param: null,
        code: 'sensitive_words_detected',
      },
    });
    expect(f.upstream.requests.length).toBe(requests);
    expect(await userQuota()).toBe(quota);
    expect(await consumeLogs()).toBe(logs);

    // A clean prompt still passes; the prompt check has its own switch.
    expect((await chat({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] })).status).toBe(200);
    await setOption('CheckSensitiveOnPromptEnabled', 'false');
    expect((await chat(prompt)).status).toBe(200);
  });

  it('refuses drawing and music prompts holding a listed word, in each platform’s shape, charging nothing', async () => {
    await setOption('SensitiveWords', '违禁');
    await setOption('CheckSensitiveEnabled', 'true');
    const submit = (path: string, body: unknown) =>
      fetch(`${f.tg.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${f.key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const quota = await userQuota();
    const sent = mj.requests.length + suno.requests.length;
    const drawing = await submit('/mj/submit/imagine', { prompt: 'a cat with 违禁 things' });
    expect(drawing.status).toBe(400);
    expect(await drawing.json()).toMatchObject({ description: '请求包含敏感词：违禁' });
    const music = await submit('/suno/submit/music', { prompt: '[Verse] 违禁', tags: 'pop' });
    expect(music.status).toBe(400);
    expect(await music.json()).toMatchObject({ message: '请求包含敏感词：违禁' });
    expect(mj.requests.length + suno.requests.length).toBe(sent);
    expect(await userQuota()).toBe(quota);
    // Clean prompts go through.
    expect((await submit('/suno/submit/music', { prompt: '[Verse] the sea', tags: 'pop' })).status).toBe(200);
  });

  it("refuses in the client's own error shape (Claude clients), system prompt included", async () => {
    await setOption('SensitiveWords', '违禁');
    await setOption('CheckSensitiveEnabled', 'true');
    const res = await chat(
      { model: 'gpt-4o-mini', max_tokens: 16, system: '包含违禁内容', messages: [{ role: 'user', content: 'hi' }] },
      '/v1/messages',
      { 'anthropic-version': '2023-06-01' },
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message: '请求包含敏感词：违禁' },
    });
  });

  it('masks listed words in a whole answer when completions are checked, and bills it', async () => {
    await setOption('SensitiveWords', 'ASSIST');
    await setOption('CheckSensitiveEnabled', 'true');
    await setOption('StopOnSensitiveEnabled', 'false');
    const plain = await f.openai().chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
    expect(plain.choices[0]?.message.content).toBe('Hello! How can I assist you today?');

    await setOption('CheckSensitiveOnCompletionEnabled', 'true');
    const quota = await userQuota();
    const masked = await f
      .openai()
      .chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
    expect(masked.choices[0]?.message.content).toBe('Hello! How can I ****** you today?');
    expect(masked.usage?.total_tokens).toBe(29);
    expect((await f.lastLog()).quota).toBe(4);
    expect(await userQuota()).toBe(quota - 4);
  });

  it('withholds a whole answer with StopOnSensitiveEnabled (400), still billing what upstream produced', async () => {
    await setOption('SensitiveWords', 'assist');
    await setOption('CheckSensitiveEnabled', 'true');
    await setOption('CheckSensitiveOnCompletionEnabled', 'true');
    const logs = await consumeLogs();
    const res = await chat({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error.code).toBe('sensitive_words_in_answer');
    expect(body.error.message).toContain('assist');
    expect(JSON.stringify(body)).not.toContain('How can I');
    expect(await consumeLogs()).toBe(logs + 1);
  });

  it('cuts a stream before the event completing a listed word, even one split across chunks', async () => {
    // "can I assist" spans the chunks " can", " I" and " assist".
    await setOption('SensitiveWords', 'can i assist');
    await setOption('CheckSensitiveEnabled', 'true');
    await setOption('CheckSensitiveOnCompletionEnabled', 'true');
    const res = await chat({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], stream: true });
    expect(res.status).toBe(200);
    const raw = await res.text();
    const events = raw
      .split('\n\n')
      .filter((e) => e.startsWith('data: '))
      .map((e) => e.slice(6));
    expect(events.at(-1)).toBe('[DONE]');
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e));
    const text = chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('');
    expect(text).toBe('Hello! How can I');
    expect(chunks.at(-1).choices[0].finish_reason).toBe('content_filter');
    // Billed on what was generated, counted locally.
    const log = await f.lastLog();
    expect(log.is_stream).toBe(1);
    expect(log.completion_tokens).toBeGreaterThan(0);
    expect(JSON.parse(log.other ?? '{}').local_count).toBe(true);

    // Without StopOnSensitiveEnabled the stream is relayed whole.
    await setOption('StopOnSensitiveEnabled', 'false');
    const whole = await f
      .openai()
      .chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], stream: true });
    let all = '';
    for await (const chunk of whole) all += chunk.choices[0]?.delta?.content ?? '';
    expect(all.startsWith('Hello! How can I assist you today?')).toBe(true);
  });

  it('cuts a converted stream too, closed by its own protocol (Claude client, OpenAI channel)', async () => {
    await setOption('SensitiveWords', 'assist');
    await setOption('CheckSensitiveEnabled', 'true');
    await setOption('CheckSensitiveOnCompletionEnabled', 'true');
    const res = await chat(
      { model: 'gpt-4o-mini', max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'hi' }] },
      '/v1/messages',
      { 'anthropic-version': '2023-06-01' },
    );
    expect(res.status).toBe(200);
    const events = (await res.text())
      .split('\n\n')
      .map((e) => /^data: (.*)$/m.exec(e)?.[1])
      .filter((d): d is string => d !== undefined)
      .map((d) => JSON.parse(d));
    const text = events
      .filter((e) => e.type === 'content_block_delta')
      .map((e) => e.delta.text)
      .join('');
    expect(text).toBe('Hello! How can I');
    expect(events.at(-1).type).toBe('message_stop');
  });

  it('closes the upstream connection of a cut stream, so the rest is not generated', async () => {
    await setOption('SensitiveWords', 'tick');
    await setOption('CheckSensitiveEnabled', 'true');
    await setOption('CheckSensitiveOnCompletionEnabled', 'true');
    const aborted = f.upstream.aborted;
    const started = Date.now();
    const stream = await f
      .openai()
      .chat.completions.create({ model: 'drip-60', messages: [{ role: 'user', content: 'hi' }], stream: true });
    const finish: Array<string | null | undefined> = [];
    let text = '';
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? '';
      finish.push(chunk.choices[0]?.finish_reason);
    }
    expect(text).toBe('');
    expect(finish).toEqual(['content_filter']);
    // 60 chunks 20 ms apart would take 1.2 s.
    expect(Date.now() - started).toBeLessThan(1000);
    for (let i = 0; i < 50 && f.upstream.aborted === aborted; i++) await new Promise((r) => setTimeout(r, 20));
    expect(f.upstream.aborted).toBe(aborted + 1);
  });
});
