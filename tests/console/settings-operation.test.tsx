import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { OPTION_REGISTRY } from '../../server/options/registry';
import SettingPage from '../../src/customPages/setting/SettingPage';
import { ok, optionHandlers, received, renderPage, sentTo, serveDuringTests } from './pages-harness';

/** The options as the gateway stores them: registry defaults (secrets never listed), changed by PUTs. */
let stored: Record<string, string> = {};
const defaults = () =>
  Object.fromEntries(
    Object.entries(OPTION_REGISTRY)
      .filter(([, def]) => !('secret' in def))
      .map(([key, def]) => [key, def.default]),
  );

const server = setupServer(
  ...optionHandlers(() => stored),
  http.post('/api/option/rest_model_ratio', () => {
    received.push({ method: 'POST', path: '/api/option/rest_model_ratio', search: '', body: undefined });
    for (const key of ['ModelRatio', 'ModelPrice', 'CompletionRatio', 'CacheRatio']) stored[key] = defaults()[key]!;
    return HttpResponse.json({ success: true, message: '重置模型倍率成功' });
  }),
  ok('delete', '/api/log/', 5),
);

serveDuringTests(server);
beforeEach(() => {
  stored = defaults();
  localStorage.setItem('user', JSON.stringify({ id: 1, username: 'root', role: 100 }));
});

const puts = () =>
  sentTo('PUT', '/api/option/')
    .map((r) => r.body as { key: string; value: string })
    .sort((a, b) => a.key.localeCompare(b.key));

async function openTab(tab: string, section: string) {
  renderPage(<SettingPage />, '/setting', `/setting?tab=${tab}`);
  return within(await screen.findByRole('region', { name: section }, { timeout: 5000 }));
}

const input = (scope: ReturnType<typeof within>, label: string) => scope.getByLabelText(label) as HTMLInputElement;

async function retype(field: HTMLElement, text: string) {
  await userEvent.clear(field);
  if (text) fireEvent.change(field, { target: { value: text } });
}

