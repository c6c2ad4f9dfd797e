/**
 * The model catalogue on every database, through the real app: vendors and model metadata created,
 * listed, searched, edited and deleted as new-api's console calls them; refusals (an empty or taken
 * name, a vendor that does not exist, a bad icon or endpoints) that write nothing; the served
 * models no row names; and /api/pricing naming each model's vendor from its row, or from the
 * built-in prefixes when it has none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forEachDatabase } from '../helpers/databases.js';
import { setupRoot, startTestGateway, type ApiClient, type TestGateway } from '../helpers/gateway.js';
import { expectOk } from '../helpers/channels.js';
import { loginAs, PASSWORD } from '../helpers/users.js';
import { createUser } from '../../server/users/repository.js';
import type { ModelView, VendorView } from '../../server/catalog/schemas.js';
import type { PricingAnswer } from '../../server/pricing/schemas.js';

await forEachDatabase('model catalogue', (kind) => {
  let tg: TestGateway;
  let root: ApiClient;
  let alice: ApiClient;

  const db = () => tg.gateway.ctx.db;
  const count = async (table: 'vendors' | 'models') =>
    Number(
      (
        await db()
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const refused = async (res: Promise<{ status: number; body: any }>, code: string) => {
    const { status, body } = await res;
    expect(status).toBe(200);
    expect(body, JSON.stringify(body)).toMatchObject({ success: false, code });
  };
  const pricing = async (): Promise<PricingAnswer> => (await tg.client().get<PricingAnswer>('/api/pricing')).body;

  beforeAll(async () => {
    tg = await startTestGateway(kind);
    root = await setupRoot(tg);
    await createUser(tg.gateway.ctx.db, tg.gateway.ctx.dbKind, { username: 'alice', password: PASSWORD });
    alice = await loginAs(tg, 'alice');
    expectOk(
      await root.post('/api/channel/', {
        type: 1,
        key: 'sk-catalogue',
        base_url: 'http://127.0.0.1:9',
        name: 'main',
        models: 'gpt-4o,gpt-4o-mini,claude-sonnet-4-5,gemini-2.5-pro,deepseek-chat,o3-mini,acme-large,acme-small,openai/gpt-4.1',
        group: 'default',
      }),
    );
    await tg.gateway.ctx.channels.reload();
  });
  afterAll(async () => tg?.close());

  describe('vendors', () => {
    let acme: VendorView;

    it('creates, reads, lists, searches and edits a vendor', async () => {
      acme = expectOk(
        await root.post('/api/vendors/', { name: ' Acme ', description: 'Makers of models', icon: 'https://acme.test/logo.png' }),
      );
      expect(acme).toMatchObject({ name: 'Acme', description: 'Makers of models', status: 1, model_count: 0 });
      expect(acme.id).toBeGreaterThan(0);
      expect(expectOk(await root.get(`/api/vendors/${acme.id}`))).toMatchObject({ name: 'Acme' });
      expectOk(await root.post('/api/vendors/', { name: 'Other', icon: 'Claude.Color' }));

      const page = expectOk(await root.get('/api/vendors/?p=1&page_size=10'));
      expect(page).toMatchObject({ total: 2, page: 1, page_size: 10 });
      expect(page.items.map((v: VendorView) => v.name)).toEqual(['Other', 'Acme']);
      const found = expectOk(await root.get('/api/vendors/search?keyword=Makers'));
      expect(found.items.map((v: VendorView) => v.name)).toEqual(['Acme']);
      // Wildcards are literal.
      expect(expectOk(await root.get('/api/vendors/search?keyword=%25')).total).toBe(0);

      const edited = expectOk(await root.put('/api/vendors/', { id: acme.id, description: 'Still makers' }));
      expect(edited).toMatchObject({
        id: acme.id,
        name: 'Acme',
        description: 'Still makers',
        icon: 'https://acme.test/logo.png',
      });
    });

    it('refuses an empty or taken name, a bad icon, a bad id and non-admins, writing nothing', async () => {
      const before = await count('vendors');
      await refused(root.post('/api/vendors/', { name: '  ' }), 'vendor.name_required');
      await refused(root.post('/api/vendors/', { name: 'Acme' }), 'vendor.name_taken');
      await refused(root.post('/api/vendors/', { name: 'Evil', icon: 'javascript:alert(1)' }), 'catalog.icon_invalid');
      await refused(root.post('/api/vendors/', { name: 'Evil', icon: 'data:image/png;base64,AAAA' }), 'catalog.icon_invalid');
      await refused(root.post('/api/vendors/', { name: 'Evil', status: 7 }), 'request.invalid_params');
      await refused(root.post('/api/vendors/', { name: 'x'.repeat(129) }), 'request.invalid_params');
      await refused(root.put('/api/vendors/', { id: acme.id, name: 'Other' }), 'vendor.name_taken');
      await refused(root.put('/api/vendors/', { id: 999999, name: 'Ghost' }), 'vendor.not_found');
      await refused(root.get('/api/vendors/abc'), 'request.invalid_params');
      await refused(root.delete('/api/vendors/999999'), 'vendor.not_found');
      expect((await alice.post('/api/vendors/', { name: 'Mine' })).body).toMatchObject({
        success: false,
        code: 'auth.forbidden',
      });
      expect(await count('vendors')).toBe(before);
      expect(expectOk(await root.get(`/api/vendors/${acme.id}`)).name).toBe('Acme');
    });

    it('compares names exactly: another case is another vendor', async () => {
      const lower = expectOk(await root.post('/api/vendors/', { name: 'acme' }));
      expectOk(await root.delete(`/api/vendors/${lower.id}/`));
    });
  });

  describe('models', () => {
    let acmeId: number;
    let large: ModelView;

    beforeAll(async () => {
      const page = expectOk(await root.get('/api/vendors/search?keyword=Acme'));
      acmeId = page.items.find((v: VendorView) => v.name === 'Acme').id;
    });

    it('creates a row with its vendor and shows what it matches', async () => {
      large = expectOk(
        await root.post('/api/models/', {
          model_name: 'acme-large',
          description: 'The big one',
          tags: ' chat, 长文本 ，chat,,',
          vendor_id: acmeId,
          endpoints: '{"openai":"/v1/chat/completions","embeddings":{"path":"/v1/embeddings","method":"post"}}',
          context_length: 128000,
        }),
      );
      expect(large).toMatchObject({
        model_name: 'acme-large',
        tags: 'chat,长文本',
        vendor_id: acmeId,
        status: 1,
        name_rule: 0,
        sync_official: 1,
        context_length: 128000,
        matched_models: ['acme-large'],
        matched_count: 1,
        enable_groups: ['default'],
        quota_types: [0],
        bound_channels: [{ name: 'main', type: 1 }],
      });
      const prefix = expectOk(
        await root.post('/api/models/', { model_name: 'gpt-4o', name_rule: 1, description: 'GPT-4o family' }),
      );
      expect(prefix.matched_models).toEqual(['gpt-4o', 'gpt-4o-mini']);

      const page = expectOk(await root.get('/api/models/?p=1&page_size=10'));
      expect(page.items.map((m: ModelView) => m.model_name)).toEqual(['gpt-4o', 'acme-large']);
      expect(page.vendor_counts).toEqual({ '0': 1, [String(acmeId)]: 1 });
      expect(expectOk(await root.get(`/api/vendors/${acmeId}`)).model_count).toBe(1);
    });

    it('searches by keyword, vendor id or name, and status', async () => {
      const names = async (query: string) =>
        expectOk(await root.get(`/api/models/search?${query}`)).items.map((m: ModelView) => m.model_name);
      expect(await names('keyword=big')).toEqual(['acme-large']);
      expect(await names('keyword=长文本')).toEqual(['acme-large']);
      expect(await names(`vendor=${acmeId}`)).toEqual(['acme-large']);
      expect(await names('vendor=Acm')).toEqual(['acme-large']);
      expect(await names('vendor=nobody')).toEqual([]);
      expect(await names('status=0')).toEqual([]);
      expect(await names('keyword=&vendor=&status=')).toEqual(['gpt-4o', 'acme-large']);
    });

    it('edits a row, only its status with status_only, and keeps absent fields', async () => {
      const edited = expectOk(await root.put('/api/models/', { id: large.id, icon: 'Acme.Color', name_rule: 1 }));
      expect(edited).toMatchObject({ icon: 'Acme.Color', name_rule: 1, description: 'The big one', vendor_id: acmeId });
      const disabled = expectOk(
        await root.put('/api/models/?status_only=true', { id: large.id, status: 0, description: 'ignored' }),
      );
      expect(disabled).toMatchObject({ status: 0, description: 'The big one' });
      expectOk(await root.put('/api/models/?status_only=true', { id: large.id, status: 1 }));
    });

    it('refuses a taken name, a vendor that does not exist and bad input, writing nothing', async () => {
      const before = await count('models');
      await refused(root.post('/api/models/', { model_name: '' }), 'model.name_required');
      await refused(root.post('/api/models/', { model_name: 'acme-large' }), 'model.name_taken');
      await refused(root.post('/api/models/', { model_name: 'acme-x', vendor_id: 999999 }), 'model.vendor_missing');
      await refused(root.post('/api/models/', { model_name: 'acme-x', endpoints: '[1,2]' }), 'model.endpoints_invalid');
      await refused(root.post('/api/models/', { model_name: 'acme-x', endpoints: '{"a":3}' }), 'model.endpoints_invalid');
      await refused(root.post('/api/models/', { model_name: 'acme-x', endpoints: '{oops' }), 'model.endpoints_invalid');
      await refused(root.post('/api/models/', { model_name: 'acme-x', icon: 'http://' }), 'catalog.icon_invalid');
      await refused(root.post('/api/models/', { model_name: 'acme-x', name_rule: 4 }), 'request.invalid_params');
      await refused(root.post('/api/models/', { model_name: 'acme-x', context_length: -1 }), 'request.invalid_params');
      await refused(root.post('/api/models/', '{"model_name":"acme-x","context_length":1e999}'), 'request.invalid_params');
      await refused(root.put('/api/models/', { id: large.id, model_name: 'gpt-4o' }), 'model.name_taken');
      await refused(root.put('/api/models/', { id: large.id, vendor_id: 999999 }), 'model.vendor_missing');
      await refused(root.put('/api/models/', { id: 999999, model_name: 'ghost' }), 'model.not_found');
      await refused(root.delete('/api/models/999999'), 'model.not_found');
      expect((await alice.get('/api/models/')).body).toMatchObject({ success: false, code: 'auth.forbidden' });
      expect(await count('models')).toBe(before);
      expect(expectOk(await root.get(`/api/models/${large.id}`))).toMatchObject({ model_name: 'acme-large', vendor_id: acmeId });
    });

    it('lists the served models no row names exactly', async () => {
      const missing: string[] = expectOk(await root.get('/api/models/missing'));
      expect(missing.sort()).toEqual(
        ['acme-small', 'claude-sonnet-4-5', 'deepseek-chat', 'gemini-2.5-pro', 'gpt-4o-mini', 'o3-mini', 'openai/gpt-4.1'].sort(),
      );
    });
  });

  describe('/api/pricing', () => {
    it('names each model’s vendor: its row’s, or the built-in one its name suggests', async () => {
      const answer = await pricing();
      const vendorOf = (model: string) => {
        const item = answer.data.find((i) => i.model_name === model);
        return answer.vendors.find((v) => v.id === item?.vendor_id)?.name;
      };
      expect(vendorOf('acme-large')).toBe('Acme');
      // No row and no known prefix: no vendor.
      expect(answer.data.find((i) => i.model_name === 'acme-small')?.vendor_id).toBe(0);
      expect(vendorOf('gpt-4o')).toBe('OpenAI');
      expect(vendorOf('o3-mini')).toBe('OpenAI');
      expect(vendorOf('openai/gpt-4.1')).toBe('OpenAI');
      expect(vendorOf('claude-sonnet-4-5')).toBe('Anthropic');
      expect(vendorOf('gemini-2.5-pro')).toBe('Google');
      expect(vendorOf('deepseek-chat')).toBe('DeepSeek');
      const large = answer.data.find((i) => i.model_name === 'acme-large');
      expect(large).toMatchObject({ description: 'The big one', tags: 'chat,长文本', icon: 'Acme.Color' });
      expect(answer.data.find((i) => i.model_name === 'gpt-4o-mini')).toMatchObject({ description: 'GPT-4o family' });
      const openai = answer.vendors.find((v) => v.name === 'OpenAI');
      expect(openai).toMatchObject({ icon: 'OpenAI' });
      expect(openai?.id).toBeLessThan(0);
      expect(answer.vendors.map((v) => v.name)).toEqual(
        [...answer.vendors.map((v) => v.name)].sort((a, b) => a.localeCompare(b)),
      );
    });

    it('lets an admin’s vendor of a built-in name, and a row naming a vendor, win over the prefixes', async () => {
      const mine = expectOk(await root.post('/api/vendors/', { name: 'openai', description: 'Ours', icon: 'OpenAI.Color' }));
      const deepseek = expectOk(await root.post('/api/models/', { model_name: 'deepseek-chat', vendor_id: mine.id }));
      let answer = await pricing();
      const byModel = (model: string) => answer.data.find((i) => i.model_name === model);
      expect(byModel('gpt-4o')?.vendor_id).toBe(mine.id);
      expect(byModel('deepseek-chat')?.vendor_id).toBe(mine.id);
      expect(answer.vendors.find((v) => v.id === mine.id)).toEqual({
        id: mine.id,
        name: 'openai',
        description: 'Ours',
        icon: 'OpenAI.Color',
      });
      expect(answer.vendors.some((v) => v.name === 'DeepSeek')).toBe(false);

      // Deleting the vendor leaves the row without one: back to the prefixes.
      expectOk(await root.delete(`/api/vendors/${mine.id}`));
      expect(expectOk(await root.get(`/api/models/${deepseek.id}`)).vendor_id).toBe(0);
      answer = await pricing();
      expect(answer.vendors.find((v) => v.id === byModel('deepseek-chat')?.vendor_id)?.name).toBe('DeepSeek');
      expect(answer.vendors.find((v) => v.id === byModel('gpt-4o')?.vendor_id)?.name).toBe('OpenAI');
    });

    it('leaves out a model whose row is disabled, and shows it again once deleted', async () => {
      const row = expectOk(await root.post('/api/models/', { model_name: 'gemini-2.5-pro', status: 0 }));
      expect((await pricing()).data.some((i) => i.model_name === 'gemini-2.5-pro')).toBe(false);
      expectOk(await root.delete(`/api/models/${row.id}/`));
      expect((await pricing()).data.some((i) => i.model_name === 'gemini-2.5-pro')).toBe(true);
    });
  });
});
