/**
 * The channel list's health column (healthy, cooling down until …, disabled, each with its why) and
 * the edit drawer's key list of a multi-key channel: keys by position and last characters, a
 * disabled key with its reason, enabled again through the key endpoint.
 */
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setupServer } from 'msw/node';
import { clearLoadedChoices } from '../../src/resources/schema';
import type { ChannelHealthView, ChannelKeyView } from '../../server/channels/schemas';
import { api, callsTo, calls, logIn } from './harness';
import { channelHandlers, channels, renderChannels, resetChannels } from './channels-fixtures';

const healthy: ChannelHealthView = { state: 'healthy', until: 0, rule: '', reason: '', trips: 0, failures: 0, requests: 0 };
const key = (index: number, tail: string, status = 1, reason = ''): ChannelKeyView => ({
  index,
  tail,
  status,
  reason,
  disabled_time: status === 1 ? 0 : 1_700_000_000,
  health: status === 1 ? healthy : { ...healthy, state: 'disabled', reason },
});

const server = setupServer(
  api('post', '/api/channel/multi_key/manage', (call) => {
    const body = call.body as { channel_id: number; action: string; key_index?: number };
    const stored = channels.find((c) => c.id === body.channel_id)!;
    if (body.action === 'enable_key')
      stored.keys = stored.keys!.map((k) => (k.index === body.key_index ? key(k.index, k.tail) : k));
    return stored;
  }),
  api('get', '/api/channel/fetch_models/:id', []),
  ...channelHandlers,
);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  resetChannels();
  clearLoadedChoices();
  logIn({ id: 1, role: 100, username: 'root' });
  const [alpha, beta, gamma] = channels;
  alpha!.health = {
    state: 'cooling',
    until: 1_900_000_000,
    rule: 'error_rate',
    reason: '500: upstream error',
    trips: 2,
    failures: 6,
    requests: 10,
  };
  alpha!.keys = [key(0, '…1111', 3, '401: Incorrect API key provided'), key(1, '…2222'), key(2, '…3333')];
  alpha!.channel_info = { is_multi_key: true, multi_key_size: 3, multi_key_mode: 'polling' };
  alpha!.multi_key_mode = 'polling';
  beta!.health = { ...healthy, state: 'disabled' };
  gamma!.health = { ...healthy, state: 'disabled', reason: 'upstream said 401' };
  for (const c of channels.slice(3)) c.health = healthy;
});
afterEach(() => {
  server.resetHandlers();
  calls.length = 0;
});
afterAll(() => server.close());

it('shows each channel’s health: cooling down until when and why, healthy, disabled', async () => {
  renderChannels();
  await screen.findByText('alpha', {}, { timeout: 5000 });
  expect(screen.getByRole('columnheader', { name: '健康状态' })).toBeTruthy();
  const cooling = await screen.findByText(/^冷却中，至 2030-/);
  await userEvent.hover(cooling);
  expect(await screen.findByText(/10 次调用中 6 次失败（第 2 次熔断）/)).toBeTruthy();
  expect(screen.getByText(/最近错误：500: upstream error/)).toBeTruthy();
  expect(screen.getAllByText('正常').length).toBeGreaterThan(0);
  // Beside the status column's own "disabled", each disabled channel's health says so.
  expect(screen.getAllByText('已禁用').length).toBeGreaterThanOrEqual(2);
});

it('lists a multi-key channel’s keys in its drawer and enables a disabled one', async () => {
  renderChannels('/channel/edit/1');
  const drawer = await screen.findByRole('dialog', { name: '更新渠道信息' });
  await waitFor(() => expect((within(drawer).getByLabelText('名称') as HTMLInputElement).value).toBe('alpha'), { timeout: 5000 });
  const list = await within(drawer).findByRole('group', { name: '密钥列表' }, { timeout: 5000 });
  expect(within(list).getByText('共 3 个密钥，2 个启用')).toBeTruthy();
  const first = within(list).getByTestId('channel-key-0');
  expect(within(first).getByText('密钥 1 …1111')).toBeTruthy();
  expect(within(first).getByText('自动禁用')).toBeTruthy();
  expect(within(first).getByText(/401: Incorrect API key provided/)).toBeTruthy();
  expect(within(drawer).getByText('轮询')).toBeTruthy();

  await userEvent.click(within(first).getByRole('button', { name: '启用' }));
  await waitFor(() =>
    expect(callsTo('POST', '/api/channel/multi_key/manage').map((c) => c.body)).toEqual([
      { channel_id: 1, action: 'enable_key', key_index: 0 },
    ]),
  );
  await waitFor(() => expect(within(list).getByText('共 3 个密钥，3 个启用')).toBeTruthy());
  expect(within(within(list).getByTestId('channel-key-0')).getByRole('button', { name: '禁用' })).toBeTruthy();
});
