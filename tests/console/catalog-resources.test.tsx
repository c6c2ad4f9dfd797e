/**
 * The model and vendor screens (/model, /vendor) against msw: declared by schema only, they list
 * rows with the vendor's name, tags and icons (an image only for http(s) addresses), filter by
 * keyword and vendor, create and edit through the drawers with the API's exact bodies, switch a
 * row's status, add the served models without metadata, show phone cards, and offer a vendor
 * made meanwhile in the model form.
 */
import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setupServer } from 'msw/node';
import type { ModelView, VendorView } from '../../server/catalog/schemas';
import { dataProvider } from '../../src/dataProvider';
import { ResourceList } from '../../src/resources/schema';
import modelSchema from '../../src/resources/model/schema';
import vendorSchema from '../../src/resources/vendor/schema';
import { api, callsTo } from './harness';
import { renderList, setUpSelectableList } from './selectable-list-harness';

const vendor = (id: number, name: string, icon = ''): VendorView => ({
  id,
  name,
  description: `${name} makes models`,
  icon,
  status: 1,
  created_time: 1700000000,
  updated_time: 1700000000,
  model_count: 1,
});

const model = (id: number, model_name: string, fields: Partial<ModelView> = {}): ModelView => ({
  id,
  model_name,
  description: '',
  icon: '',
  tags: '',
  vendor_id: 0,
  endpoints: '',
  context_length: 0,
  max_output_tokens: 0,
  knowledge_cutoff: '',
  release_date: '',
  parameter_count: '',
  input_modalities: '',
  output_modalities: '',
  status: 1,
  sync_official: 1,
  name_rule: 0,
  created_time: 1700000000,
  updated_time: 1700000000,
  matched_models: [],
  matched_count: 0,
  enable_groups: [],
  quota_types: [],
  bound_channels: [],
  ...fields,
});

let vendors: VendorView[] = [];
let models: ModelView[] = [];
let missing: string[] = [];
const seed = () => {
  vendors = [vendor(2, 'Acme', 'https://acme.test/logo.png'), vendor(1, 'OpenAI', 'OpenAI')];
  models = [
    model(2, 'acme-large', {
      vendor_id: 2,
      description: 'The big one',
      tags: 'chat,长文本',
      matched_models: ['acme-large'],
      matched_count: 1,
    }),
    model(1, 'gpt-4o', { name_rule: 1, status: 0 }),
  ];
  missing = ['claude-sonnet-4-5', 'deepseek-chat'];
};

const page = <T,>(items: T[]) => ({ items, total: items.length, page: 1, page_size: 10, vendor_counts: {} });
const idOf = (path: string) => Number(path.split('/')[3]);

const server = setupServer(
  api('get', '/api/vendors/search', (call) => page(vendors.filter((v) => v.name.includes(call.query.keyword ?? '')))),
  api('get', '/api/vendors/', () => page(vendors)),
  api('get', '/api/vendors/:id', (call) => vendors.find((v) => v.id === idOf(call.path)) ?? null),
  api('post', '/api/vendors/', (call) => {
    const created = { ...vendor(vendors.length + 10, ''), ...(call.body as object) };
    vendors.unshift(created);
    return created;
  }),
  api('put', '/api/vendors/', (call) => {
    const body = call.body as Partial<VendorView> & { id: number };
    const found = vendors.find((v) => v.id === body.id);
    if (found) Object.assign(found, body);
    return found ?? null;
  }),
  api('get', '/api/models/missing', () => missing),
  api('post', '/api/models/sync_upstream', () => {
    const known = missing.filter((name) => name.startsWith('deepseek'));
    for (const name of known) models.unshift(model(models.length + 10, name));
    missing = missing.filter((name) => !known.includes(name));
    return {
      created_models: known.length,
      created_vendors: 1,
      updated_models: 0,
      skipped_models: missing,
      created_list: known,
      updated_list: [],
      source: { locale: '', models_url: '', vendors_url: '' },
    };
  }),
  api('get', '/api/models/search', (call) =>
    page(
      models.filter(
        (m) =>
          m.model_name.includes(call.query.keyword ?? '') && (!call.query.vendor || String(m.vendor_id) === call.query.vendor),
      ),
    ),
  ),
  api('get', '/api/models/', () => page(models)),
  api('get', '/api/models/:id', (call) => models.find((m) => m.id === idOf(call.path)) ?? null),
  api('post', '/api/models/', (call) => {
    const created = model(models.length + 10, '', call.body as Partial<ModelView>);
    models.unshift(created);
    missing = missing.filter((name) => name !== created.model_name);
    return created;
  }),
  api('put', '/api/models/', (call) => {
    const body = call.body as Partial<ModelView> & { id: number };
    const found = models.find((m) => m.id === body.id);
    if (found) Object.assign(found, call.query.status_only === 'true' ? { status: body.status } : body);
    return found ?? null;
  }),
  api('delete', '/api/models/:id/', () => null),
);

