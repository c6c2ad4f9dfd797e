/**
 * Channel affinity through the real gateway: a conversation (its prompt_cache_key) keeps to one
 * channel and one key of a multi-key channel for 20 turns; moves when that channel is disabled or
 * fails, and the new channel keeps it; never crosses groups; the admin routes count and clear the
 * pins. With Redis, two gateways share the pins.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterAvailable, startCluster, type Cluster, type GatewayNode } from '../helpers/cluster.js';
import { ApiClient, must, ROOT } from '../helpers/gateway.js';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { startOpenAIStandIn, type OpenAIStandIn } from '../helpers/upstreams/openai.js';

const RULE = {
  name: 'conversation',
  model_regex: ['^gpt-4o-mini$'],
  path_regex: ['^/v1/chat/completions$'],
  key_sources: [{ type: 'gjson', path: 'prompt_cache_key' }],
  include_using_group: true,
  include_rule_name: true,
};

async function setOptions(root: ApiClient, values: Record<string, unknown>): Promise<void> {
  for (const [key, value] of Object.entries(values)) {
    const res = await root.put('/api/option/', { key, value: typeof value === 'string' ? value : JSON.stringify(value) });
    if (!res.body.success) throw new Error(`${key}: ${res.body.message}`);
  }
}

function chat(baseUrl: string, key: string, session: string): Promise<Response> {
  return fetch(`${baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o-mini', prompt_cache_key: session, messages: [{ role: 'user', content: 'hi' }] }),
  });
}

describe('channel affinity (one process)', () => {
  let f: RelayFixture;
  let multi: number;

  /** One turn: the channel that served it (log row) and the upstream key it used. */
  async function turn(session: string, key = f.key): Promise<{ channel: number; key: string }> {
    const res = await chat(f.tg.url, key, session);
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    const log = await f.lastLog();
    const auth = String(f.upstream.requests.at(-1)?.headers.authorization ?? '');
    return { channel: log.channel_id, key: auth };
  }

  beforeAll(async () => {
    f = await startRelayFixture('sqlite');
    multi = await f.addChannel({ name: 'multi', key: 'sk-aff-1\nsk-aff-2\nsk-aff-3', multi_key_mode: 'random' });
    await f.addChannel({ name: 'third' });
    await setOptions(f.root, { 'channel_affinity_setting.enabled': 'true', 'channel_affinity_setting.rules': [RULE] });
  });
  afterAll(async () => f?.close());

  it('keeps 20 turns of a conversation on one channel and one key', async () => {
    // Find a conversation whose first turn lands on the multi-key channel (three channels, at random).
    let session = '';
    let first = { channel: 0, key: '' };
    for (let i = 0; i < 40 && first.channel !== multi; i++) {
      session = `conv-${i}`;
      first = await turn(session);
    }
    expect(first.channel).toBe(multi);
    for (let i = 0; i < 19; i++) expect(await turn(session)).toEqual(first);
    // Without a key the calls spread over the channels and keys as before.
    const seen = new Set<string>();
    for (let i = 0; i < 30; i++) {
      const t = await turn(`spread-${i}`);
      seen.add(`${t.channel}/${t.key}`);
    }
    expect(seen.size).toBeGreaterThan(2);
  });

  it('moves a conversation when its channel is disabled or fails, and keeps it on the new one', async () => {
    const session = 'moving';
    const pinned = await turn(session);
    must(await f.root.put('/api/channel/', { id: pinned.channel, status: 2 }), 'disable');
    await f.tg.gateway.ctx.channels.reload();
    const moved = await turn(session);
    expect(moved.channel).not.toBe(pinned.channel);
    for (let i = 0; i < 5; i++) expect(await turn(session)).toEqual(moved);
    must(await f.root.put('/api/channel/', { id: pinned.channel, status: 1 }), 'enable');

    // The new channel's key stops working: the call is served elsewhere and the pin follows.
    must(await f.root.put('/api/channel/', { id: moved.channel, key: 'sk-upstream-invalid' }), 'break');
    await f.tg.gateway.ctx.channels.reload();
    await setOptions(f.root, { RetryTimes: '3' });
    const after = await turn(session);
    expect(after.channel).not.toBe(moved.channel);
    for (let i = 0; i < 5; i++) expect((await turn(session)).channel).toBe(after.channel);
    must(await f.root.put('/api/channel/', { id: moved.channel, key: moved.key.replace(/^Bearer /, '') }), 'mend');
    await f.tg.gateway.ctx.channels.reload();
  });

  it('never crosses groups, even when the rule leaves the group out of the key', async () => {
    await setOptions(f.root, { 'channel_affinity_setting.rules': [{ ...RULE, include_using_group: false }] });
    const vipChannel = await f.addChannel({ name: 'vip-only', group: 'vip' });
    must(await f.root.post('/api/user/', { username: 'vera', password: 'vera-pass-1', display_name: 'vera' }), 'user');
    const id = must<{ items: Array<{ id: number }> }>(await f.root.get('/api/user/search?keyword=vera'), 'find').items[0]!.id;
    must(await f.root.put('/api/user/', { id, username: 'vera', display_name: 'vera', quota: 50_000_000, group: 'vip' }), 'vip');
    const vera = f.tg.client();
    must(await vera.login('vera', 'vera-pass-1'), 'login');
    const token = must<{ id: number }>(
      await vera.post('/api/token/', { name: 'v', remain_quota: 0, unlimited_quota: true, expired_time: -1 }),
      'token',
    );
    const veraKey = must<{ key: string }>(await vera.post(`/api/token/${token.id}/key`), 'reveal').key;

    const shared = 'shared-session';
    // Alice (default group) pins the session to a default channel; Vera's turns never go there.
    expect((await turn(shared)).channel).not.toBe(vipChannel);
    for (let i = 0; i < 3; i++) {
      const res = await chat(f.tg.url, veraKey, shared);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      await f.flush();
      const row = await f.tg.gateway.ctx.logDb
        .selectFrom('logs')
        .select('channel_id')
        .where('user_id', '=', id)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(row.channel_id).toBe(vipChannel);
    }
    await setOptions(f.root, { 'channel_affinity_setting.rules': [RULE] });
  });

  it('counts the pins by rule and clears them', async () => {
    await turn('counted');
    const stats = must<{ enabled: boolean; total: number; by_rule_name: Record<string, number> }>(
      await f.root.get('/api/option/channel_affinity_cache'),
      'stats',
    );
    expect(stats.enabled).toBe(true);
    expect(stats.total).toBeGreaterThan(0);
    expect(stats.by_rule_name.conversation).toBeGreaterThan(0);
    expect((await f.root.delete('/api/option/channel_affinity_cache')).body.success).toBe(false);
    expect((await f.user.get('/api/option/channel_affinity_cache')).body.success).toBe(false);
    const cleared = must<{ deleted: number }>(
      await f.root.delete('/api/option/channel_affinity_cache?rule_name=conversation'),
      'clear',
    );
    expect(cleared.deleted).toBe(stats.by_rule_name.conversation);
    expect(must<{ total: number }>(await f.root.get('/api/option/channel_affinity_cache'), 'stats').total).toBe(0);
  });
});

