import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { OptionsGate } from '../../src/customPages/setting/operation/OptionsGate';
import { RatioSettings } from '../../src/customPages/setting/operation/RatioSettings';
import { useOptions } from '../../src/customPages/setting/useOptions';
import { ok, optionHandlers, renderPage, sentTo, serveDuringTests } from './pages-harness';

let stored: Record<string, string> = {};
const initial = () => ({
  ModelPrice: '{"dall-e-3":0.04}',
  ModelRatio: '{"gpt-4o":1.25,"gpt-4o-mini":0.075}',
  CompletionRatio: '{"gpt-4o":4}',
  CacheRatio: '{}',
  GroupRatio: '{"default":1}',
  UserUsableGroups: '{"default":"默认分组"}',
  RetryTimes: '0',
});

const server = setupServer(
  ...optionHandlers(() => stored),
  ok('get', '/api/channel/models_enabled', ['gpt-4o', 'new-a', 'new-b', 'dall-e-3']),
);

serveDuringTests(server);
beforeEach(() => {
  stored = initial();
  localStorage.setItem('user', JSON.stringify({ id: 1, username: 'root', role: 100 }));
});

/** The saved options, parsed, by key. */
const saved = () =>
  Object.fromEntries(
    sentTo('PUT', '/api/option/')
      .map((r) => r.body as { key: string; value: string })
      .map((b) => [b.key, JSON.parse(b.value)]),
  );

/** The operation tab's ratio settings card alone, over the same option state the tab uses. */
function Ratios() {
  const options = useOptions();
  return (
    <OptionsGate options={options}>
      <RatioSettings options={options} />
    </OptionsGate>
  );
}

async function openSubTab(name: string) {
  renderPage(<Ratios />, '/setting');
  await userEvent.click(await screen.findByRole('tab', { name }, { timeout: 5000 }));
}

const cell = (label: string) => screen.getByLabelText(label) as HTMLInputElement;

async function retype(field: HTMLElement, text: string) {
  await userEvent.clear(field);
  if (text) fireEvent.change(field, { target: { value: text } });
}

const applyChanges = () => userEvent.click(screen.getByRole('button', { name: '应用更改' }));

