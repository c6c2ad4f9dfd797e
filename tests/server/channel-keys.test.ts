/**
 * Multi-key channels and the create shapes: a channel holding several keys keeps serving on the
 * others when the upstream revokes one (that key alone is disabled, shown by position and last
 * characters, never the key, and enabled again by an admin); the channel is disabled once no key
 * is left; `POST /api/channel/` takes our flat body and new-api's `{mode, multi_key_mode, channel}`.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { forEachDatabase } from '../helpers/databases.js';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { startFlakyStandIn, type FlakyStandIn } from '../helpers/upstreams/flaky.js';

const KEYS = ['sk-multi-aaaa1111', 'sk-multi-bbbb2222', 'sk-multi-cccc3333'];

await forEachDatabase('multi-key channels', (kind) => {
  let f: RelayFixture;
  let upstream: FlakyStandIn;
  let seq = 0;

  beforeAll(async () => {
    f = await startRelayFixture(kind);
    upstream = await startFlakyStandIn();
    const res = await f.root.put('/api/option/', { key: 'AutomaticDisableChannelEnabled', value: 'true' });
    expect(res.body.success).toBe(true);
  });
  afterAll(async () => {
    await f?.close();
    await upstream?.close();
  });

  async function freshModel(): Promise<string> {
    const model = `multi-${kind}-${++seq}`;
    const ratios = JSON.parse(f.tg.gateway.ctx.options.string('ModelRatio')) as Record<string, number>;
    expect(
      (await f.root.put('/api/option/', { key: 'ModelRatio', value: JSON.stringify({ ...ratios, [model]: 1 }) })).body.success,
    ).toBe(true);
    return model;
  }

  async function chat(model: string): Promise<number> {
    const res = await fetch(`${f.tg.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${f.key}` },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
    });
    await res.text();
    return res.status;
  }

  async function view(id: number) {
    const res = await f.root.get(`/api/channel/${id}`);
    expect(res.body.success).toBe(true);
    return res.body.data;
  }

  it('keeps serving on the other keys when one is revoked, and shows that key disabled', async () => {
    const model = await freshModel();
    const id = await f.addChannel({
      name: 'multi',
      key: KEYS.join('\n'),
      base_url: upstream.url,
      models: model,
      multi_key_mode: 'polling',
    });
    upstream.state.revoked.add(KEYS[0]!);
    const mark = upstream.calls.length;
    // The call that meets the revoked key fails (its channel has no sibling); every later one is served.
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++) statuses.push(await chat(model));
    expect(statuses.filter((s) => s !== 200).length).toBeLessThanOrEqual(1);
    const used = upstream.calls.slice(mark).map((c) => c.key);
    expect(used.filter((k) => k === KEYS[0]).length).toBe(1);
    expect(new Set(used.slice(-6))).toEqual(new Set([KEYS[1], KEYS[2]]));

    const data = await view(id);
    expect(data.status).toBe(1);
    expect(data.channel_info).toEqual({ is_multi_key: true, multi_key_size: 3, multi_key_mode: 'polling' });
    expect(data.keys).toHaveLength(3);
    expect(data.keys[0]).toMatchObject({ index: 0, tail: '…1111', status: 3 });
    expect(data.keys[0].reason).toContain('401');
    expect(data.keys[1]).toMatchObject({ index: 1, tail: '…2222', status: 1, reason: '' });
    // No key leaves the gateway: not in the channel, not in the list.
    const list = await f.root.get('/api/channel/?p=1&page_size=100');
    for (const text of [JSON.stringify(data), JSON.stringify(list.body)]) {
      for (const key of KEYS) expect(text).not.toContain(key);
    }
    expect(list.body.data.items.find((c: { id: number }) => c.id === id).keys[0].status).toBe(3);

    // The admin enables it again (the upstream took it back).
    upstream.state.revoked.delete(KEYS[0]!);
    const enabled = await f.root.post('/api/channel/multi_key/manage', { channel_id: id, action: 'enable_key', key_index: 0 });
    expect(enabled.body.success).toBe(true);
    expect(enabled.body.data.keys[0]).toMatchObject({ status: 1, reason: '' });
    await f.tg.gateway.ctx.channelKeys.reload();
    const again = upstream.calls.length;
    for (let i = 0; i < 6; i++) expect(await chat(model)).toBe(200);
    expect(new Set(upstream.calls.slice(again).map((c) => c.key))).toEqual(new Set(KEYS));

    // Disabling by hand, and a position the channel does not have.
    const off = await f.root.post('/api/channel/multi_key/manage', { channel_id: id, action: 'disable_key', key_index: 2 });
    expect(off.body.data.keys[2].status).toBe(2);
    const missing = await f.root.post('/api/channel/multi_key/manage', { channel_id: id, action: 'enable_key', key_index: 7 });
    expect(missing.body).toMatchObject({ success: false, code: 'channel.key_not_found' });
  });

  it('disables the channel once every key is disabled, and enables it with a key', async () => {
    const model = await freshModel();
    const keys = ['sk-gone-00000001', 'sk-gone-00000002'];
    const id = await f.addChannel({ name: 'all-gone', key: keys.join('\n'), base_url: upstream.url, models: model });
    for (const k of keys) upstream.state.revoked.add(k);
    // Keys are disabled beside the answer, not before it: each call's writes are waited for (every
    // key it tried shown disabled) before the next call, so that none lands after the enabling below.
    let data = await view(id);
    for (let i = 0; i < 4 && data.status === 1; i++) {
      const mark = upstream.calls.length;
      await chat(model);
      const tried = new Set(upstream.calls.slice(mark).map((c) => keys.indexOf(c.key)));
      const off = (k: number) => data.keys[k].status === 3;
      // The channel is disabled after its last key, in the same chain of writes.
      const landed = () => [...tried].every(off) && (data.status === 3 || !keys.every((_, k) => off(k)));
      for (let wait = 0; wait < 50 && !landed(); wait++) {
        await new Promise((r) => setTimeout(r, 100));
        data = await view(id);
      }
      await f.tg.gateway.ctx.channelKeys.reload();
    }
    expect(data.status).toBe(3);
    expect(data.health.state).toBe('disabled');
    expect(data.health.reason).toContain('所有密钥均已禁用');
    expect(data.keys.map((k: { status: number }) => k.status)).toEqual([3, 3]);

    const all = await f.root.post('/api/channel/multi_key/manage', { channel_id: id, action: 'enable_all_keys' });
    expect(all.body.data).toMatchObject({ status: 1 });
    expect(all.body.data.keys.map((k: { status: number }) => k.status)).toEqual([1, 1]);
  });

  it('stays with one key per user on providers that cache prompts', async () => {
    const model = await freshModel();
    const keys = ['sk-sticky-0000aaaa', 'sk-sticky-0000bbbb', 'sk-sticky-0000cccc'];
    await f.addChannel({ name: 'sticky', key: keys.join('\n'), base_url: upstream.url, models: model, multi_key_mode: 'random' });
    const mark = upstream.calls.length;
    for (let i = 0; i < 8; i++) expect(await chat(model)).toBe(200);
    expect(new Set(upstream.calls.slice(mark).map((c) => c.key)).size).toBe(1);
  });

  it('creates channels from the flat body and from new-api’s nested one', async () => {
    const base = { type: 1, base_url: upstream.url, models: 'gpt-4o-mini', group: 'default' };
    const count = async () => (await f.tg.gateway.ctx.db.selectFrom('channels').select('id').execute()).length;

    // new-api's console: the fields under `channel`.
    const single = await f.root.post('/api/channel/', { mode: 'single', channel: { ...base, name: 'nested-one', key: 'sk-n1' } });
    expect(single.body).toMatchObject({ success: true, data: { name: 'nested-one', channel_info: { is_multi_key: false } } });

    const before = await count();
    const batch = await f.root.post('/api/channel/', {
      mode: 'batch',
      channel: { ...base, name: 'nested-batch', key: 'sk-b1\nsk-b2\n\nsk-b3' },
    });
    expect(batch.body.success).toBe(true);
    expect(await count()).toBe(before + 3);

    const multi = await f.root.post('/api/channel/', {
      mode: 'multi_to_single',
      multi_key_mode: 'polling',
      channel: { ...base, name: 'nested-multi', key: 'sk-m1\nsk-m2\nsk-m3' },
    });
    expect(multi.body.data).toMatchObject({
      name: 'nested-multi',
      multi_key_mode: 'polling',
      channel_info: { is_multi_key: true, multi_key_size: 3, multi_key_mode: 'polling' },
    });
    expect(multi.body.data.keys.map((k: { tail: string }) => k.tail)).toEqual(['…', '…', '…']);

    // The flat body, as before, and multi_to_single in it too.
    const flat = await f.root.post('/api/channel/', { ...base, name: 'flat', key: 'sk-flat-1' });
    expect(flat.body).toMatchObject({ success: true, data: { name: 'flat' } });
    const flatMulti = await f.root.post('/api/channel/', {
      ...base,
      mode: 'multi_to_single',
      name: 'flat-multi',
      key: 'sk-fm-1\nsk-fm-2',
    });
    expect(flatMulti.body.data.channel_info).toEqual({ is_multi_key: true, multi_key_size: 2, multi_key_mode: 'random' });

    // What new-api's console got before: the fields were read at the top level only.
    const empty = await f.root.post('/api/channel/', { mode: 'single', channel: { ...base, name: 'no-key', key: '' } });
    expect(empty.body).toMatchObject({ success: false, code: 'channel.name_and_key_required' });
    const badMode = await f.root.post('/api/channel/', {
      mode: 'multi_to_single',
      multi_key_mode: 'sideways',
      channel: { ...base, name: 'x', key: 'a\nb' },
    });
    expect(badMode.body).toMatchObject({ success: false, code: 'channel.multi_key_mode_invalid' });
  });
  it('adds keys to a channel with key_mode append, and replaces them otherwise', async () => {
    const id = await f.addChannel({ name: 'append', key: 'sk-ap-1\nsk-ap-2', base_url: upstream.url, models: 'gpt-4o-mini' });
    const stored = async () =>
      (await f.tg.gateway.ctx.db.selectFrom('channels').select('key').where('id', '=', id).executeTakeFirstOrThrow()).key;

    // new-api's console sends only the new keys, with the mode beside them.
    const appended = await f.root.put('/api/channel/', { id, name: 'append', key: 'sk-ap-2\nsk-ap-3', key_mode: 'append' });
    expect(appended.body.data.channel_info).toMatchObject({ is_multi_key: true, multi_key_size: 3 });
    expect(await stored()).toBe('sk-ap-1\nsk-ap-2\nsk-ap-3');

    const replaced = await f.root.put('/api/channel/', { id, name: 'append', key: 'sk-ap-9', key_mode: 'replace' });
    expect(replaced.body.data.channel_info).toMatchObject({ is_multi_key: false });
    expect(await stored()).toBe('sk-ap-9');

    const bad = await f.root.put('/api/channel/', { id, name: 'append', key: 'sk-x', key_mode: 'merge' });
    expect(bad.body.success).toBe(false);
    expect(await stored()).toBe('sk-ap-9');
  });
});
