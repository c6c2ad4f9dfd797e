/**
 * GET /api/pricing against the real gateway: models of enabled channels only, per-token and
 * per-call items from the options, and the group ratios anonymous visitors and users see.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { forEachDatabase } from '../helpers/databases.js';
import { setupRoot, startTestGateway, type ApiClient, type TestGateway } from '../helpers/gateway.js';
import { expectOk } from '../helpers/channels.js';
import type { PricingAnswer, PricingItem } from '../../server/pricing/schemas.js';

await forEachDatabase('model pricing', (kind) => {
  let tg: TestGateway;
  let root: ApiClient;
  let svipId: number;
  let vipChannel: number;

  const setOption = async (key: string, value: unknown) =>
    expectOk(await root.put('/api/option/', { key, value: JSON.stringify(value) }));
  const addChannel = async (fields: Record<string, unknown>): Promise<number> => {
    const created = expectOk(
      await root.post('/api/channel/', { type: 1, key: 'sk-upstream-pricing', base_url: 'http://127.0.0.1:9', ...fields }),
    );
    return created.id as number;
  };
  const pricing = async (client: ApiClient): Promise<PricingAnswer> => {
    const res = await client.get<PricingAnswer>('/api/pricing');
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    return res.body;
  };
  const item = (answer: PricingAnswer, model: string): PricingItem | undefined => answer.data.find((i) => i.model_name === model);

  beforeAll(async () => {
    tg = await startTestGateway(kind);
    root = await setupRoot(tg);
    await setOption('ModelRatio', { 'tok-model': 2.5, 'svip-model': 0.5 });
    await setOption('CompletionRatio', { 'tok-model': 3 });
    await setOption('ModelPrice', { 'call-model': 0.04 });
    await setOption('GroupRatio', { default: 1, vip: 1.5, svip: 3 });
    await setOption('UserUsableGroups', { default: '默认分组', vip: 'vip分组' });
    await addChannel({ name: 'main', models: 'tok-model,call-model', group: 'default,vip' });
    vipChannel = await addChannel({ name: 'vip only', models: 'vip-model', group: 'vip' });
    await addChannel({ name: 'svip', models: 'svip-model', group: 'svip' });
    // A group with no ratio and not offered: an admin may still put a user in it.
    await addChannel({ name: 'staff', models: 'staff-model', group: 'staff' });
    await addChannel({ name: 'off', models: 'hidden-model,tok-model', group: 'default,svip', status: 2 });
    await tg.gateway.ctx.channels.reload();
    const created = expectOk(await root.post('/api/user/', { username: 'sam', password: 'sam-pass-123', display_name: 'Sam' }));
    svipId = created.id as number;
    expectOk(await root.put('/api/user/', { id: svipId, username: 'sam', display_name: 'Sam', group: 'svip', quota: 0 }));
  });
  afterAll(async () => tg?.close());

  it('shows anonymous visitors every served model with the default group ratio only', async () => {
    const answer = await pricing(tg.client());
    expect(answer.group_ratio).toEqual({ default: 1 });
    expect(answer.usable_group).toEqual({ default: { desc: '默认分组', ratio: 1 } });
    expect(answer.data.map((i) => i.model_name)).toEqual(['call-model', 'staff-model', 'svip-model', 'tok-model', 'vip-model']);
    expect(item(answer, 'staff-model')?.enable_groups).toEqual(['staff']);
  });

  it('gives per-token models their ratios and per-call models their price', async () => {
    const answer = await pricing(tg.client());
    expect(item(answer, 'tok-model')).toEqual({
      model_name: 'tok-model',
      quota_type: 0,
      model_ratio: 2.5,
      completion_ratio: 3,
      model_price: 0,
      enable_groups: ['default', 'vip'],
      description: '',
      icon: '',
      tags: '',
      vendor_id: 0,
    });
    expect(item(answer, 'call-model')).toMatchObject({ quota_type: 1, model_price: 0.04, model_ratio: 0 });
    expect(item(answer, 'svip-model')).toMatchObject({ quota_type: 0, model_ratio: 0.5, enable_groups: ['svip'] });
  });

  it('leaves out models only a disabled channel serves', async () => {
    const answer = await pricing(tg.client());
    expect(item(answer, 'hidden-model')).toBeUndefined();
    // The disabled channel's svip group does not add to tok-model's groups either.
    expect(item(answer, 'tok-model')?.enable_groups).toEqual(['default', 'vip']);

    expectOk(await root.put('/api/channel/', { id: vipChannel, status: 2 }));
    await tg.gateway.ctx.channels.reload();
    expect(item(await pricing(tg.client()), 'vip-model')).toBeUndefined();
    expectOk(await root.put('/api/channel/', { id: vipChannel, status: 1 }));
    await tg.gateway.ctx.channels.reload();
    expect(item(await pricing(tg.client()), 'vip-model')?.enable_groups).toEqual(['vip']);
  });

  it('shows a logged-in user their own group and the groups they may use', async () => {
    const sam = tg.client();
    expect((await sam.login('sam', 'sam-pass-123')).body.success).toBe(true);
    const answer = await pricing(sam);
    expect(answer.group_ratio).toEqual({ default: 1, vip: 1.5, svip: 3 });
    expect(answer.usable_group.svip).toEqual({ desc: '用户分组', ratio: 3 });
    expect(answer.usable_group.vip).toEqual({ desc: 'vip分组', ratio: 1.5 });
    expect(answer.data).toEqual((await pricing(tg.client())).data);
  });

  it('treats a request whose session does not match New-Api-User as anonymous', async () => {
    const sam = tg.client();
    await sam.login('sam', 'sam-pass-123');
    const answer = await sam.get<PricingAnswer>('/api/pricing', { 'New-Api-User': String(svipId + 1000) });
    expect(answer.body.group_ratio).toEqual({ default: 1 });
  });

  it('follows option changes to ratios and prices', async () => {
    await setOption('GroupRatio', { default: 0.8, vip: 1.5, svip: 3 });
    await setOption('ModelPrice', {});
    const answer = await pricing(tg.client());
    expect(answer.group_ratio).toEqual({ default: 0.8 });
    // Without a price or ratio the model is listed per token with ratio 0 (not set).
    expect(item(answer, 'call-model')).toMatchObject({ quota_type: 0, model_ratio: 0, model_price: 0 });
  });
});