setUpSelectableList(server, { user: { id: 1, role: 10, username: 'admin' }, reset: seed });
const renderModels = (url = '/model') => renderList(<ResourceList schema={modelSchema} />, 'model', url);
const renderVendors = (url = '/vendor') => renderList(<ResourceList schema={vendorSchema} />, 'vendor', url);
// A shared machine may be slow to render these screens: generous waits, and a test timeout to match.
vi.setConfig({ testTimeout: 120_000 });
const SLOW = { timeout: 15_000 };

/** The table row showing `text`, once it is there. */
async function rowOf(text: string): Promise<HTMLElement> {
  const row = (await screen.findByText(text, {}, SLOW)).closest('tr');
  if (!row) throw new Error(`no row for ${text}`);
  return row;
}

const save = (drawer: HTMLElement) => userEvent.click(within(drawer).getByRole('button', { name: /保存/ }));

describe('models list', () => {
  it("shows each row's vendor by name, tags, rule, matches and status, and filters by keyword and vendor", async () => {
    renderModels();
    const acme = await rowOf('acme-large');
    await waitFor(() => expect(within(acme).getByText('Acme')).toBeTruthy(), SLOW);
    expect(within(acme).getByText('长文本')).toBeTruthy();
    expect(within(acme).getByText('精确')).toBeTruthy();
    expect(within(acme).getByText('匹配 1 个模型')).toBeTruthy();
    expect(within(acme).getByText('已启用')).toBeTruthy();
    const gpt = await rowOf('gpt-4o');
    expect(within(gpt).getByText('—')).toBeTruthy();
    expect(within(gpt).getByText('前缀')).toBeTruthy();
    expect(within(gpt).getByText('未匹配在售模型')).toBeTruthy();
    expect(within(gpt).getByRole('button', { name: '启用' })).toBeTruthy();

    await userEvent.type(screen.getByLabelText('搜索名称、描述或标签'), 'acme');
    await waitFor(() => expect(callsTo('GET', '/api/models/search').at(-1)?.query).toMatchObject({ keyword: 'acme' }), SLOW);
    await userEvent.clear(screen.getByLabelText('搜索名称、描述或标签'));
    await userEvent.click(screen.getByRole('combobox', { name: '供应商' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Acme' }, SLOW));
    await waitFor(() => expect(callsTo('GET', '/api/models/search').at(-1)?.query).toMatchObject({ vendor: '2' }), SLOW);
    await waitFor(() => expect(screen.queryByText('gpt-4o')).toBeNull(), SLOW);
  });

  it("switches a row's status with status_only", async () => {
    renderModels();
    await userEvent.click(within(await rowOf('acme-large')).getByRole('button', { name: '禁用' }));
    await waitFor(() => expect(callsTo('PUT', '/api/models/')).toHaveLength(1), SLOW);
    expect(callsTo('PUT', '/api/models/')[0]).toMatchObject({ query: { status_only: 'true' }, body: { id: 2, status: 0 } });
  });

  it('lists the served models without metadata and adds one as a row', async () => {
    renderModels();
    await rowOf('acme-large');
    await userEvent.click(screen.getByRole('button', { name: '未配置的模型' }));
    const dialog = await screen.findByRole('dialog', { name: '未配置元数据的在售模型' }, SLOW);
    expect(await within(dialog).findByText('deepseek-chat', {}, SLOW)).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: '添加 claude-sonnet-4-5' }));
    await waitFor(
      () => expect(callsTo('POST', '/api/models/').map((c) => c.body)).toEqual([{ model_name: 'claude-sonnet-4-5' }]),
      SLOW,
    );
    await waitFor(() => expect(within(dialog).queryByText('claude-sonnet-4-5')).toBeNull(), SLOW);
    expect(await rowOf('claude-sonnet-4-5')).toBeTruthy();

    // The rest from the official catalogue.
    await userEvent.click(within(dialog).getByRole('button', { name: '从官方目录同步' }));
    expect(await screen.findByText('已从官方目录添加 1 个模型和 1 个供应商', {}, SLOW)).toBeTruthy();
    expect(callsTo('POST', '/api/models/sync_upstream').map((c) => c.body)).toEqual([{}]);
    await waitFor(() => expect(within(dialog).queryByText('deepseek-chat')).toBeNull(), SLOW);
    expect(await within(dialog).findByText('所有在售模型都已配置元数据。', {}, SLOW)).toBeTruthy();
    expect(await rowOf('deepseek-chat')).toBeTruthy();
  });
});

