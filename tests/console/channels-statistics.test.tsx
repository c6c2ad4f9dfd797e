import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within, fireEvent } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setupServer } from 'msw/node';
import ChannelStatisticsPage from '../../src/customPages/channelStatistics/ChannelStatisticsPage';
import {
  csvFileName,
  defaultFilter,
  sortRows,
  statisticsCsv,
  statisticsQuery,
  totals,
  type ChannelUseRow,
} from '../../src/customPages/channelStatistics/statistics';
import { ok, received, renderPage, sentTo, siteStatus } from './pages-harness';

const rows: ChannelUseRow[] = [
  {
    channel_id: 1,
    model_name: 'gpt-4o',
    token_used: 1200,
    count: 3,
    quota: 750_000,
    prompt_tokens: 1000,
    cached_tokens: 250,
    cache_hit_rate: 0.25,
  },
  {
    channel_id: 2,
    model_name: 'claude, "sonnet"',
    token_used: 300,
    count: 7,
    quota: 1,
    prompt_tokens: 200,
    cached_tokens: 170,
    cache_hit_rate: 0.85,
  },
];

/** A channel whose hours hold no input (a refund only, or hours kept before cached input was). */
const withoutInput: ChannelUseRow = {
  channel_id: 3,
  model_name: 'old-model',
  token_used: 0,
  count: 0,
  quota: 0,
  prompt_tokens: 0,
  cached_tokens: 0,
  cache_hit_rate: null,
};

const server = setupServer(ok('get', '/api/status', siteStatus()), ok('get', '/api/data/channelUseData', rows));

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  localStorage.setItem('user', JSON.stringify({ id: 1, role: 100, username: 'root' }));
});
afterEach(() => {
  server.resetHandlers();
  received.length = 0;
  vi.restoreAllMocks();
});
afterAll(() => server.close());

const queryOf = (search: string) => Object.fromEntries(new URLSearchParams(search));

describe('channel statistics: pure functions', () => {
  it('builds a CSV with a BOM, the header and quota in dollars with 6 decimals', () => {
    const csv = statisticsCsv([...rows, withoutInput], 500_000, ['渠道 ID', '模型', 'Token 用量', '次数', '花费', '缓存命中率']);
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    expect(csv.slice(1).split('\r\n')).toEqual([
      '渠道 ID,模型,Token 用量,次数,花费,缓存命中率',
      '1,gpt-4o,1200,3,1.500000,25.00%',
      '2,"claude, ""sonnet""",300,7,0.000002,85.00%',
      '3,old-model,0,0,0.000000,',
      '',
    ]);
    expect(csvFileName(1_700_000_000_123)).toBe('channel_statistics_1700000000.csv');
  });

  it('sends the range in seconds and leaves blank filters out; sums and sorts rows', () => {
    const now = new Date(2024, 4, 6, 15, 30);
    const filter = defaultFilter(now);
    expect(filter.start).toBe('2024-05-06T00:00');
    expect(filter.end).toBe('2024-05-06T16:30');
    expect(queryOf(statisticsQuery(filter))).toEqual({
      start_timestamp: String(new Date(2024, 4, 6).getTime() / 1000),
      end_timestamp: String(new Date(2024, 4, 6, 16, 30).getTime() / 1000),
      merge: 'false',
    });
    expect(queryOf(statisticsQuery({ ...filter, model_name: ' gpt-4o ', channel_id: '2', merge: true }))).toMatchObject({
      model_name: 'gpt-4o',
      channel_id: '2',
      merge: 'true',
    });
    expect(totals(rows)).toEqual({ count: 10, token_used: 1500, quota: 750_001, cache_hit_rate: 420 / 1200 });
    expect(totals([withoutInput]).cache_hit_rate).toBeNull();
    expect(sortRows(rows, 'count', 'desc').map((r) => r.channel_id)).toEqual([2, 1]);
    expect(sortRows(rows, 'token_used', 'asc').map((r) => r.channel_id)).toEqual([2, 1]);
    // A rate without input sorts below every rate, either way round.
    const all = [withoutInput, ...rows];
    expect(sortRows(all, 'cache_hit_rate', 'asc').map((r) => r.channel_id)).toEqual([3, 1, 2]);
    expect(sortRows(all, 'cache_hit_rate', 'desc').map((r) => r.channel_id)).toEqual([2, 1, 3]);
  });
});

