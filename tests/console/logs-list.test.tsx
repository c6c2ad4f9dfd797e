import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setupServer } from 'msw/node';
import type { LogItem, LogOther, LogStat } from '../../server/logs/schemas';
import { ResourceList } from '../../src/resources/schema';
import logSchema from '../../src/resources/log/schema';
import { AdminHarness, api, calls, callsTo, logIn } from './harness';
import { i18nProvider } from '../../src/i18n';

function row(id: number, fields: Partial<LogItem>, other: LogOther = {}): LogItem {
  return {
    id,
    created_at: 1_714_550_400,
    type: 2,
    content: '',
    username: 'alice',
    user_id: 2,
    token_name: 'my-token',
    token_id: 7,
    model_name: 'gpt-4o-mini',
    quota: 0,
    prompt_tokens: 0,
    completion_tokens: 0,
    use_time: 1,
    is_stream: false,
    channel: 3,
    channel_name: 'openai-main',
    group: 'default',
    other: JSON.stringify(other),
    ...fields,
  };
}

/** What an admin sees; /self answers the same rows without the channel and admin_info. */
const adminRows = (): LogItem[] => [
  row(
    11,
    { model_name: 'gpt-4o', use_time: 50, is_stream: true, prompt_tokens: 100, completion_tokens: 200, quota: 1500 },
    {
      model_ratio: 1.25,
      group_ratio: 1,
      completion_ratio: 4,
      cache_tokens: 20,
      cache_ratio: 0.5,
      frt: 2500,
      is_model_mapped: true,
      upstream_model_name: 'gpt-4o-2024-08-06',
      admin_info: { use_channel: [3, 5] },
    },
  ),
  row(
    12,
    { model_name: 'dall-e-3', use_time: 150, is_stream: true, quota: 20000 },
    { model_price: 0.04, group_ratio: 1, frt: 5000 },
  ),
  row(
    13,
    { type: 5, use_time: 400, is_stream: true, content: 'upstream error' },
    { frt: 12000, admin_info: { use_channel: [4] } },
  ),
  row(14, {
    type: 1,
    model_name: '',
    token_name: '',
    channel: 0,
    channel_name: '',
    content: '通过兑换码充值 $10.00',
    quota: 5_000_000,
  }),
  row(
    15,
    { type: 3, model_name: '', token_name: '', channel: 0, channel_name: '', content: '管理员增加用户额度 $2.000000', quota: 0 },
    { message: { key: 'quota_add', values: { quota: 1_000_000 } } },
  ),
  // A key this console does not know (a newer server): the server's own words.
  row(
    16,
    { type: 4, model_name: '', token_name: '', channel: 0, channel_name: '', content: '服务器的原话', quota: 0 },
    { message: { key: 'not_known_here', values: {} } },
  ),
  row(
    17,
    { type: 5, content: '当前分组上游负载已饱和，请稍后再试', quota: 0 },
    { status_code: 429, refusal: { code: 'channel_saturated' } },
  ),
];

const selfRows = (): LogItem[] =>
  adminRows().map((r) => {
    const { admin_info: _hidden, ...other } = JSON.parse(r.other) as LogOther;
    return { ...r, channel: 0, channel_name: '', other: JSON.stringify(other) };
  });

const stat: LogStat = { quota: 1_234_567, rpm: 12, tpm: 123_456 };
const page = (items: LogItem[]) => ({ items, total: items.length, page: 1, page_size: 10 });

const server = setupServer(
  api('get', '/api/log/', () => page(adminRows())),
  api('get', '/api/log/self/', () => page(selfRows())),
  api('get', '/api/log/stat', stat),
  api('get', '/api/log/self/stat', stat),
  api('get', '/api/log/extend/:id', (call) => ({
    prompt: `prompt of ${call.path.split('/').at(-1)}`,
    completion: 'the answer',
  })),
  // Row 12's call had its bodies kept (opt-in body logs); the others none.
  api('get', '/api/log/body/:id', (call) =>
    call.path.endsWith('/12')
      ? {
          request_body: '{"model":"dall-e-3","prompt":"a cat"}',
          response_body: '{"data":[{"url":"https://img.example/cat.png"}]}',
          request_truncated: false,
          response_truncated: true,
          created_at: 1_700_000_000,
        }
      : null,
  ),
  api('get', '/api/user/:id', {
    id: 2,
    username: 'alice',
    display_name: 'Alice A',
    group: 'vip',
    quota: 1_000_000,
    used_quota: 250_000,
    request_count: 42,
  }),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  calls.length = 0;
});
afterAll(() => server.close());

