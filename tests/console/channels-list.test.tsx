import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setupServer } from 'msw/node';
import { clearLoadedChoices } from '../../src/resources/schema';
import { callsTo, logIn, rowOf, serveDuringTests } from './harness';
import { channelHandlers, renderChannels, resetChannels } from './channels-fixtures';

const server = setupServer(...channelHandlers);

serveDuringTests(server);
beforeEach(() => {
  resetChannels();
  clearLoadedChoices();
  logIn({ id: 1, role: 100, username: 'root' });
});

const speedOf = (row: HTMLElement) => row.querySelector('[data-speed]')?.getAttribute('data-speed');

describe('channel list', () => {
  it('shows type names, status labels, groups, quota and response-time colours', async () => {
    renderChannels();
    const alpha = await rowOf('alpha');
    expect(within(alpha).getByText('OpenAI')).toBeTruthy();
    expect(within(alpha).getByText('已启用')).toBeTruthy();
    expect(within(alpha).getByText('vip')).toBeTruthy();
    expect(within(alpha).getByText('$2.00')).toBeTruthy();
    expect(within(alpha).getByText('$12.50')).toBeTruthy();
    expect(within(alpha).getByText('0.80 秒')).toBeTruthy();
    expect(speedOf(alpha)).toBe('green');

    const beta = await rowOf('beta');
    expect(within(beta).getByText('Claude')).toBeTruthy();
    expect(within(beta).getByText('已禁用')).toBeTruthy();
    expect(within(beta).getByText('team')).toBeTruthy();
    expect(speedOf(beta)).toBe('lime');

    const gamma = await rowOf('gamma');
    expect(within(gamma).getByText('Azure OpenAI')).toBeTruthy();
    expect(speedOf(gamma)).toBe('red');
    await userEvent.hover(within(gamma).getByText('自动禁用'));
    expect(await screen.findByText(/原因：upstream said 401/)).toBeTruthy();

    const delta = await rowOf('delta');
    expect(within(delta).getByText('未知类型')).toBeTruthy();
    expect(within(delta).getByText('未测试')).toBeTruthy();
    expect(speedOf(delta)).toBe('untested');
    expect(speedOf(await rowOf('epsilon'))).toBe('yellow');

    expect(callsTo('GET', '/api/channel/')[0]?.query).toEqual({ p: '1', page_size: '10' });
  });

  it('greys disabled rows', async () => {
    renderChannels();
    expect(getComputedStyle(await rowOf('beta')).opacity).toBe('0.6');
    expect(getComputedStyle(await rowOf('alpha')).opacity).not.toBe('0.6');
  });

  it('sorts by id when the remembered switch is on, and remembers a change', async () => {
    localStorage.setItem('id-sort', 'true');
    renderChannels();
    await rowOf('alpha');
    expect(callsTo('GET', '/api/channel/')[0]?.query).toMatchObject({ id_sort: 'true' });
    await userEvent.click(screen.getByRole('switch', { name: '使用 ID 排序' }));
    await waitFor(() => expect(callsTo('GET', '/api/channel/').at(-1)?.query.id_sort).toBeUndefined());
    expect(localStorage.getItem('id-sort')).toBe('false');
  });

  it('refuses a key search without a model, then searches by key and model', async () => {
    renderChannels();
    await rowOf('alpha');
    // Key, model and group wait behind "more filters"; keyword and status stay in the compact row.
    expect(screen.queryByLabelText('密钥')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: '更多筛选' }));
    await userEvent.type(screen.getByLabelText('密钥'), 'sk-secret');
    await userEvent.click(screen.getByRole('button', { name: '查询' }));
    expect(await screen.findByText('KEY查询时请输入模型')).toBeTruthy();
    expect(callsTo('GET', '/api/channel/new/search')).toHaveLength(0);

    await userEvent.type(screen.getByLabelText('模型'), ' gpt-4o-mini ');
    await userEvent.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() =>
      expect(callsTo('GET', '/api/channel/new/search').at(-1)?.query).toEqual({
        key: 'sk-secret',
        model: 'gpt-4o-mini',
        p: '1',
        page_size: '10',
      }),
    );
    await waitFor(() => expect(screen.queryByText('beta')).toBeNull());

    await userEvent.click(screen.getByRole('button', { name: '重置' }));
    await waitFor(() => expect(screen.getByText('beta')).toBeTruthy(), { timeout: 5000 });
  });

  it('saves an inline priority as {id, priority}; a negative weight becomes 0; blank is ignored', async () => {
    renderChannels();
    const alpha = await rowOf('alpha');
    const priority = within(alpha).getByLabelText('优先级');
    await userEvent.clear(priority);
    await userEvent.type(priority, '5{Enter}');
    await waitFor(() => expect(callsTo('PUT', '/api/channel/').map((c) => c.body)).toEqual([{ id: 1, priority: 5 }]));
    expect(await screen.findByText('更新成功！')).toBeTruthy();

    const weight = within(await rowOf('alpha')).getByLabelText('权重');
    await userEvent.clear(weight);
    await userEvent.type(weight, '-3{Enter}');
    await waitFor(() => expect(callsTo('PUT', '/api/channel/').at(-1)?.body).toEqual({ id: 1, weight: 0 }));

    const before = callsTo('PUT', '/api/channel/').length;
    const again = within(await rowOf('alpha')).getByLabelText('优先级');
    await userEvent.clear(again);
    await userEvent.tab();
    expect(callsTo('PUT', '/api/channel/')).toHaveLength(before);
    await waitFor(() => expect((again as HTMLInputElement).value).toBe('5'));
  });

  it('refuses a priority below -999', async () => {
    renderChannels();
    const priority = within(await rowOf('alpha')).getByLabelText('优先级');
    await userEvent.clear(priority);
    await userEvent.type(priority, '-1000{Enter}');
    expect(await screen.findByText('优先级不能小于 -999')).toBeTruthy();
    expect(callsTo('PUT', '/api/channel/')).toHaveLength(0);
  });

  it('disables a channel with {id, status: 2}', async () => {
    renderChannels();
    await userEvent.click(within(await rowOf('alpha')).getByRole('button', { name: '禁用' }));
    await waitFor(() => expect(callsTo('PUT', '/api/channel/').map((c) => c.body)).toEqual([{ id: 1, status: 2 }]));
  });

  it('tests a channel and shows the seconds it took', async () => {
    renderChannels();
    await userEvent.click(within(await rowOf('alpha')).getByRole('button', { name: '测试' }));
    expect(await screen.findByText('渠道 alpha 测试成功，耗时 1.50 秒。')).toBeTruthy();
    expect(callsTo('GET', '/api/channel/test/1')[0]?.query).toEqual({});

    await userEvent.click(within(await rowOf('alpha')).getByRole('button', { name: '选择模型测试' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'gpt-4o-mini' }));
    await waitFor(() => expect(callsTo('GET', '/api/channel/test/1').at(-1)?.query).toEqual({ model: 'gpt-4o-mini' }));
  });

  it('updates a balance on click, and copies a channel', async () => {
    renderChannels();
    await userEvent.click(within(await rowOf('alpha')).getByText('$12.50'));
    expect(await screen.findByText('余额更新成功，当前余额 $20.00')).toBeTruthy();
    expect(callsTo('GET', '/api/channel/update_balance/1/')).toHaveLength(1);
    await userEvent.click(within(await rowOf('alpha')).getByRole('button', { name: '复制' }));
    expect(await screen.findByText('渠道复制成功')).toBeTruthy();
    expect(callsTo('POST', '/api/channel/copy/1')).toHaveLength(1);
  });

  it('fixes database consistency after a warning and shows the count', async () => {
    renderChannels();
    await rowOf('alpha');
    await userEvent.click(screen.getByRole('button', { name: '修复数据库一致性' }));
    expect(await screen.findByText(/可能导致渠道访问错误/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: /确认/ }));
    expect(await screen.findByText('已修复 3 个渠道，失败 0 个渠道')).toBeTruthy();
    expect(callsTo('POST', '/api/channel/fix')).toHaveLength(1);
  });

  it('deletes one channel after a confirmation', async () => {
    renderChannels();
    await userEvent.click(within(await rowOf('delta')).getByRole('button', { name: '删除' }));
    expect(await screen.findByText('确定删除渠道 delta？')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: /确认/ }));
    await waitFor(() => expect(callsTo('DELETE', '/api/channel/4/')).toHaveLength(1));
  });

  it('deletes disabled channels after an irreversible confirm and shows the count', async () => {
    renderChannels();
    await rowOf('alpha');
    await userEvent.click(screen.getByRole('button', { name: '删除禁用渠道' }));
    expect(await screen.findByText('确定删除所有已禁用渠道？')).toBeTruthy();
    expect(screen.getByText('此修改将不可逆')).toBeTruthy();
    expect(callsTo('DELETE', '/api/channel/disabled')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: /确认/ }));
    expect(await screen.findByText('已删除所有禁用渠道，共计 2 个')).toBeTruthy();
    expect(callsTo('DELETE', '/api/channel/disabled')).toHaveLength(1);
  });

  it('batch tag needs a selection and a non-empty tag', async () => {
    renderChannels();
    await rowOf('alpha');
    await userEvent.click(screen.getByRole('switch', { name: '批量操作' }));
    await userEvent.click(screen.getByRole('button', { name: '批量设置标签' }));
    expect(await screen.findByText('请先选择渠道！')).toBeTruthy();

    await userEvent.click(within(await rowOf('alpha')).getByRole('checkbox'));
    await userEvent.click(screen.getByRole('button', { name: '批量设置标签' }));
    const dialog = await screen.findByRole('dialog', { name: '为 1 个渠道设置标签' });
    await userEvent.click(within(dialog).getByRole('button', { name: '确认' }));
    expect(await within(dialog).findByText('标签不能为空')).toBeTruthy();
    expect(callsTo('POST', '/api/channel/batch/tag')).toHaveLength(0);

    await userEvent.type(within(dialog).getByLabelText('标签'), ' ops ');
    await userEvent.click(within(dialog).getByRole('button', { name: '确认' }));
    await waitFor(() => expect(callsTo('POST', '/api/channel/batch/tag').map((c) => c.body)).toEqual([{ ids: [1], tag: 'ops' }]));
    expect(await screen.findByText('已为 1 个渠道设置标签 ops', {}, { timeout: 3000 })).toBeTruthy();
  });

  it('remembers the visible columns under channel-columns', async () => {
    renderChannels();
    await rowOf('alpha');
    expect(screen.getByRole('columnheader', { name: '余额' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: '列设置' }));
    await userEvent.click(await screen.findByRole('checkbox', { name: '余额' }));
    await waitFor(() => expect(screen.queryByRole('columnheader', { name: '余额' })).toBeNull());
    expect(JSON.parse(localStorage.getItem('channel-columns') ?? '{}')).toMatchObject({ balance: false, name: true });
  });
});