describe('model drawers', () => {
  it('refuses a form without a name or with bad endpoints, then posts every field', async () => {
    renderModels('/model/create');
    const drawer = await screen.findByRole('dialog', { name: '添加模型' }, SLOW);
    const fill = async (label: RegExp, text: string) => {
      const input = within(drawer).getByLabelText(label);
      await userEvent.clear(input);
      await userEvent.click(input);
      await userEvent.paste(text);
    };
    await save(drawer);
    expect(await within(drawer).findByText('必填', {}, SLOW)).toBeTruthy();
    await fill(/模型名称/, 'acme-small');
    await fill(/标签/, 'chat');
    await fill(/端点/, '[1]');
    await fill(/图标/, 'javascript:alert(1)');
    await save(drawer);
    expect(await within(drawer).findByText(/JSON 对象：端点类型/, {}, SLOW)).toBeTruthy();
    expect(within(drawer).getByText(/图标名称（字母/)).toBeTruthy();
    expect(callsTo('POST', '/api/models/')).toHaveLength(0);

    await fill(/端点/, '{"openai":"/v1/chat/completions"}');
    await userEvent.clear(within(drawer).getByLabelText(/图标/));
    await userEvent.click(await within(drawer).findByRole('combobox', { name: '供应商' }, SLOW));
    await userEvent.click(await screen.findByRole('option', { name: 'Acme' }, SLOW));
    await save(drawer);
    await waitFor(() => expect(callsTo('POST', '/api/models/')).toHaveLength(1), SLOW);
    expect(callsTo('POST', '/api/models/')[0]?.body).toEqual({
      model_name: 'acme-small',
      description: '',
      icon: '',
      tags: 'chat',
      endpoints: '{"openai":"/v1/chat/completions"}',
      knowledge_cutoff: '',
      release_date: '',
      parameter_count: '',
      input_modalities: '',
      output_modalities: '',
      vendor_id: 2,
      context_length: 0,
      max_output_tokens: 0,
      status: 1,
      sync_official: 1,
      name_rule: 0,
    });
  });

  it('loads a row and saves its writable fields with its id', async () => {
    renderModels('/model/edit/2');
    const drawer = await screen.findByRole('dialog', { name: '编辑模型' }, SLOW);
    const description = await within(drawer).findByLabelText(/描述/);
    await waitFor(() => expect((description as HTMLTextAreaElement).value).toBe('The big one'), SLOW);
    await userEvent.clear(description);
    await userEvent.type(description, 'Bigger');
    await save(drawer);
    await waitFor(() => expect(callsTo('PUT', '/api/models/')).toHaveLength(1), SLOW);
    const body = callsTo('PUT', '/api/models/')[0]?.body as Record<string, unknown>;
    expect(body).toMatchObject({ id: 2, model_name: 'acme-large', description: 'Bigger', vendor_id: 2, tags: 'chat,长文本' });
    expect(body).not.toHaveProperty('matched_models');
  });

  it('offers a vendor made meanwhile without a reload', async () => {
    renderModels('/model/create');
    let drawer = await screen.findByRole('dialog', { name: '添加模型' }, SLOW);
    await userEvent.click(await within(drawer).findByRole('combobox', { name: '供应商' }, SLOW));
    expect(await screen.findByRole('option', { name: 'OpenAI' }, SLOW)).toBeTruthy();
    expect(screen.queryByRole('option', { name: 'Zeta' })).toBeNull();
    await userEvent.keyboard('{Escape}');
    const loads = callsTo('GET', '/api/vendors/').length;

    await dataProvider.create('vendor', { data: { name: 'Zeta' } });
    renderModels('/model/create');
    drawer = (await screen.findAllByRole('dialog', { name: '添加模型' }, SLOW)).at(-1) as HTMLElement;
    await userEvent.click(await within(drawer).findByRole('combobox', { name: '供应商' }, SLOW));
    expect(await screen.findByRole('option', { name: 'Zeta' }, SLOW)).toBeTruthy();
    expect(callsTo('GET', '/api/vendors/').length).toBeGreaterThan(loads);
  });
});