const asAdmin = () => logIn({ id: 1, role: 10, username: 'admin' });
const asUser = () => logIn({ id: 2, role: 1, username: 'alice' });

function renderLogs() {
  return render(
    <AdminHarness url="/log" path="/log/*">
      <ResourceList schema={logSchema} />
    </AdminHarness>,
  );
}

async function rowOf(id: number): Promise<HTMLElement> {
  await waitFor(() => expect(document.querySelector(`tr[data-id="${id}"]`)).not.toBeNull());
  return document.querySelector(`tr[data-id="${id}"]`) as HTMLElement;
}

// `hidden`: the column dialog, while open, hides the table from the accessibility tree.
const headers = () => screen.getAllByRole('columnheader', { hidden: true }).map((h) => h.textContent?.trim());
const lastQuery = (path: string) => callsTo('GET', path).at(-1)?.query;

describe('usage logs: admin and user views', () => {
  it('shows an admin every user with the channel, username and retry columns from /api/log/', async () => {
    asAdmin();
    renderLogs();
    const first = await rowOf(11);
    expect(headers()).toEqual(expect.arrayContaining(['渠道', '用户', '重试']));
    expect(within(first).getByText('openai-main')).toBeTruthy();
    expect(within(first).getByText('alice')).toBeTruthy();
    expect(within(first).getByText('渠道 3 → 5')).toBeTruthy();
    // One channel tried is not a retry.
    expect(within(await rowOf(13)).queryByText(/渠道 4/)).toBeNull();
    await waitFor(() => expect(callsTo('GET', '/api/log/stat')).toHaveLength(1));
    expect(callsTo('GET', '/api/log/')).toHaveLength(1);
    expect(callsTo('GET', '/api/log/self/')).toHaveLength(0);
    expect(callsTo('GET', '/api/log/self/stat')).toHaveLength(0);
    // The admin filters wait behind "more filters", beside the compact row.
    await userEvent.click(screen.getByRole('button', { name: '更多筛选' }));
    expect(screen.getByLabelText('用户名称')).toBeTruthy();
    expect(screen.getByLabelText('渠道 ID')).toBeTruthy();
  });

  it('shows a user only their own rows from /api/log/self/, without the admin columns and filters', async () => {
    asUser();
    renderLogs();
    const first = await rowOf(11);
    const shown = headers();
    expect(shown).toEqual(expect.arrayContaining(['时间', '令牌', '模型', '花费', '详情']));
    for (const adminOnly of ['渠道', '用户', '重试']) expect(shown).not.toContain(adminOnly);
    expect(within(first).queryByText('openai-main')).toBeNull();
    await waitFor(() => expect(callsTo('GET', '/api/log/self/stat')).toHaveLength(1));
    expect(callsTo('GET', '/api/log/self/')).toHaveLength(1);
    expect(callsTo('GET', '/api/log/')).toHaveLength(0);
    expect(callsTo('GET', '/api/log/stat')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: '更多筛选' }));
    expect(screen.getByLabelText('令牌名称')).toBeTruthy();
    expect(screen.queryByLabelText('用户名称')).toBeNull();
    expect(screen.queryByLabelText('渠道 ID')).toBeNull();
  });
});