const clusterReady = await clusterAvailable('postgres');

describe.skipIf(!clusterReady)('channel affinity across two gateways (PostgreSQL + Redis)', () => {
  let cluster: Cluster<GatewayNode>;
  let upstream: OpenAIStandIn;
  let root: ApiClient;
  let key = '';

  beforeAll(async () => {
    upstream = await startOpenAIStandIn();
    cluster = await startCluster('postgres', ['master', 'slave'], { inProcess: true });
    root = new ApiClient(cluster.nodes[0]!.url);
    must(await root.post('/api/setup', { ...ROOT, confirmPassword: ROOT.password }), 'setup');
    must(await root.login(ROOT.username, ROOT.password), 'login');
    for (const name of ['a', 'b', 'c']) {
      const body = { type: 1, name, key: `sk-${name}`, base_url: upstream.url, models: 'gpt-4o-mini', group: 'default' };
      must(await root.post('/api/channel/', body), 'channel');
    }
    await setOptions(root, { 'channel_affinity_setting.enabled': 'true', 'channel_affinity_setting.rules': [RULE] });
    const token = must<{ id: number }>(
      await root.post('/api/token/', { name: 'r', remain_quota: 0, unlimited_quota: true, expired_time: -1 }),
      'token',
    );
    key = must<{ key: string }>(await root.post(`/api/token/${token.id}/key`), 'reveal').key;
    // Both gateways know the token and the options once the slave serves a call.
    for (let i = 0; ; i++) {
      const res = await chat(cluster.nodes[1]!.url, key, 'warm-up');
      await res.arrayBuffer();
      if (res.status === 200) break;
      if (i > 100) throw new Error('the slave does not serve');
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 90_000);
  afterAll(async () => {
    await cluster?.stop();
    await upstream?.close();
  });

  it('keeps a conversation on one channel whichever gateway takes each turn', async () => {
    const used: string[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await chat(cluster.nodes[i % 2]!.url, key, 'cluster-conversation');
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      used.push(String(upstream.requests.at(-1)?.headers.authorization));
    }
    expect(new Set(used).size).toBe(1);
  });
});
