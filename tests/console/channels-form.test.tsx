import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setupServer } from 'msw/node';
import { clearLoadedChoices } from '../../src/resources/schema';
import { validateChannel, toChannelBody, emptyValues } from '../../src/resources/channel/channelForm';
import { api, callsTo, calls, logIn } from './harness';
import { channel, channelHandlers, renderChannels, resetChannels } from './channels-fixtures';

const server = setupServer(
  api('post', '/api/channel/fetch_models', ['gpt-4o', 'o3']),
  api('get', '/api/channel/fetch_models/:id', ['gpt-4o', 'gpt-4.1']),
  ...channelHandlers,
);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  resetChannels();
  clearLoadedChoices();
  logIn({ id: 1, role: 100, username: 'root' });
});
afterEach(() => {
  server.resetHandlers();
  calls.length = 0;
});
afterAll(() => server.close());

async function openCreate() {
  renderChannels('/channel/add');
  return screen.findByRole('dialog', { name: '创建新的渠道' });
}

/** Long values are pasted: typing them key by key re-renders the whole form each time. */
async function pasteInto(input: HTMLElement, text: string) {
  await userEvent.click(input);
  await userEvent.paste(text);
}

const save = (drawer: HTMLElement) => userEvent.click(within(drawer).getByRole('button', { name: /保存/ }));

describe('create-channel drawer', () => {
  it('needs name, key and a model, then posts models and groups as comma strings', async () => {
    const drawer = await openCreate();
    await save(drawer);
    expect((await within(drawer).findAllByText('请填写渠道名称和渠道密钥')).length).toBeGreaterThan(0);
    expect(within(drawer).getByText('请至少选择一个模型')).toBeTruthy();
    expect(callsTo('POST', '/api/channel/')).toHaveLength(0);

    await userEvent.type(within(drawer).getByLabelText('名称'), 'my openai');
    await userEvent.type(within(drawer).getByLabelText('密钥'), 'sk-abc');
    const custom = within(drawer).getByLabelText('输入自定义模型名称（多个用英文逗号分隔）');
    await userEvent.type(custom, 'gpt-4o, my-model');
    await userEvent.click(within(drawer).getByRole('button', { name: '填入' }));
    expect(within(drawer).getByText('my-model')).toBeTruthy();
    await userEvent.type(custom, 'my-model');
    await userEvent.click(within(drawer).getByRole('button', { name: '填入' }));
    expect(await screen.findByText('部分模型已存在')).toBeTruthy();

    await pasteInto(within(drawer).getByLabelText('模型重定向'), '{bad');
    await save(drawer);
    expect(await within(drawer).findByText('模型映射必须是合法的 JSON 格式！')).toBeTruthy();
    expect(callsTo('POST', '/api/channel/')).toHaveLength(0);

    await userEvent.clear(within(drawer).getByLabelText('模型重定向'));
    await pasteInto(within(drawer).getByLabelText('模型重定向'), '{"gpt-4o":"gpt-4o-2024"}');
    await pasteInto(within(drawer).getByLabelText('参数覆盖'), '{"temperature":0}');
    await userEvent.type(within(drawer).getByLabelText('标签'), 'team');
    await pasteInto(within(drawer).getByLabelText('备注'), 'shared key');
    await pasteInto(within(drawer).getByLabelText('请求头覆盖'), '{"X-Tenant":1}');
    await save(drawer);
    expect(await within(drawer).findByText('请求头的值必须是字符串')).toBeTruthy();
    expect(callsTo('POST', '/api/channel/')).toHaveLength(0);
    await userEvent.clear(within(drawer).getByLabelText('请求头覆盖'));
    await pasteInto(within(drawer).getByLabelText('请求头覆盖'), '{"X-Tenant":"acme"}');
    const concurrency = within(drawer).getByLabelText('最大并发数');
    await userEvent.clear(concurrency);
    await userEvent.type(concurrency, '4');
    await save(drawer);
    await waitFor(() => expect(callsTo('POST', '/api/channel/')).toHaveLength(1));
    expect(callsTo('POST', '/api/channel/')[0]?.body).toEqual({
      type: 1,
      name: 'my openai',
      key: 'sk-abc',
      base_url: '',
      other: '',
      openai_organization: '',
      models: 'gpt-4o,my-model',
      group: 'default',
      model_mapping: '{"gpt-4o":"gpt-4o-2024"}',
      status_code_mapping: '',
      param_override: '{"temperature":0}',
      setting: '',
      test_model: '',
      auto_ban: 1,
      tag: 'team',
      multi_key_mode: '',
      remark: 'shared key',
      settings: '',
      header_override: '{"X-Tenant":"acme"}',
      rpm_limit: 0,
      max_concurrency: 4,
      priority: 0,
      weight: 0,
    });
    expect(await screen.findByText('渠道创建成功！', {}, { timeout: 3000 })).toBeTruthy();
  });

  it('asks before saving a base URL ending in /v1 and strips its trailing slash', async () => {
    const drawer = await openCreate();
    await userEvent.type(within(drawer).getByLabelText('名称'), 'proxy');
    await userEvent.type(within(drawer).getByLabelText('密钥'), 'sk-1');
    await userEvent.type(within(drawer).getByLabelText('输入自定义模型名称（多个用英文逗号分隔）'), 'gpt-4o');
    await userEvent.click(within(drawer).getByRole('button', { name: '填入' }));
    expect(
      within(drawer)
        .getByLabelText(/Base URL/)
        .getAttribute('placeholder'),
    ).toBe('https://api.openai.com');
    await pasteInto(within(drawer).getByLabelText(/Base URL/), 'https://proxy.example.com/v1/');
    await save(drawer);
    expect(await screen.findByText('Base URL 以 /v1 结尾')).toBeTruthy();
    expect(callsTo('POST', '/api/channel/')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: /确认/ }));
    await waitFor(() => expect(callsTo('POST', '/api/channel/')).toHaveLength(1));
    expect(callsTo('POST', '/api/channel/')[0]?.body).toMatchObject({
      base_url: 'https://proxy.example.com/v1',
      models: 'gpt-4o',
    });
  });

  it('fetches models for a new channel only once a key is given', async () => {
    const drawer = await openCreate();
    await userEvent.click(within(drawer).getByRole('button', { name: '获取模型列表' }));
    expect(await screen.findByText('请填写密钥')).toBeTruthy();
    expect(callsTo('POST', '/api/channel/fetch_models')).toHaveLength(0);
    await userEvent.type(within(drawer).getByLabelText('密钥'), 'sk-2');
    await userEvent.click(within(drawer).getByRole('button', { name: '获取模型列表' }));
    await waitFor(() =>
      expect(callsTo('POST', '/api/channel/fetch_models').map((c) => c.body)).toEqual([{ base_url: '', type: 1, key: 'sk-2' }]),
    );
    expect(await within(drawer).findByText('o3')).toBeTruthy();
  });
});

