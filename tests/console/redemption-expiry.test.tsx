/**
 * Redemption expiry on the codes screen against msw: the expiry column (never, a date, expired
 * codes marked), the drawer's "never expires" switch and date sent as `expired_time`, and "clear
 * invalid codes" asking first, then calling DELETE /api/redemption/invalid and saying how many.
 */
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setupServer } from 'msw/node';
import type { RedemptionView } from '../../server/redemptions/schemas';
import { ResourceList, formatTimestamp } from '../../src/resources/schema';
import redemptionSchema from '../../src/resources/redemption/schema';
import { api, callsTo, rowOf } from './harness';
import { renderList, setUpSelectableList } from './selectable-list-harness';

const now = Math.floor(Date.now() / 1000);
const later = now + 30 * 86_400;

const base: RedemptionView = {
  id: 0,
  user_id: 1,
  key: '',
  status: 1,
  name: '',
  quota: 100000,
  group: '',
  created_time: 1700000000,
  redeemed_time: 0,
  used_user_id: 0,
  expired_time: 0,
};

const seed = (): RedemptionView[] => [
  { ...base, id: 3, name: 'forever', key: 'k3'.repeat(16) },
  { ...base, id: 2, name: 'dated', key: 'k2'.repeat(16), expired_time: later },
  { ...base, id: 1, name: 'stale', key: 'k1'.repeat(16), expired_time: now - 3600 },
];
let codes = seed();
const page = (items: RedemptionView[]) => ({ items, total: items.length, page: 1, page_size: 10 });

const server = setupServer(
  api('get', '/api/redemption/', () => page(codes)),
  api('get', '/api/redemption/:id', (call) => codes.find((c) => String(c.id) === call.path.split('/')[3]) ?? null),
  api('post', '/api/redemption/', () => ['n'.repeat(32)]),
  api('put', '/api/redemption/', (call) => codes.find((c) => c.id === (call.body as { id: number }).id) ?? null),
  api('delete', '/api/redemption/invalid', () => {
    const before = codes.length;
    codes = codes.filter((c) => c.status === 1 && (c.expired_time === 0 || c.expired_time >= now));
    return before - codes.length;
  }),
  api('get', '/api/group/', ['default']),
);

setUpSelectableList(server, { user: { id: 1, role: 100, username: 'root' }, reset: () => (codes = seed()) });
const renderAt = (url = '/redemption') => renderList(<ResourceList schema={redemptionSchema} />, 'redemption', url);
const save = (drawer: HTMLElement) => userEvent.click(within(drawer).getByRole('button', { name: /保存/ }));

describe('redemption expiry', () => {
  it('shows never, the date, and marks an expired unused code', async () => {
    renderAt();
    expect(within(await rowOf('forever')).getByText('永不过期')).toBeTruthy();
    expect(within(await rowOf('forever')).getByText('未使用')).toBeTruthy();
    expect(within(await rowOf('dated')).getByText(formatTimestamp(later))).toBeTruthy();
    const stale = await rowOf('stale');
    expect(within(stale).getByText('已过期')).toBeTruthy();
    expect(within(stale).queryByText('未使用')).toBeNull();
  });

  it('creates codes that never expire by default, or expire at the chosen date', async () => {
    renderAt('/redemption/create');
    let drawer = await screen.findByRole('dialog', { name: '创建新的兑换码' });
    const never = within(drawer).getByRole('switch', { name: '永不过期' }) as HTMLInputElement;
    expect(never.checked).toBe(true);
    await userEvent.click(never);
    const date = within(drawer).getByLabelText('过期时间') as HTMLInputElement;
    await userEvent.clear(date);
    await userEvent.type(date, '2099-01-02T03:04:05');
    await userEvent.type(within(drawer).getByLabelText(/名称/), 'dated');
    await save(drawer);
    await waitFor(() => expect(callsTo('POST', '/api/redemption/')).toHaveLength(1));
    const sent = callsTo('POST', '/api/redemption/')[0]!.body as { expired_time: number };
    expect(sent.expired_time).toBe(Math.floor(new Date('2099-01-02T03:04:05').getTime() / 1000));
    drawer = await screen.findByRole('dialog', { name: /已生成/ });
    expect(drawer).toBeTruthy();
  });

  it('refuses a past date on a new code before sending anything', async () => {
    renderAt('/redemption/create');
    const drawer = await screen.findByRole('dialog', { name: '创建新的兑换码' });
    await userEvent.click(within(drawer).getByRole('switch', { name: '永不过期' }));
    const date = within(drawer).getByLabelText('过期时间');
    await userEvent.clear(date);
    await userEvent.type(date, '2001-01-01T00:00:00');
    await save(drawer);
    expect(await within(drawer).findByText('过期时间不能早于当前时间')).toBeTruthy();
    expect(callsTo('POST', '/api/redemption/')).toHaveLength(0);
  });

  it('edits a code back to never expiring', async () => {
    renderAt('/redemption/edit/2');
    const drawer = await screen.findByRole('dialog', { name: '更新兑换码信息' });
    await waitFor(() => expect((within(drawer).getByLabelText(/名称/) as HTMLInputElement).value).toBe('dated'), {
      timeout: 5000,
    });
    const never = within(drawer).getByRole('switch', { name: '永不过期' }) as HTMLInputElement;
    expect(never.checked).toBe(false);
    await userEvent.click(never);
    await save(drawer);
    await waitFor(() => expect(callsTo('PUT', '/api/redemption/')).toHaveLength(1));
    expect(callsTo('PUT', '/api/redemption/')[0]!.body).toMatchObject({ id: 2, expired_time: 0 });
  });

  it('clears invalid codes after a confirmation and says how many went', async () => {
    renderAt();
    await rowOf('stale');
    await userEvent.click(screen.getByRole('button', { name: '清除失效兑换码' }));
    expect(await screen.findByText('确定清除所有失效兑换码？')).toBeTruthy();
    expect(callsTo('DELETE', '/api/redemption/invalid')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: /确认/ }));
    await waitFor(() => expect(callsTo('DELETE', '/api/redemption/invalid')).toHaveLength(1));
    expect(await screen.findByText('已清除 1 个失效兑换码')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('stale')).toBeNull());
  });
});
