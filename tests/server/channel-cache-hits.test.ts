/**
 * The prompt-cache hit rate per channel in channel statistics, on every database: Claude and OpenAI
 * calls whose upstreams report cached input (cache_read_input_tokens, prompt_tokens_details.cached_tokens)
 * are summed per channel into the hourly totals, and GET /api/data/channelUseData answers the
 * input, the cached part and their ratio (null where a channel had no input).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forEachDatabase } from '../helpers/databases.js';
import { must } from '../helpers/gateway.js';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { startReplayServer, type ReplayServer } from '../helpers/upstreams/replay.js';
import { writeHourlyTotals } from '../helpers/hourly-totals.js';
import type { ChannelUseRow } from '../../server/logs/schemas.js';

// The recorded answers' usage: Claude reports fresh, written and read input apart (all of it is input).
const CLAUDE = { input: 21 + 1888 + 12045, cached: 12045 };
const OPENAI = { input: 2048, cached: 1536 };

await forEachDatabase('channel cache hits', (kind) => {
  let f: RelayFixture;
  let claude: ReplayServer;
  let openai: ReplayServer;
  let claudeChannel: number;
  let openaiChannel: number;
  let idleChannel: number;

  beforeAll(async () => {
    f = await startRelayFixture(kind);
    claude = await startReplayServer('claude', [{ path: /^\/v1\/messages$/, fixture: () => 'message-cache-usage.json' }]);
    openai = await startReplayServer('openai', [
      { path: /^\/v1\/chat\/completions$/, fixture: () => 'chat-completion-cached.json' },
    ]);
    const ratios = JSON.parse(f.tg.gateway.ctx.options.raw('ModelRatio'));
    must(
      await f.root.put('/api/option/', {
        key: 'ModelRatio',
        value: JSON.stringify({ ...ratios, 'claude-sonnet-4-20250514': 1.5, 'gpt-4.1': 1 }),
      }),
      'ModelRatio',
    );
    claudeChannel = await f.addChannel({
      type: 14,
      name: 'claude',
      key: 'sk-ant-upstream',
      base_url: claude.url,
      models: 'claude-sonnet-4-20250514',
    });
    openaiChannel = await f.addChannel({ name: 'openai', base_url: openai.url, models: 'gpt-4.1' });
    idleChannel = await f.addChannel({ name: 'idle', models: 'gpt-4.1-nano' });
  });
  afterAll(async () => {
    await f?.close();
    await claude?.close();
    await openai?.close();
  });

  const statistics = async (query: string) => {
    await f.flush();
    await f.tg.gateway.ctx.totals.flush();
    return must<ChannelUseRow[]>(await f.root.get(`/api/data/channelUseData?${query}`), 'channelUseData');
  };

  describe('relayed calls', () => {
    beforeAll(async () => {
      for (let i = 0; i < 2; i++) {
        const res = await fetch(`${f.tg.url}/v1/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': f.key, 'anthropic-version': '2023-06-01' },
          body: JSON.stringify({
            model: 'claude-sonnet-4-20250514',
            max_tokens: 64,
            messages: [{ role: 'user', content: 'Hi' }],
          }),
        });
        expect(res.status).toBe(200);
        await res.json();
      }
      for (let i = 0; i < 3; i++) {
        const answer = await f
          .openai()
          .chat.completions.create({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'Hi' }] });
        expect(answer.usage?.prompt_tokens_details?.cached_tokens).toBe(OPENAI.cached);
      }
      // The stand-in reports no cached input: a channel with input and a rate of 0.
      await f.openai().chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] });
    });

    it('sums input and cached input per channel and model, with their ratio', async () => {
      const rows = await statistics('');
      const row = (channel: number) => rows.find((r) => r.channel_id === channel);
      expect(row(claudeChannel)).toMatchObject({
        model_name: 'claude-sonnet-4-20250514',
        count: 2,
        prompt_tokens: 2 * CLAUDE.input,
        cached_tokens: 2 * CLAUDE.cached,
      });
      expect(row(claudeChannel)!.cache_hit_rate).toBeCloseTo(CLAUDE.cached / CLAUDE.input, 12);
      expect(row(openaiChannel)).toMatchObject({
        model_name: 'gpt-4.1',
        count: 3,
        prompt_tokens: 3 * OPENAI.input,
        cached_tokens: 3 * OPENAI.cached,
        cache_hit_rate: 0.75,
      });
      const standIn = rows.find((r) => r.model_name === 'gpt-4o-mini')!;
      expect(standIn.prompt_tokens).toBeGreaterThan(0);
      expect(standIn).toMatchObject({ cached_tokens: 0, cache_hit_rate: 0 });
      expect(row(idleChannel)).toBeUndefined();
    });

    it('keeps the sums when models are merged per channel, and filtered to one channel', async () => {
      const merged = await statistics(`merge=true&channel_id=${openaiChannel}`);
      expect(merged).toEqual([
        {
          channel_id: openaiChannel,
          model_name: '',
          token_used: 3 * 2060,
          count: 3,
          quota: merged[0]!.quota,
          prompt_tokens: 3 * OPENAI.input,
          cached_tokens: 3 * OPENAI.cached,
          cache_hit_rate: 0.75,
        },
      ]);
      expect(merged[0]!.quota).toBeGreaterThan(0);
    });

    it('answers null, not 0, for a channel whose hours hold no input (a refund, or hours kept before the count)', async () => {
      const hour = Math.floor(Date.now() / 1000 / 3600) * 3600 - 48 * 3600;
      await writeHourlyTotals(f.tg.gateway.ctx, [
        {
          user_id: f.userId,
          username: 'alice',
          model_name: 'gpt-4.1-nano',
          channel_id: idleChannel,
          created_at: hour,
          token_used: 0,
          count: 0,
          quota: -50,
        },
      ]);
      const rows = await statistics(`start_timestamp=${hour}&end_timestamp=${hour + 60}&merge=true`);
      expect(rows).toEqual([
        {
          channel_id: idleChannel,
          model_name: '',
          token_used: 0,
          count: 0,
          quota: -50,
          prompt_tokens: 0,
          cached_tokens: 0,
          cache_hit_rate: null,
        },
      ]);
    });
  });
});