describe('edit-channel drawer', () => {
  it('loads the channel, says an empty key keeps the old one, and does not send it', async () => {
    renderChannels('/channel/edit/1');
    const drawer = await screen.findByRole('dialog', { name: '更新渠道信息' });
    await waitFor(() => expect((within(drawer).getByLabelText('名称') as HTMLInputElement).value).toBe('alpha'));
    expect(within(drawer).getByText('留空则保持原密钥不变')).toBeTruthy();
    expect(within(drawer).getByText('gpt-4o-mini')).toBeTruthy();

    await userEvent.click(within(drawer).getByRole('button', { name: '获取模型列表' }));
    await waitFor(() => expect(callsTo('GET', '/api/channel/fetch_models/1')).toHaveLength(1));
    expect(await within(drawer).findByText('gpt-4.1')).toBeTruthy();

    await userEvent.clear(within(drawer).getByLabelText('名称'));
    await userEvent.type(within(drawer).getByLabelText('名称'), 'alpha-2');
    await save(drawer);
    await waitFor(() => expect(callsTo('PUT', '/api/channel/')).toHaveLength(1));
    const body = callsTo('PUT', '/api/channel/')[0]?.body as Record<string, unknown>;
    expect(body).not.toHaveProperty('key');
    expect(body).toMatchObject({ id: 1, name: 'alpha-2', models: 'gpt-4o,gpt-4o-mini,gpt-4.1', group: 'default,vip', weight: 2 });
    expect(await screen.findByText('更新成功！')).toBeTruthy();
  });

  it('switches stream-only in the setting JSON, keeping its other keys, and not while it is broken', async () => {
    server.use(api('get', '/api/channel/8', channel({ id: 8, name: 'streamer', setting: '{"force_format": true}' })));
    renderChannels('/channel/edit/8');
    const drawer = await screen.findByRole('dialog', { name: '更新渠道信息' });
    await waitFor(() => expect((within(drawer).getByLabelText('名称') as HTMLInputElement).value).toBe('streamer'));
    const toggle = await within(drawer).findByRole('switch', { name: '上游仅支持流式' });
    expect((toggle as HTMLInputElement).checked).toBe(false);
    const setting = within(drawer).getByLabelText('渠道额外设置') as HTMLTextAreaElement;
    await userEvent.click(toggle);
    expect(JSON.parse(setting.value)).toEqual({ force_format: true, stream_only: true });
    await userEvent.click(toggle);
    expect(JSON.parse(setting.value)).toEqual({ force_format: true });
    await userEvent.click(toggle);
    await save(drawer);
    await waitFor(() => expect(callsTo('PUT', '/api/channel/')).toHaveLength(1));
    expect(JSON.parse((callsTo('PUT', '/api/channel/')[0]?.body as { setting: string }).setting)).toEqual({
      force_format: true,
      stream_only: true,
    });
  });

  it('leaves stream-only alone while the setting is not a JSON object', async () => {
    const drawer = await openCreate();
    const toggle = within(drawer).getByRole('switch', { name: '上游仅支持流式' }) as HTMLInputElement;
    expect(toggle.disabled).toBe(false);
    await pasteInto(within(drawer).getByLabelText('渠道额外设置'), '{broken');
    expect(toggle.disabled).toBe(true);
    expect(within(drawer).getByText('“渠道额外设置”不是合法的 JSON 对象，修正后才能切换')).toBeTruthy();
  });

  it('shows the type’s extra field (iFlytek version) and sends v2.1 when it is left empty', async () => {
    resetChannels();
    server.use(api('get', '/api/channel/7', channel({ id: 7, name: 'spark', type: 18, other: '' })));
    renderChannels('/channel/edit/7');
    const drawer = await screen.findByRole('dialog', { name: '更新渠道信息' });
    await waitFor(() => expect((within(drawer).getByLabelText('名称') as HTMLInputElement).value).toBe('spark'));
    expect(within(drawer).getByLabelText('模型版本')).toBeTruthy();
    await save(drawer);
    await waitFor(() => expect(callsTo('PUT', '/api/channel/')).toHaveLength(1));
    expect(callsTo('PUT', '/api/channel/')[0]?.body).toMatchObject({ id: 7, type: 18, other: 'v2.1' });
  });
});