describe('usage logs: filters and the stat header', () => {
  it('opens on today, from midnight through one hour ahead, in seconds, with the remembered page size', async () => {
    localStorage.setItem('page-size', '50');
    asUser();
    const now = Math.floor(Date.now() / 1000);
    renderLogs();
    await rowOf(11);
    const midnight = new Date();
    midnight.setHours(0, 0, 0, 0);
    const query = lastQuery('/api/log/self/');
    expect(query).toMatchObject({ p: '1', page_size: '50', start_timestamp: String(midnight.getTime() / 1000) });
    expect(Number(query?.end_timestamp)).toBeGreaterThanOrEqual(now + 3600);
    expect(Number(query?.end_timestamp)).toBeLessThan(now + 3600 + 30);
    await waitFor(() => expect(lastQuery('/api/log/self/stat')?.start_timestamp).toBe(query?.start_timestamp));
  });

  it('sends every filter, trimmed, to the list and the stat call', async () => {
    asAdmin();
    renderLogs();
    await rowOf(11);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: '更多筛选' }));
    await user.type(screen.getByLabelText('令牌名称'), '  my-token ');
    await user.type(screen.getByLabelText('模型名称'), ' gpt-4o ');
    await user.type(screen.getByLabelText('分组'), ' vip');
    await user.type(screen.getByLabelText('用户名称'), ' alice ');
    await user.type(screen.getByLabelText('渠道 ID'), '3');
    await user.click(screen.getByRole('combobox', { name: '日志类型' }));
    await user.click(await screen.findByRole('option', { name: '消费' }));
    fireEvent.change(screen.getByLabelText('起始时间'), { target: { value: '2024-05-01T08:30:00' } });
    fireEvent.change(screen.getByLabelText('结束时间'), { target: { value: '2024-05-02T09:00:00' } });
    const expected = {
      token_name: 'my-token',
      model_name: 'gpt-4o',
      group: 'vip',
      username: 'alice',
      channel: '3',
      type: '2',
      start_timestamp: String(new Date('2024-05-01T08:30:00').getTime() / 1000),
      end_timestamp: String(new Date('2024-05-02T09:00:00').getTime() / 1000),
    };
    await waitFor(() => expect(lastQuery('/api/log/')).toMatchObject(expected), { timeout: 3000 });
    await waitFor(() => expect(lastQuery('/api/log/stat')).toEqual(expected), { timeout: 3000 });
  });

  it('shows the quota used, rpm and tpm of the stat call', async () => {
    asUser();
    renderLogs();
    await waitFor(() => expect(screen.getByTestId('log-stat-quota').textContent).toBe('消耗额度：$2.47'));
    expect(screen.getByTestId('log-stat-rpm').textContent).toBe('RPM：12');
    expect(screen.getByTestId('log-stat-tpm').textContent).toBe('TPM：123.5k');
  });
});

describe('usage logs: cells', () => {
  it('colours the use time and first-token time by how slow they were', async () => {
    asUser();
    renderLogs();
    const speeds = async (id: number) => {
      const r = await rowOf(id);
      return [within(r).getByTestId('use-time'), within(r).getByTestId('first-token-time')].map((el) => [
        el.textContent,
        el.getAttribute('data-speed'),
      ]);
    };
    expect(await speeds(11)).toEqual([
      ['50 s', 'fast'],
      ['首字 2.5 s', 'fast'],
    ]);
    expect(await speeds(12)).toEqual([
      ['150 s', 'medium'],
      ['首字 5.0 s', 'medium'],
    ]);
    expect(await speeds(13)).toEqual([
      ['400 s', 'slow'],
      ['首字 12.0 s', 'slow'],
    ]);
    expect(within(await rowOf(11)).getByText('流')).toBeTruthy();
    // A top-up has no timing at all.
    expect(within(await rowOf(14)).queryByTestId('use-time')).toBeNull();
  });

  it('shows the upstream model of a mapped request, the type, tokens, cost and pricing details', async () => {
    asUser();
    renderLogs();
    const mapped = await rowOf(11);
    expect(within(mapped).getByText('gpt-4o')).toBeTruthy();
    expect(within(mapped).getByText('→ gpt-4o-2024-08-06')).toBeTruthy();
    expect(within(mapped).getByText('消费')).toBeTruthy();
    expect(within(mapped).getByText('100')).toBeTruthy();
    expect(within(mapped).getByText('200')).toBeTruthy();
    expect(within(mapped).getByText('$0.003')).toBeTruthy();
    expect(within(mapped).getByTestId('pricing-details').textContent).toBe(
      '模型倍率 1.25，分组倍率 1，补全倍率 4，缓存 Tokens 20，缓存倍率 0.5',
    );
    const fixed = await rowOf(12);
    expect(within(fixed).queryByText(/→/)).toBeNull();
    expect(within(fixed).getByTestId('pricing-details').textContent).toBe('模型价格 $0.04，分组倍率 1');
    const topUp = await rowOf(14);
    expect(within(topUp).getByText('充值')).toBeTruthy();
    expect(within(topUp).getByText('通过兑换码充值 $10.00')).toBeTruthy();
    expect(within(topUp).getByText('$10.00')).toBeTruthy();
    expect(within(topUp).queryByTestId('pricing-details')).toBeNull();
  });
});