describe('visual pricing editor', () => {
  it('lists every priced model with its USD per 1M tokens and disables ratios of fixed-price rows', async () => {
    await openSubTab('可视化倍率设置');
    expect((await screen.findByLabelText('gpt-4o 模型倍率', {}, { timeout: 5000 })).getAttribute('value')).toBe('1.25');
    const gpt4o = screen.getByText('gpt-4o').closest('tr')!;
    expect(within(gpt4o).getByText('$2.5')).toBeTruthy();
    expect(within(gpt4o).getByText('$10')).toBeTruthy();
    expect(cell('dall-e-3 模型固定价格').value).toBe('0.04');
    expect(cell('dall-e-3 模型倍率').disabled).toBe(true);
    expect(cell('dall-e-3 补全倍率').disabled).toBe(true);
    expect(cell('gpt-4o-mini 模型倍率').disabled).toBe(false);
    // No completion ratio stored for gpt-4o-mini: the built-in one billing uses (4) is shown, and priced.
    expect(cell('gpt-4o-mini 补全倍率').value).toBe('');
    expect(cell('gpt-4o-mini 补全倍率').placeholder).toBe('4');
    const mini = screen.getByText('gpt-4o-mini').closest('tr')!;
    expect(within(mini).getByText('$0.6')).toBeTruthy();
    // The pager speaks Chinese too: react-admin's range and page buttons, not MUI's English defaults.
    expect(screen.getByText('1-3 / 3')).toBeTruthy();
    expect(screen.queryByText(/\bof\b/)).toBeNull();
    expect(screen.getByRole('button', { name: '转到上一页' })).toBeTruthy();
  });

  it('edits cells in place and saves only the option that changed', async () => {
    await openSubTab('可视化倍率设置');
    await retype(await screen.findByLabelText('gpt-4o-mini 模型倍率', {}, { timeout: 5000 }), '0.1');
    await applyChanges();
    expect(await screen.findByText('保存成功')).toBeTruthy();
    expect(saved()).toEqual({ ModelRatio: { 'gpt-4o': 1.25, 'gpt-4o-mini': 0.1 } });
  });

  it('says nothing changed when nothing did, and refuses a cell that is not a number', async () => {
    await openSubTab('可视化倍率设置');
    await screen.findByLabelText('gpt-4o 模型倍率', {}, { timeout: 5000 });
    await applyChanges();
    expect(await screen.findByText('你似乎并没有修改什么')).toBeTruthy();
    await retype(cell('gpt-4o 补全倍率'), 'abc');
    await applyChanges();
    expect(await screen.findByText('gpt-4o：请输入数字')).toBeTruthy();
    expect(sentTo('PUT', '/api/option/')).toHaveLength(0);
  });

  it('adds a model per request and refuses a duplicate name', async () => {
    await openSubTab('可视化倍率设置');
    await userEvent.click(await screen.findByRole('button', { name: '添加模型' }, { timeout: 5000 }));
    const dialog = within(await screen.findByRole('dialog'));
    await userEvent.type(dialog.getByLabelText('模型名称'), 'gpt-4o');
    await userEvent.type(dialog.getByLabelText('模型倍率'), '2');
    await userEvent.click(dialog.getByRole('button', { name: '确认' }));
    expect(await screen.findByText('模型名称已存在')).toBeTruthy();
    await retype(dialog.getByLabelText('模型名称'), 'flux-pro');
    await userEvent.click(dialog.getByLabelText('按次计费'));
    expect(dialog.queryByLabelText('模型倍率')).toBeNull();
    await userEvent.click(dialog.getByRole('button', { name: '确认' }));
    expect(await screen.findByText('请输入模型固定价格')).toBeTruthy();
    await userEvent.type(dialog.getByLabelText('模型固定价格（美元/次）'), '0.05');
    await userEvent.click(dialog.getByRole('button', { name: '确认' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(cell('flux-pro 模型固定价格').value).toBe('0.05');
    await applyChanges();
    expect(await screen.findByText('保存成功')).toBeTruthy();
    expect(saved()).toEqual({ ModelPrice: { 'dall-e-3': 0.04, 'flux-pro': 0.05 } });
  });

  it('adds a model by dollar prices, converted to ratios (price / 2, output / input)', async () => {
    await openSubTab('可视化倍率设置');
    await userEvent.click(await screen.findByRole('button', { name: '添加模型' }, { timeout: 5000 }));
    const dialog = within(await screen.findByRole('dialog'));
    await userEvent.type(dialog.getByLabelText('模型名称'), 'my-model');
    await userEvent.type(dialog.getByLabelText('模型倍率'), '1.5');
    await userEvent.type(dialog.getByLabelText('补全倍率'), '4');
    await userEvent.click(dialog.getByLabelText('按价格设置'));
    expect((dialog.getByLabelText('输入价格（美元/百万 Token）') as HTMLInputElement).value).toBe('3');
    expect((dialog.getByLabelText('输出价格（美元/百万 Token）') as HTMLInputElement).value).toBe('12');
    await retype(dialog.getByLabelText('输入价格（美元/百万 Token）'), '0');
    expect(dialog.getByText('输入价格为 0，无法换算补全倍率')).toBeTruthy();
    await userEvent.click(dialog.getByRole('button', { name: '确认' }));
    // Under the field, and as the toast of the refused submit.
    await vi.waitFor(() => expect(screen.getAllByText('输入价格为 0，无法换算补全倍率')).toHaveLength(2));
    await retype(dialog.getByLabelText('输入价格（美元/百万 Token）'), '5');
    await retype(dialog.getByLabelText('输出价格（美元/百万 Token）'), '15');
    expect(dialog.getByText('模型倍率：2.5')).toBeTruthy();
    expect(dialog.getByText('补全倍率：3')).toBeTruthy();
    await userEvent.click(dialog.getByRole('button', { name: '确认' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await applyChanges();
    expect(await screen.findByText('保存成功')).toBeTruthy();
    expect(saved()).toEqual({
      ModelRatio: { 'gpt-4o': 1.25, 'gpt-4o-mini': 0.075, 'my-model': 2.5 },
      CompletionRatio: { 'gpt-4o': 4, 'my-model': 3 },
    });
  });

  it('edits a model through the dialog: per-request clears its ratios', async () => {
    await openSubTab('可视化倍率设置');
    await userEvent.click(await screen.findByRole('button', { name: '编辑 gpt-4o' }, { timeout: 5000 }));
    const dialog = within(await screen.findByRole('dialog'));
    expect((dialog.getByLabelText('模型名称') as HTMLInputElement).disabled).toBe(true);
    await userEvent.click(dialog.getByLabelText('按次计费'));
    await userEvent.type(dialog.getByLabelText('模型固定价格（美元/次）'), '0.2');
    await userEvent.click(dialog.getByRole('button', { name: '确认' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(cell('gpt-4o 模型倍率').value).toBe('');
    await applyChanges();
    expect(await screen.findByText('保存成功')).toBeTruthy();
    expect(saved()).toEqual({
      ModelPrice: { 'dall-e-3': 0.04, 'gpt-4o': 0.2 },
      ModelRatio: { 'gpt-4o-mini': 0.075 },
      CompletionRatio: {},
    });
  });

  it('batch sets the selected models, searches and deletes', async () => {
    await openSubTab('可视化倍率设置');
    await userEvent.click(await screen.findByRole('button', { name: '批量设置' }, { timeout: 5000 }));
    expect(await screen.findByText('请先选择需要批量设置的模型')).toBeTruthy();
    await userEvent.click(screen.getByLabelText('选择 gpt-4o'));
    await userEvent.click(screen.getByLabelText('选择 gpt-4o-mini'));
    await userEvent.click(screen.getByRole('button', { name: '批量设置' }));
    const dialog = within(await screen.findByRole('dialog'));
    expect(dialog.getByText('已选择 2 个模型')).toBeTruthy();
    await userEvent.click(dialog.getByRole('combobox', { name: '设置项' }));
    await userEvent.click(await screen.findByRole('option', { name: '模型倍率和补全倍率' }));
    await userEvent.type(dialog.getByLabelText('模型倍率'), '0.5');
    await userEvent.click(dialog.getByRole('button', { name: '应用' }));
    expect(await screen.findByText('请同时输入模型倍率和补全倍率')).toBeTruthy();
    await userEvent.type(dialog.getByLabelText('补全倍率'), 'x');
    await userEvent.click(dialog.getByRole('button', { name: '应用' }));
    expect(await screen.findByText('请输入有效的数字')).toBeTruthy();
    await retype(dialog.getByLabelText('补全倍率'), '2');
    await userEvent.click(dialog.getByRole('button', { name: '应用' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(cell('gpt-4o-mini 补全倍率').value).toBe('2');

    await userEvent.type(screen.getByLabelText('搜索模型名称'), 'DALL');
    expect(screen.queryByLabelText('gpt-4o 模型倍率')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: '删除 dall-e-3' }));
    expect(screen.getByText('没有模型')).toBeTruthy();
    await applyChanges();
    expect(await screen.findByText('保存成功')).toBeTruthy();
    expect(saved()).toEqual({
      ModelPrice: {},
      ModelRatio: { 'gpt-4o': 0.5, 'gpt-4o-mini': 0.5 },
      CompletionRatio: { 'gpt-4o': 2, 'gpt-4o-mini': 2 },
    });
  });
});

describe('models with no ratio set', () => {
  it('lists enabled models without a price, saves the ones given one, and drops them from the list', async () => {
    await openSubTab('未设置倍率模型');
    const ratioA = await screen.findByLabelText('new-a 模型倍率', {}, { timeout: 5000 });
    expect(screen.getByLabelText('new-b 模型倍率')).toBeTruthy();
    expect(screen.queryByLabelText('gpt-4o 模型倍率')).toBeNull();
    expect(screen.queryByLabelText('dall-e-3 模型倍率')).toBeNull();
    await applyChanges();
    expect(await screen.findByText('请先为模型设置价格或倍率')).toBeTruthy();
    await retype(ratioA, '0.3');
    await applyChanges();
    expect(await screen.findByText('保存成功')).toBeTruthy();
    expect(saved()).toEqual({ ModelRatio: { 'gpt-4o': 1.25, 'gpt-4o-mini': 0.075, 'new-a': 0.3 } });
    await vi.waitFor(() => expect(screen.queryByLabelText('new-a 模型倍率')).toBeNull());
    expect(screen.getByLabelText('new-b 模型倍率')).toBeTruthy();
  });

  it('batch sets a fixed price on the selected unset models', async () => {
    await openSubTab('未设置倍率模型');
    await userEvent.click(await screen.findByLabelText('选择本页模型', {}, { timeout: 5000 }));
    await userEvent.click(screen.getByRole('button', { name: '批量设置' }));
    const dialog = within(await screen.findByRole('dialog'));
    await userEvent.click(dialog.getByRole('combobox', { name: '设置项' }));
    await userEvent.click(await screen.findByRole('option', { name: '模型固定价格' }));
    await userEvent.click(dialog.getByRole('button', { name: '应用' }));
    expect(await screen.findByText('请输入填充值')).toBeTruthy();
    await userEvent.type(dialog.getByLabelText('填充值'), '0.01');
    await userEvent.click(dialog.getByRole('button', { name: '应用' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await applyChanges();
    expect(await screen.findByText('所有已启用的模型都已设置价格或倍率')).toBeTruthy();
    expect(saved()).toEqual({ ModelPrice: { 'dall-e-3': 0.04, 'new-a': 0.01, 'new-b': 0.01 } });
  });

  it('says when the enabled models cannot be fetched', async () => {
    server.use(http.get('/api/channel/models_enabled', () => HttpResponse.json({ success: false, message: '数据库错误' })));
    await openSubTab('未设置倍率模型');
    expect(await screen.findByText('获取启用模型失败: 数据库错误', {}, { timeout: 5000 })).toBeTruthy();
  });
});