describe('channel form rules', () => {
  it('checks priority and weight, JSON fields and base URLs', () => {
    const base = { ...emptyValues(), name: 'n', key: 'k', models: ['m'] };
    expect(validateChannel(base, 'create')).toEqual({});
    expect(validateChannel({ ...base, key: '' }, 'edit')).toEqual({});
    // Ollama serves without a key; AWS (33) and Vertex (41) take their address from the region.
    expect(validateChannel({ ...base, key: '' }, 'create').key).toMatch(/name_and_key$/);
    expect(validateChannel({ ...base, key: '', type: 4, base_url: 'http://127.0.0.1:11434' }, 'create')).toEqual({});
    expect(validateChannel({ ...base, type: 33 }, 'create')).toEqual({});
    expect(validateChannel({ ...base, type: 41 }, 'create')).toEqual({});
    expect(validateChannel({ ...base, priority: -1000 }, 'create').priority).toMatch(/priority_min$/);
    expect(validateChannel({ ...base, priority: 1.5 }, 'create').priority).toMatch(/priority_integer$/);
    expect(validateChannel({ ...base, status_code_mapping: '[1]' }, 'create').status_code_mapping).toMatch(/_json$/);
    expect(validateChannel({ ...base, type: 8 }, 'create').base_url).toMatch(/base_url_required$/);
    expect(validateChannel({ ...base, base_url: 'ftp://x' }, 'create').base_url).toMatch(/base_url_format$/);
  });

  it('turns a negative weight into 0 and leaves blank priority out', () => {
    const body = toChannelBody({ ...emptyValues(), name: 'n', key: 'k', models: ['a', 'b'], weight: -4, priority: '' }, 'create');
    expect(body.weight).toBe(0);
    expect(body).not.toHaveProperty('priority');
    expect(body.models).toBe('a,b');
  });
});