describe('operation tab', () => {
  it('loads every card with the stored values', async () => {
    stored.RetryTimes = '2';
    stored.DrawingEnabled = 'true';
    const general = await openTab('operation', '通用设置');
    expect(input(general, '失败重试次数').value).toBe('2');
    expect(input(general, '以货币形式显示额度').checked).toBe(true);
    const drawing = within(screen.getByRole('region', { name: '绘图设置' }));
    expect(input(drawing, '启用绘图功能').checked).toBe(true);
    for (const name of ['屏蔽词过滤设置', '日志设置', '数据看板设置', '监控设置', '额度设置', '倍率设置']) {
      expect(screen.getByRole('region', { name })).toBeTruthy();
    }
    const monitoring = within(screen.getByRole('region', { name: '监控设置' }));
    expect(input(monitoring, '自动禁用关键词').value).toContain('Permission denied');
  });

  it('saves only the keys that changed, one PUT each', async () => {
    const general = await openTab('operation', '通用设置');
    await retype(input(general, '失败重试次数'), '3');
    await userEvent.click(input(general, '以货币形式显示额度'));
    await userEvent.click(general.getByRole('button', { name: '保存通用设置' }));
    expect(await screen.findByText('保存成功')).toBeTruthy();
    expect(puts()).toEqual([
      { key: 'DisplayInCurrencyEnabled', value: 'false' },
      { key: 'RetryTimes', value: '3' },
    ]);
  });

  it('says nothing changed when nothing did', async () => {
    const quota = await openTab('operation', '额度设置');
    await userEvent.click(quota.getByRole('button', { name: '保存额度设置' }));
    expect(await screen.findByText('你似乎并没有修改什么')).toBeTruthy();
    expect(puts()).toEqual([]);
  });

  it('refuses a number field that is not a number', async () => {
    const quota = await openTab('operation', '额度设置');
    await retype(input(quota, '新用户初始额度'), 'abc');
    await userEvent.click(quota.getByRole('button', { name: '保存额度设置' }));
    expect(await screen.findByText('新用户初始额度: 请输入数字')).toBeTruthy();
    await retype(input(quota, '新用户初始额度'), '-5');
    await userEvent.click(quota.getByRole('button', { name: '保存额度设置' }));
    expect(await screen.findByText('新用户初始额度: 不能小于 0')).toBeTruthy();
    expect(puts()).toEqual([]);
  });

  it('checks the chats JSON', async () => {
    const general = await openTab('operation', '通用设置');
    await retype(input(general, '聊天配置'), '[{"Web": ');
    await userEvent.click(general.getByRole('button', { name: '保存通用设置' }));
    expect(await screen.findByText('聊天配置: 不是合法的 JSON 字符串')).toBeTruthy();
    expect(general.getByText('不是合法的 JSON 字符串')).toBeTruthy();
    await retype(input(general, '聊天配置'), '[{"Web": "https://chat.example.com/#/?key={key}"}]');
    await userEvent.click(general.getByRole('button', { name: '保存通用设置' }));
    expect(await screen.findByText('保存成功')).toBeTruthy();
    expect(puts()).toEqual([{ key: 'Chats', value: '[{"Web": "https://chat.example.com/#/?key={key}"}]' }]);
  });

  it('saves the sensitive words one per line and the dashboard granularity', async () => {
    const sensitive = await openTab('operation', '屏蔽词过滤设置');
    await retype(input(sensitive, '屏蔽词列表'), 'foo\nbar');
    await userEvent.click(sensitive.getByRole('button', { name: '保存屏蔽词过滤设置' }));
    expect(await screen.findByText('保存成功')).toBeTruthy();
    const dashboard = within(screen.getByRole('region', { name: '数据看板设置' }));
    await userEvent.click(dashboard.getByRole('combobox', { name: '数据看板默认时间粒度' }));
    await userEvent.click(await screen.findByRole('option', { name: '天' }));
    await userEvent.click(dashboard.getByRole('button', { name: '保存数据看板设置' }));
    await screen.findAllByText('保存成功');
    await vi.waitFor(() => expect(puts()).toHaveLength(2));
    expect(puts()).toEqual([
      { key: 'DataExportDefaultTime', value: 'day' },
      { key: 'SensitiveWords', value: 'foo\nbar' },
    ]);
  });

  it('shows the save failure of a single key', async () => {
    server.use(http.put('/api/option/', () => HttpResponse.json({ success: false, message: 'RetryTimes must be an integer' })));
    const general = await openTab('operation', '通用设置');
    await retype(input(general, '失败重试次数'), '4');
    await userEvent.click(general.getByRole('button', { name: '保存通用设置' }));
    expect(await screen.findByText('保存失败: RetryTimes must be an integer')).toBeTruthy();
  });
});

describe('log cleanup', () => {
  it('needs a chosen time', async () => {
    const logs = await openTab('operation', '日志设置');
    await userEvent.click(logs.getByRole('button', { name: '清除历史日志' }));
    expect(await screen.findByText('请选择日志清理时间')).toBeTruthy();
    expect(sentTo('DELETE', '/api/log/')).toHaveLength(0);
  });

  it('deletes the logs before the chosen time after a confirmation', async () => {
    const logs = await openTab('operation', '日志设置');
    fireEvent.change(input(logs, '清理此时间之前的日志'), { target: { value: '2024-03-01T08:30' } });
    await userEvent.click(logs.getByRole('button', { name: '清除历史日志' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/2024-03-01 08:30/)).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: /确认|Confirm/ }));
    expect(await screen.findByText('5 条日志已清理！')).toBeTruthy();
    const expected = Math.floor(new Date('2024-03-01T08:30').getTime() / 1000);
    expect(sentTo('DELETE', '/api/log/').map((r) => r.search)).toEqual([`?target_timestamp=${expected}`]);
  });

  it('reports a failed cleanup', async () => {
    server.use(http.delete('/api/log/', () => HttpResponse.json({ success: false, message: '数据库繁忙' })));
    const logs = await openTab('operation', '日志设置');
    fireEvent.change(input(logs, '清理此时间之前的日志'), { target: { value: '2024-03-01T08:30' } });
    await userEvent.click(logs.getByRole('button', { name: '清除历史日志' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: /确认|Confirm/ }));
    expect(await screen.findByText('日志清理失败: 数据库繁忙')).toBeTruthy();
  });
});