describe('usage logs: rows the gateway wrote about itself', () => {
  afterEach(() => i18nProvider.changeLocale('zh'));

  it('words them and the gateway’s refusals in the console’s language, amounts in its unit, else the server’s words', async () => {
    asAdmin();
    renderLogs();
    expect(within(await rowOf(15)).getByText('管理员增加用户额度 $2.00')).toBeTruthy();
    expect(within(await rowOf(16)).getByText('服务器的原话')).toBeTruthy();
    expect(within(await rowOf(17)).getByText('当前分组上游负载已饱和，请稍后再试')).toBeTruthy();
    cleanup();
    await i18nProvider.changeLocale('en');
    renderLogs();
    expect(within(await rowOf(15)).getByText('Admin added $2.00 to the balance')).toBeTruthy();
    expect(within(await rowOf(16)).getByText('服务器的原话')).toBeTruthy();
    expect(within(await rowOf(17)).getByText('The upstream channels of this group are saturated, try again later')).toBeTruthy();
  });
});

describe('usage logs: dialogs', () => {
  it('opens the prompt and completion of a row on right-click', async () => {
    asUser();
    renderLogs();
    fireEvent.contextMenu(within(await rowOf(12)).getByText('dall-e-3'));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('prompt of 12')).toBeTruthy();
    expect(within(dialog).getByText('the answer')).toBeTruthy();
    expect(within(dialog).getByText('日志详情 #12')).toBeTruthy();
    expect(callsTo('GET', '/api/log/extend/12')).toHaveLength(1);
    expect(await within(dialog).findByText('{"model":"dall-e-3","prompt":"a cat"}')).toBeTruthy();
    expect(within(dialog).getByText('{"data":[{"url":"https://img.example/cat.png"}]}')).toBeTruthy();
    expect(within(dialog).getByText('请求体')).toBeTruthy();
    expect(within(dialog).getAllByText('（已截断）')).toHaveLength(1);
    await userEvent.click(within(dialog).getByRole('button', { name: '关闭' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('shows no body blocks for a row whose bodies were not kept', async () => {
    asUser();
    renderLogs();
    fireEvent.contextMenu(within(await rowOf(11)).getByText('gpt-4o'));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('prompt of 11')).toBeTruthy();
    await waitFor(() => expect(callsTo('GET', '/api/log/body/11')).toHaveLength(1));
    expect(within(dialog).queryByText('请求体')).toBeNull();
  });

  it('looks up the user of a row for an admin', async () => {
    asAdmin();
    renderLogs();
    await userEvent.click(within(await rowOf(11)).getByRole('button', { name: 'alice' }));
    const dialog = await screen.findByRole('dialog', { name: '用户信息' });
    await within(dialog).findByText('Alice A');
    const values = within(dialog)
      .getAllByRole('row')
      .map((r) => r.textContent);
    expect(values).toEqual(['用户名alice', '显示名称Alice A', '分组vip', '剩余额度$2.00', '已用额度$0.50', '请求次数42']);
    expect(callsTo('GET', '/api/user/2')).toHaveLength(1);
  });

  it('remembers the chosen columns in localStorage', async () => {
    asUser();
    const { unmount } = renderLogs();
    await rowOf(11);
    await userEvent.click(screen.getByRole('button', { name: '列设置' }));
    const dialog = await screen.findByRole('dialog', { name: '选择要显示的列' });
    // Only the columns this person may see are offered.
    expect(within(dialog).queryByLabelText('重试')).toBeNull();
    await userEvent.click(within(dialog).getByLabelText('令牌'));
    // Every offered column is remembered, and only those: no admin column for a user.
    const stored = JSON.parse(localStorage.getItem('logs-columns') ?? '{}');
    expect(stored).toMatchObject({ token: false, model: true, time: true });
    expect(stored).not.toHaveProperty('retry');
    await waitFor(() => expect(headers()).not.toContain('令牌'));
    unmount();

    renderLogs();
    await rowOf(11);
    expect(headers()).not.toContain('令牌');
    expect(headers()).toContain('模型');
  });
});