describe('channel statistics page', () => {
  it('queries the default range on load, shows the rows and the totals', async () => {
    const before = Math.floor(Date.now() / 1000);
    renderPage(<ChannelStatisticsPage />, '/channelStatistics');
    expect(await screen.findByText('gpt-4o')).toBeTruthy();
    const query = queryOf(sentTo('GET', '/api/data/channelUseData')[0]?.search ?? '');
    const today = new Date();
    today.setHours(0, 0, 0, 0);
    expect(Number(query.start_timestamp)).toBe(today.getTime() / 1000);
    // The end is one hour ahead, to the minute.
    expect(Number(query.end_timestamp)).toBeGreaterThan(before + 3600 - 61);
    expect(Number(query.end_timestamp)).toBeLessThanOrEqual(before + 3600);
    expect(query.merge).toBe('false');

    const footer = screen.getByTestId('statistics-totals');
    expect(within(footer).getByText('10')).toBeTruthy();
    expect(within(footer).getByText('1500')).toBeTruthy();
    expect(within(footer).getByText('$1.50')).toBeTruthy();
  });

  it('sends the model, channel and merge filters when Query is pressed', async () => {
    renderPage(<ChannelStatisticsPage />, '/channelStatistics');
    await screen.findByText('gpt-4o');
    await userEvent.type(screen.getByLabelText('模型'), 'gpt-4o');
    await userEvent.type(screen.getByLabelText('渠道 ID'), '1x2');
    await userEvent.click(screen.getByRole('switch', { name: '合并模型' }));
    await userEvent.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() => expect(sentTo('GET', '/api/data/channelUseData')).toHaveLength(2));
    expect(queryOf(sentTo('GET', '/api/data/channelUseData')[1]?.search ?? '')).toMatchObject({
      model_name: 'gpt-4o',
      channel_id: '12',
      merge: 'true',
    });
  });

  it('sorts by a column and copies a clicked value', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderPage(<ChannelStatisticsPage />, '/channelStatistics');
    await screen.findByText('gpt-4o');
    await userEvent.click(screen.getByRole('button', { name: '次数' }));
    await userEvent.click(screen.getByRole('button', { name: '次数' }));
    const bodyRows = screen.getAllByRole('row').slice(1, 3);
    expect(within(bodyRows[0] as HTMLElement).getByText('7')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'gpt-4o' }));
    expect(writeText).toHaveBeenCalledWith('gpt-4o');
    expect(await screen.findByText('已复制')).toBeTruthy();
  });

  it('exports a CSV file from the same call', async () => {
    let blob: Blob | undefined;
    URL.createObjectURL = vi.fn((b: Blob) => {
      blob = b;
      return 'blob:statistics';
    });
    URL.revokeObjectURL = vi.fn();
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    renderPage(<ChannelStatisticsPage />, '/channelStatistics');
    await screen.findByText('gpt-4o');
    fireEvent.click(screen.getByRole('button', { name: '导出 CSV' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(sentTo('GET', '/api/data/channelUseData')).toHaveLength(2);
    const link = click.mock.contexts[0] as HTMLAnchorElement;
    expect(link.download).toMatch(/^channel_statistics_\d+\.csv$/);
    const bytes = await new Promise<ArrayBuffer>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result as ArrayBuffer);
      reader.readAsArrayBuffer(blob as Blob);
    });
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
    expect(text.startsWith('\uFEFF渠道 ID,模型,Token 用量,次数,花费,缓存命中率\r\n1,gpt-4o,1200,3,1.500000,25.00%')).toBe(true);
  });

  it('shows each channel’s cache-hit rate, sorts by it, totals it and marks a channel without input', async () => {
    server.use(ok('get', '/api/data/channelUseData', [...rows, withoutInput]));
    renderPage(<ChannelStatisticsPage />, '/channelStatistics');
    await screen.findByText('gpt-4o');
    const rateOf = (row: HTMLElement) => within(row).getAllByRole('cell').at(-1)?.textContent;
    const bodyRows = () => screen.getAllByRole('row').slice(1, 4);
    expect(bodyRows().map(rateOf)).toEqual(['25.0%', '85.0%', '-']);
    expect(rateOf(screen.getByTestId('statistics-totals'))).toBe('35.0%');
    await userEvent.click(screen.getByRole('button', { name: '缓存命中率' }));
    await userEvent.click(screen.getByRole('button', { name: '缓存命中率' }));
    expect(bodyRows().map(rateOf)).toEqual(['85.0%', '25.0%', '-']);
  });
});