describe('tag mode', () => {
  it('shows tag rows that expand to their channels, and edits a tag with validation', async () => {
    renderChannels();
    await rowOf('alpha');
    await userEvent.click(screen.getByRole('switch', { name: '标签聚合模式' }));
    await waitFor(() => expect(callsTo('GET', '/api/channel/').at(-1)?.query).toMatchObject({ tag_mode: 'true' }));
    // The server answers the tagged channels flat; the console folds them into one row per tag.
    const tag = await rowOf('标签聚合 · 2 个渠道');
    expect(screen.queryByText('beta')).toBeNull();
    expect(screen.queryByText('alpha')).toBeNull();
    // react-admin's expand button is hidden from assistive technology; a person clicks the arrow.
    const expand = tag.querySelector('[aria-expanded="false"]');
    if (!expand) throw new Error('no expand button');
    await userEvent.click(expand);
    expect(await screen.findByText('beta')).toBeTruthy();
    expect(screen.getByText('gamma')).toBeTruthy();

    await userEvent.click(within(tag).getByRole('button', { name: '编辑标签' }));
    const drawer = await screen.findByRole('dialog', { name: '编辑标签：team' });
    await userEvent.click(within(drawer).getByRole('button', { name: '保存' }));
    expect(await screen.findByText('没有任何修改！')).toBeTruthy();

    const priority = within(drawer).getByLabelText('优先级');
    const weight = within(drawer).getByLabelText('权重');
    await userEvent.clear(priority);
    await userEvent.type(priority, '1.5');
    await userEvent.clear(weight);
    await userEvent.type(weight, '-1');
    await userEvent.click(within(drawer).getByRole('button', { name: '保存' }));
    expect(await within(drawer).findByText('优先级必须是整数！')).toBeTruthy();
    expect(within(drawer).getByText('权重必须是非负整数！')).toBeTruthy();
    expect(callsTo('PUT', '/api/channel/tag')).toHaveLength(0);

    await userEvent.clear(priority);
    await userEvent.type(priority, '7');
    await userEvent.clear(weight);
    await userEvent.type(weight, '0');
    await userEvent.click(within(drawer).getByRole('button', { name: '保存' }));
    await waitFor(() => expect(callsTo('PUT', '/api/channel/tag').map((c) => c.body)).toEqual([{ tag: 'team', priority: 7 }]));
    expect(await screen.findByText('更新成功！', {}, { timeout: 3000 })).toBeTruthy();
  });

  it('updates a tag row priority inline through the tag edit call', async () => {
    renderChannels();
    await rowOf('alpha');
    await userEvent.click(screen.getByRole('switch', { name: '标签聚合模式' }));
    const tag = await rowOf('标签聚合 · 2 个渠道');
    const priority = within(tag).getAllByLabelText('优先级')[0] as HTMLElement;
    await userEvent.clear(priority);
    await userEvent.type(priority, '3{Enter}');
    await waitFor(() => expect(callsTo('PUT', '/api/channel/tag').map((c) => c.body)).toEqual([{ tag: 'team', priority: 3 }]));
  });
});