describe('vendors', () => {
  it('lists vendors with their model count, showing only http(s) icons as images', async () => {
    renderVendors();
    const acme = await rowOf('Acme');
    expect(within(acme).getByRole('img', { name: 'Acme' }).getAttribute('src')).toBe('https://acme.test/logo.png');
    expect(within(acme).getByText('Acme makes models')).toBeTruthy();
    const openai = await rowOf('OpenAI');
    expect(within(openai).queryByRole('img')).toBeNull();
  });

  it('creates and edits a vendor with the exact bodies', async () => {
    renderVendors('/vendor/create');
    const drawer = await screen.findByRole('dialog', { name: '添加供应商' }, SLOW);
    await userEvent.type(await within(drawer).findByLabelText(/^名称/, {}, SLOW), 'Zeta');
    await userEvent.type(within(drawer).getByLabelText(/图标/), 'Zeta.Color');
    await save(drawer);
    await waitFor(() => expect(callsTo('POST', '/api/vendors/')).toHaveLength(1), SLOW);
    expect(callsTo('POST', '/api/vendors/')[0]?.body).toEqual({ name: 'Zeta', description: '', icon: 'Zeta.Color', status: 1 });

    renderVendors('/vendor/edit/1');
    const edit = (await screen.findAllByRole('dialog', { name: '编辑供应商' }, SLOW)).at(-1) as HTMLElement;
    const name = await within(edit).findByLabelText(/^名称/);
    await waitFor(() => expect((name as HTMLInputElement).value).toBe('OpenAI'), SLOW);
    await userEvent.type(name, ' Inc');
    await save(edit);
    await waitFor(() => expect(callsTo('PUT', '/api/vendors/')).toHaveLength(1), SLOW);
    expect(callsTo('PUT', '/api/vendors/')[0]?.body).toEqual({
      id: 1,
      name: 'OpenAI Inc',
      description: 'OpenAI makes models',
      icon: 'OpenAI',
      status: 1,
    });
  });

  it('shows phone cards with the same cells and actions', async () => {
    vi.stubGlobal(
      'matchMedia',
      (query: string) =>
        ({
          matches: true,
          media: query,
          onchange: null,
          addEventListener: () => undefined,
          removeEventListener: () => undefined,
          addListener: () => undefined,
          removeListener: () => undefined,
          dispatchEvent: () => false,
        }) as MediaQueryList,
    );
    renderVendors();
    const name = await screen.findByText('Acme', {}, SLOW);
    expect(name.closest('tr')).toBeNull();
    const card = name.closest('.MuiCard-root') as HTMLElement;
    expect(within(card).getByText('模型数')).toBeTruthy();
    expect(within(card).getByRole('button', { name: '禁用' })).toBeTruthy();
  });
});