describe('model ratio sub-tab', () => {
  it('checks each JSON map and saves only the changed one', async () => {
    const ratios = await openTab('operation', '倍率设置');
    const modelRatio = input(ratios, '模型倍率');
    expect(JSON.parse(modelRatio.value)).toMatchObject({ 'gpt-4o': 1.25 });
    await retype(modelRatio, '{"gpt-4o": 1.25,');
    await userEvent.click(ratios.getByRole('button', { name: '保存模型倍率设置' }));
    expect(await screen.findByText('模型倍率: 不是合法的 JSON 字符串')).toBeTruthy();
    await retype(modelRatio, '{"gpt-4o": "cheap"}');
    await userEvent.click(ratios.getByRole('button', { name: '保存模型倍率设置' }));
    expect(await screen.findByText('模型倍率: gpt-4o 的值须为不小于 0 的数字')).toBeTruthy();
    await retype(input(ratios, '用户可选分组'), '{"default": 1}');
    await retype(modelRatio, '{"gpt-4o": 2}');
    await userEvent.click(ratios.getByRole('button', { name: '保存模型倍率设置' }));
    expect(await screen.findByText('用户可选分组: default 的值须为字符串')).toBeTruthy();
    await retype(input(ratios, '用户可选分组'), stored.UserUsableGroups!);
    await userEvent.click(ratios.getByRole('button', { name: '保存模型倍率设置' }));
    expect(await screen.findByText('保存成功')).toBeTruthy();
    expect(puts()).toEqual([{ key: 'ModelRatio', value: '{"gpt-4o": 2}' }]);
  });

  it('resets the model ratios and shows the restored values', async () => {
    stored.ModelRatio = '{"only": 9}';
    const ratios = await openTab('operation', '倍率设置');
    expect(input(ratios, '模型倍率').value).toBe('{"only": 9}');
    await userEvent.click(ratios.getByRole('button', { name: '重置模型倍率' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: /确认|Confirm/ }));
    expect(await screen.findByText('重置模型倍率成功')).toBeTruthy();
    expect(sentTo('POST', '/api/option/rest_model_ratio')).toHaveLength(1);
    await vi.waitFor(() => expect(JSON.parse(input(ratios, '模型倍率').value)).toMatchObject({ 'gpt-4o': 1.25 }));
  });
});

describe('rate limit tab', () => {
  it('loads, checks the limits and the group overrides, and saves the changed keys', async () => {
    stored.ModelRequestRateLimitCount = '30';
    const limits = await openTab('ratelimit', '模型请求速率限制');
    expect(input(limits, '用户每周期最多请求次数').value).toBe('30');
    const save = () => userEvent.click(limits.getByRole('button', { name: '保存模型请求速率限制' }));
    await retype(input(limits, '用户每周期最多请求完成次数'), '0');
    await save();
    expect(await screen.findByText('用户每周期最多请求完成次数: 不能小于 1')).toBeTruthy();
    await retype(input(limits, '用户每周期最多请求完成次数'), '1000');
    const group = input(limits, '分组速率限制');
    await retype(group, '{"vip": [10]');
    await save();
    expect(await screen.findByText('分组速率限制: 不是合法的 JSON 字符串')).toBeTruthy();
    await retype(group, '{"default": [200, 100], "vip": [5, 0]}');
    await save();
    expect(
      await screen.findByText('分组速率限制: 分组 vip 须为 [最多请求次数 (≥0), 最多请求完成次数 (≥1)] 两个整数'),
    ).toBeTruthy();
    await retype(group, '[[1, 2]]');
    await save();
    expect(await screen.findByText('分组速率限制: 须为 JSON 对象')).toBeTruthy();
    await retype(group, '{"default": [200, 100], "vip": [0, 1000]}');
    await userEvent.click(input(limits, '启用用户模型请求速率限制（可能会影响高并发性能）'));
    await save();
    expect(await screen.findByText('保存成功')).toBeTruthy();
    expect(puts()).toEqual([
      { key: 'ModelRequestRateLimitEnabled', value: 'true' },
      { key: 'ModelRequestRateLimitGroup', value: '{"default": [200, 100], "vip": [0, 1000]}' },
    ]);
  });
});

