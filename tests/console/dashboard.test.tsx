/**
 * The dashboard (/detail) against msw: the call (own usage, or every user's / one user's for
 * admins), hourly rows grouped by hour, day or week, totals and the SVG charts, and the page
 * when data export is off.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setupServer } from 'msw/node';
import DashboardPage from '../../src/customPages/detail/DashboardPage';
import { niceMax } from '../../src/customPages/detail/StackedBarChart';
import {
  abbreviate,
  aggregate,
  bucketLabel,
  bucketStart,
  chartDollars,
  dataQuery,
  defaultRange,
  formatSpend,
  type QuotaDataRow,
} from '../../src/customPages/detail/usage';
import { formatQuota } from '../../src/status/status';
import { ok, received, renderPage, sentTo, siteStatus } from './pages-harness';

const at = (day: number, hour: number) => new Date(2024, 4, day, hour).getTime() / 1000;

// Mon 6 May 2024 … Mon 13 May 2024.
const rows: QuotaDataRow[] = [
  { model_name: 'gpt-4o', created_at: at(6, 9), token_used: 1000, count: 2, quota: 500_000 },
  { model_name: 'gpt-4o-mini', created_at: at(6, 9), token_used: 300, count: 1, quota: 1_000 },
  { model_name: 'gpt-4o', created_at: at(6, 10), token_used: 500, count: 1, quota: 250_000 },
  { model_name: 'gpt-4o', created_at: at(7, 15), token_used: 200, count: 1, quota: 100_000 },
  { model_name: 'gpt-4o-mini', created_at: at(13, 0), token_used: 40_000, count: 7, quota: 2_000 },
];

const server = setupServer(
  ok('get', '/api/status', siteStatus({ enable_data_export: true, data_export_default_time: 'day' })),
  ok('get', '/api/data/self', rows),
  ok('get', '/api/data/', rows),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  received.length = 0;
});
afterAll(() => server.close());

const queryOf = (search: string) => Object.fromEntries(new URLSearchParams(search));

function logIn(role: number, defaultTime = 'day', enabled = true) {
  localStorage.setItem('user', JSON.stringify({ id: 4, role, username: 'dora' }));
  localStorage.setItem(
    'status',
    JSON.stringify(siteStatus({ enable_data_export: enabled, data_export_default_time: defaultTime })),
  );
  localStorage.setItem('enable_data_export', String(enabled));
}

describe('dashboard: pure functions', () => {
  it('finds the hour, day and week (from Monday) of a timestamp in local time', () => {
    const t = new Date(2024, 4, 8, 13, 45).getTime() / 1000; // Wednesday
    expect(bucketStart(t, 'hour')).toBe(at(8, 13));
    expect(bucketStart(t, 'day')).toBe(at(8, 0));
    expect(bucketStart(t, 'week')).toBe(at(6, 0));
    expect(bucketStart(at(12, 23), 'week')).toBe(at(6, 0)); // Sunday belongs to the week before
    expect(bucketLabel(at(8, 13), 'hour')).toBe('05-08 13:00');
    expect(bucketLabel(at(6, 0), 'week')).toBe('05-06');
  });

  it('groups the hourly rows per bucket and model, the biggest spender first', () => {
    const byDay = aggregate(rows, 'day');
    expect(byDay.buckets).toEqual([at(6, 0), at(7, 0), at(13, 0)]);
    expect(byDay.series.quota).toEqual([
      { model: 'gpt-4o', values: [750_000, 100_000, 0] },
      { model: 'gpt-4o-mini', values: [1_000, 0, 2_000] },
    ]);
    expect(byDay.series.token_used[0]).toEqual({ model: 'gpt-4o-mini', values: [300, 0, 40_000] });
    expect(byDay.totals).toEqual({ quota: 853_000, count: 12, token_used: 42_000 });
    expect(aggregate(rows, 'week').buckets).toEqual([at(6, 0), at(13, 0)]);
    expect(aggregate(rows, 'hour').buckets).toHaveLength(4);
    expect(aggregate([], 'hour')).toEqual({
      buckets: [],
      series: { quota: [], count: [], token_used: [] },
      totals: { quota: 0, count: 0, token_used: 0 },
    });
  });

  it('queries with a username for admins who give one, and never for others', () => {
    const filter = { start: 100, end: 200, granularity: 'week' as const, username: ' alice ' };
    expect(dataQuery(filter, true)).toBe('start_timestamp=100&end_timestamp=200&default_time=week&username=alice');
    expect(dataQuery({ ...filter, username: '' }, true)).toBe('start_timestamp=100&end_timestamp=200&default_time=week');
    expect(dataQuery(filter, false)).toBe('start_timestamp=100&end_timestamp=200&default_time=week');
  });

  it('abbreviates large numbers, formats spend and picks round axis tops and default ranges', () => {
    expect([9999, 12_345, 2_500_000, 3_000_000_000].map(abbreviate)).toEqual(['9999', '12.35k', '2.5M', '3B']);
    expect(formatSpend(853_000, 500_000, true)).toBe('$1.71');
    expect(formatSpend(853_000, 500_000, false)).toBe('853k');
    // A cheap call never reads as free: under a cent keeps two significant digits.
    expect(formatSpend(3, 500_000, true)).toBe('$0.000006');
    expect(formatSpend(2_500, 500_000, true)).toBe('$0.005');
    expect(formatSpend(0, 500_000, true)).toBe('$0.00');
    expect(formatQuota(7, 500_000)).toBe('$0.000014');
    expect(formatQuota(1_234_567, 500_000)).toBe('$2.47');
    expect([0, 10, 12_345, 750_000].map((q) => chartDollars(q, 500_000))).toEqual(['$0', '$0.00002', '$0.0247', '$1.5']);
    expect([0, 3, 7, 850_000].map((v) => niceMax(v))).toEqual([1, 4, 8, 800_000 * 1.25]);
    const now = new Date(2024, 4, 8, 12).getTime();
    expect(defaultRange('hour', now)).toEqual({ start: at(7, 12), end: at(8, 13) });
    expect(defaultRange('day', now).start).toBe(at(1, 12));
    expect(defaultRange('week', now).start).toBe(new Date(2024, 3, 10, 12).getTime() / 1000);
  });
});

describe('dashboard page', () => {
  it("shows a user's own usage by the stored default granularity, and regroups without a new call", async () => {
    logIn(1, 'day');
    const before = Math.floor(Date.now() / 1000);
    renderPage(<DashboardPage />, '/detail');
    const spend = await screen.findByTestId('total-quota');
    await waitFor(() => expect(within(spend).getByText('$1.71')).toBeTruthy());
    expect(within(screen.getByTestId('total-count')).getByText('12')).toBeTruthy();
    expect(within(screen.getByTestId('total-token_used')).getByText('42k')).toBeTruthy();
    expect(screen.queryByLabelText('用户名')).toBeNull();
    expect(screen.getByText('我的用量')).toBeTruthy();
    // Totals are written every DataExportInterval minutes: the page says so rather than a bare "no data".
    expect(screen.getByTestId('refresh-hint').textContent).toContain('每 5 分钟');

    const calls = sentTo('GET', '/api/data/self');
    expect(calls).toHaveLength(1);
    const query = queryOf(calls[0]?.search ?? '');
    expect(query.default_time).toBe('day');
    expect(Number(query.end_timestamp) - Number(query.start_timestamp)).toBeGreaterThanOrEqual(7 * 86_400);
    expect(Number(query.end_timestamp)).toBeGreaterThanOrEqual(before);

    const chart = screen.getByRole('img', { name: '模型消耗分布' });
    expect(chart.querySelectorAll('[data-bucket]')).toHaveLength(3);
    expect(chart.querySelector('[data-bucket="05-06"] title')?.textContent).toBe('05-06 · gpt-4o: $1.5');
    expect(screen.getByRole('img', { name: '模型调用次数' })).toBeTruthy();
    expect(screen.getByRole('img', { name: '模型 Token 用量' })).toBeTruthy();

    await userEvent.click(screen.getByRole('combobox', { name: '时间粒度' }));
    await userEvent.click(await screen.findByRole('option', { name: '小时' }));
    await waitFor(() =>
      expect(screen.getByRole('img', { name: '模型消耗分布' }).querySelectorAll('[data-bucket]')).toHaveLength(4),
    );
    await userEvent.click(screen.getByRole('combobox', { name: '时间粒度' }));
    await userEvent.click(await screen.findByRole('option', { name: '周' }));
    await waitFor(() =>
      expect(screen.getByRole('img', { name: '模型消耗分布' }).querySelectorAll('[data-bucket]')).toHaveLength(2),
    );
    expect(sentTo('GET', '/api/data/self')).toHaveLength(1);
  });

  it("lets an admin see every user's usage, or one user's by name", async () => {
    logIn(10, 'hour');
    renderPage(<DashboardPage />, '/detail');
    await waitFor(() => expect(sentTo('GET', '/api/data/')).toHaveLength(1));
    const first = queryOf(sentTo('GET', '/api/data/')[0]?.search ?? '');
    expect(first.username).toBeUndefined();
    expect(first.default_time).toBe('hour');
    expect(Number(first.end_timestamp) - Number(first.start_timestamp)).toBe(86_400 + 3600);
    expect(await screen.findByText('全部用户的用量')).toBeTruthy();

    await userEvent.type(screen.getByLabelText('用户名'), 'alice');
    await userEvent.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() => expect(sentTo('GET', '/api/data/')).toHaveLength(2));
    expect(queryOf(sentTo('GET', '/api/data/')[1]?.search ?? '').username).toBe('alice');
    expect(await screen.findByText('用户 alice 的用量')).toBeTruthy();
    expect(sentTo('GET', '/api/data/self')).toHaveLength(0);
  });

  it('says when there is no data, and refuses a range that ends before it starts', async () => {
    logIn(1, 'day');
    server.use(ok('get', '/api/data/self', []));
    renderPage(<DashboardPage />, '/detail');
    expect(await screen.findByText('所选时间范围内没有数据')).toBeTruthy();
    expect(screen.queryByRole('img')).toBeNull();

    const start = screen.getByLabelText('起始时间') as HTMLInputElement;
    await userEvent.clear(start);
    await userEvent.type(start, '2099-01-01T00:00');
    await userEvent.click(screen.getByRole('button', { name: '查询' }));
    expect(await screen.findByText('请选择有效的时间范围')).toBeTruthy();
    expect(sentTo('GET', '/api/data/self')).toHaveLength(1);
  });

  it('asks nothing when data export is off', async () => {
    logIn(1, 'day', false);
    server.use(ok('get', '/api/status', siteStatus({ enable_data_export: false })));
    renderPage(<DashboardPage />, '/detail');
    expect(await screen.findByText('数据看板未启用，请联系管理员开启数据导出。')).toBeTruthy();
    await new Promise((r) => setTimeout(r, 50));
    expect(sentTo('GET', '/api/data/self')).toHaveLength(0);
  });
});