describe('models tab', () => {
  it('loads the provider settings, checks JSON and budget shares, saves the changed keys', async () => {
    const gemini = await openTab('models', 'Gemini 设置');
    expect(JSON.parse(input(gemini, '支持图像生成的 Gemini 模型').value)).toEqual(['gemini-2.0-flash-exp-image-generation']);
    const claude = within(screen.getByRole('region', { name: 'Claude 设置' }));
    expect(input(claude, 'Claude 思考预算占比').value).toBe('0.8');
    await retype(input(gemini, 'Gemini 安全设置'), '{default: "OFF"}');
    await retype(input(gemini, 'Gemini 思考预算占比'), '1.5');
    await userEvent.click(gemini.getByRole('button', { name: '保存Gemini 设置' }));
    expect(await screen.findByText('Gemini 安全设置: 不是合法的 JSON 字符串')).toBeTruthy();
    expect(gemini.getByText('须在 0.1 到 1 之间')).toBeTruthy();
    await retype(input(claude, 'Claude 默认最大 Token 数'), '{"default": 0}');
    await userEvent.click(claude.getByRole('button', { name: '保存Claude 设置' }));
    expect(await screen.findByText('Claude 默认最大 Token 数: default 的值须为正整数')).toBeTruthy();
    await retype(input(claude, 'Claude 默认最大 Token 数'), '{"default": 4096}');
    await retype(
      input(claude, 'Claude 请求头覆盖'),
      '{"claude-3-7-sonnet-20250219": {"anthropic-beta": "output-128k-2025-02-19"}}',
    );
    await userEvent.click(claude.getByRole('button', { name: '保存Claude 设置' }));
    expect(await screen.findByText('保存成功')).toBeTruthy();
    expect(puts()).toEqual([
      { key: 'claude.default_max_tokens', value: '{"default": 4096}' },
      {
        key: 'claude.model_headers_settings',
        value: '{"claude-3-7-sonnet-20250219": {"anthropic-beta": "output-128k-2025-02-19"}}',
      },
    ]);
  });

  it('saves the global switches and checks the ping interval', async () => {
    const global = await openTab('models', '全局设置');
    await retype(input(global, '保活间隔（秒）'), '0');
    await userEvent.click(global.getByRole('button', { name: '保存全局设置' }));
    expect(await screen.findByText('保活间隔（秒）: 不能小于 1')).toBeTruthy();
    await retype(input(global, '保活间隔（秒）'), '30');
    await userEvent.click(input(global, '启用请求透传'));
    await userEvent.click(global.getByRole('button', { name: '保存全局设置' }));
    expect(await screen.findByText('保存成功')).toBeTruthy();
    expect(puts()).toEqual([
      { key: 'general_setting.ping_interval_seconds', value: '30' },
      { key: 'global.pass_through_request_enabled', value: 'true' },
    ]);
  });
});

describe('models tab: model capabilities', () => {
  it('checks the capability table by the server’s rule and saves it with the fitting switch', async () => {
    const global = await openTab('models', '全局设置');
    expect(input(global, '模型能力表').value).toBe('{}');
    await retype(input(global, '模型能力表'), '{"gpt-4.1": {"outputLimt": 1000}}');
    await userEvent.click(global.getByRole('button', { name: '保存全局设置' }));
    expect(await screen.findByText('模型能力表: gpt-4.1.outputLimt：不是有效的模型能力（字段与取值见说明）')).toBeTruthy();
    expect(puts()).toEqual([]);
    await retype(input(global, '模型能力表'), '{"my-reasoner": {"reasons": true, "tokenField": "max_completion_tokens"}}');
    await userEvent.click(input(global, '同格式请求也按模型适配'));
    await userEvent.click(global.getByRole('button', { name: '保存全局设置' }));
    expect(await screen.findByText('保存成功')).toBeTruthy();
    expect(puts()).toEqual([
      { key: 'relay.fit_native_requests', value: 'true' },
      { key: 'relay.model_capabilities', value: '{"my-reasoner": {"reasons": true, "tokenField": "max_completion_tokens"}}' },
    ]);
  });
});

describe('loading', () => {
  it('shows a retry instead of empty forms when the options cannot be read', async () => {
    server.use(http.get('/api/option/', () => HttpResponse.json({ success: false, message: '权限不足' })));
    renderPage(<SettingPage />, '/setting', '/setting?tab=ratelimit');
    expect(await screen.findByText('设置加载失败', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.queryByRole('button', { name: '保存模型请求速率限制' })).toBeNull();
  });
});
