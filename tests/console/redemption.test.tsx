/**
 * The redemption codes screen (/redemption) against msw: list and search, row actions with the
 * status rules of spec 4, copying selected codes, the create drawer (defaults, validation, the
 * batch answered as a list of codes) and the edit drawer.
 */
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setupServer } from 'msw/node';
import type { RedemptionView } from '../../server/redemptions/schemas';
import { ResourceList } from '../../src/resources/schema';
import redemptionSchema from '../../src/resources/redemption/schema';
import { toCreateBody } from '../../src/resources/redemption/redemptionForm';
import { api, callsTo, refuse, rowOf } from './harness';
import { renderList, setUpSelectableList } from './selectable-list-harness';

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

const code = (id: number) => `${'c'.repeat(30)}${String(id).padStart(2, '0')}`;

const seed = (): RedemptionView[] => [
  { ...base, id: 3, name: 'spring', key: code(3), quota: 1000000, group: 'vip' },
  { ...base, id: 2, name: 'paused', key: code(2), status: 2 },
  { ...base, id: 1, name: 'gone', key: code(1), status: 3, used_user_id: 7, redeemed_time: 1700003600 },
];
let codes = seed();

const page = (items: RedemptionView[]) => ({ items, total: items.length, page: 1, page_size: 10 });

const server = setupServer(
  api('get', '/api/redemption/search', (call) =>
    page(codes.filter((c) => c.name.includes(call.query.keyword ?? '') || c.key === call.query.keyword)),
  ),
  api('get', '/api/redemption/', () => page(codes)),
  api('get', '/api/redemption/:id', (call) => codes.find((c) => String(c.id) === call.path.split('/')[3]) ?? null),
  api('post', '/api/redemption/', (call) =>
    Array.from({ length: Number((call.body as { count: number }).count) }, (_, i) => `new${i}${'n'.repeat(28)}`),
  ),
  api('put', '/api/redemption/', (call) => {
    const body = call.body as Partial<RedemptionView> & { id: number };
    const found = codes.find((c) => c.id === body.id);
    if (found) Object.assign(found, call.query.status_only === 'true' ? { status: body.status } : body);
    return found ?? null;
  }),
  api('delete', '/api/redemption/:id/', () => null),
  api('get', '/api/group/', ['default', 'vip']),
);

const writeText = setUpSelectableList(server, { user: { id: 1, role: 100, username: 'root' }, reset: () => (codes = seed()) });
const renderAt = (url = '/redemption') => renderList(<ResourceList schema={redemptionSchema} />, 'redemption', url);

const save = (drawer: HTMLElement) => userEvent.click(within(drawer).getByRole('button', { name: /保存/ }));
const posted = () => callsTo('POST', '/api/redemption/').map((c) => c.body as Record<string, unknown>);

async function openCreate() {
  renderAt('/redemption/create');
  return screen.findByRole('dialog', { name: '创建新的兑换码' });
}

describe('redemption codes list', () => {
  it('shows whole codes, status labels, quotas, groups and who redeemed them', async () => {
    renderAt();
    const spring = await rowOf('spring');
    expect(within(spring).getByText(code(3))).toBeTruthy();
    expect(within(spring).getByText('未使用')).toBeTruthy();
    expect(within(spring).getByText('$2.00')).toBeTruthy();
    expect(within(spring).getByText('vip')).toBeTruthy();
    expect(within(spring).getByText('无')).toBeTruthy();
    const paused = await rowOf('paused');
    expect(within(paused).getByText('已禁用')).toBeTruthy();
    expect(within(paused).getByText('不限分组')).toBeTruthy();
    const gone = await rowOf('gone');
    expect(within(gone).getByText('已使用')).toBeTruthy();
    expect(within(gone).getByText('7')).toBeTruthy();
    expect(callsTo('GET', '/api/redemption/')[0]?.query).toEqual({ p: '1', page_size: '10' });
    // Only unused codes look active.
    expect(getComputedStyle(spring).opacity).not.toBe('0.6');
    expect(getComputedStyle(paused).opacity).toBe('0.6');
    expect(getComputedStyle(gone).opacity).toBe('0.6');
  });

  it('searches through /api/redemption/search', async () => {
    renderAt();
    await rowOf('spring');
    await userEvent.type(screen.getByLabelText('搜索兑换码的 ID、名称或兑换码'), 'pau');
    await waitFor(() => expect(callsTo('GET', '/api/redemption/search').at(-1)?.query).toMatchObject({ keyword: 'pau', p: '1' }));
    await waitFor(() => expect(screen.queryByText('spring')).toBeNull());
    expect(screen.getByText('paused')).toBeTruthy();
  });

  it('disables an unused code and enables a disabled one with status_only', async () => {
    renderAt();
    await userEvent.click(within(await rowOf('spring')).getByRole('button', { name: '禁用' }));
    await waitFor(() => expect(callsTo('PUT', '/api/redemption/')).toHaveLength(1));
    expect(await screen.findByText('操作成功完成！')).toBeTruthy();
    await userEvent.click(within(await rowOf('paused')).getByRole('button', { name: '启用' }));
    await waitFor(() => expect(callsTo('PUT', '/api/redemption/')).toHaveLength(2));
    expect(callsTo('PUT', '/api/redemption/').map((c) => [c.query, c.body])).toEqual([
      [{ status_only: 'true' }, { id: 3, status: 2 }],
      [{ status_only: 'true' }, { id: 2, status: 1 }],
    ]);
  });

  it('offers no status change and no edit on a used code, and edits only unused ones', async () => {
    renderAt();
    const gone = await rowOf('gone');
    expect((within(gone).getByRole('button', { name: '禁用' }) as HTMLButtonElement).disabled).toBe(true);
    expect(within(gone).queryByRole('button', { name: '启用' })).toBeNull();
    expect(within(gone).getByRole('link', { name: /编辑/ }).getAttribute('aria-disabled')).toBe('true');
    expect(
      within(await rowOf('paused'))
        .getByRole('link', { name: /编辑/ })
        .getAttribute('aria-disabled'),
    ).toBe('true');
    expect(
      within(await rowOf('spring'))
        .getByRole('link', { name: /编辑/ })
        .getAttribute('aria-disabled'),
    ).not.toBe('true');
  });

  it('shows why the server refuses a status change', async () => {
    server.use(refuse('put', '/api/redemption/', '兑换码已被使用，无法修改状态'));
    renderAt();
    await userEvent.click(within(await rowOf('spring')).getByRole('button', { name: '禁用' }));
    expect(await screen.findByText('兑换码已被使用，无法修改状态')).toBeTruthy();
  });

  it('copies one code from its row', async () => {
    renderAt();
    await userEvent.click(within(await rowOf('paused')).getByRole('button', { name: '复制' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(code(2)));
    expect(await screen.findByText('已复制')).toBeTruthy();
  });

  it('asks for a selection, then copies the selected codes one a line', async () => {
    renderAt();
    await rowOf('spring');
    await userEvent.click(screen.getByRole('button', { name: '复制所选兑换码' }));
    expect(await screen.findByText('请至少选择一个兑换码！')).toBeTruthy();
    expect(writeText).not.toHaveBeenCalled();
    await userEvent.click(within(await rowOf('spring')).getByRole('checkbox'));
    await userEvent.click(within(await rowOf('gone')).getByRole('checkbox'));
    await userEvent.click(screen.getByRole('button', { name: '复制所选兑换码' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(`${code(3)}\n${code(1)}`));
  });

  it('asks before deleting, then sends DELETE /api/redemption/{id}/', async () => {
    renderAt();
    await userEvent.click(within(await rowOf('gone')).getByRole('button', { name: '删除' }));
    expect(await screen.findByText('确定要删除兑换码 gone 吗？')).toBeTruthy();
    expect(callsTo('DELETE', '/api/redemption/1/')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: /确认/ }));
    await waitFor(() => expect(callsTo('DELETE', '/api/redemption/1/')).toHaveLength(1));
    expect(await screen.findByText('兑换码已删除')).toBeTruthy();
  });
});

describe('create drawer', () => {
  it('starts from quota 100000 and one code; an empty name becomes the formatted quota', async () => {
    const drawer = await openCreate();
    expect((within(drawer).getByLabelText(/额度/) as HTMLInputElement).value).toBe('100000');
    expect((within(drawer).getByLabelText(/生成数量/) as HTMLInputElement).value).toBe('1');
    await save(drawer);
    await waitFor(() => expect(posted()).toHaveLength(1));
    expect(posted()[0]).toEqual({ name: '$0.20', quota: 100000, count: 1, group: '', expired_time: 0 });
    expect(await screen.findByText('成功创建 1 个兑换码')).toBeTruthy();
  });

  it('creates a batch in one call and shows the answered codes to copy', async () => {
    const drawer = await openCreate();
    await userEvent.type(within(drawer).getByLabelText(/名称/), '新年活动');
    await userEvent.click(within(drawer).getByText('$10.00'));
    await userEvent.click(within(drawer).getByText('10 个'));
    const count = within(drawer).getByLabelText(/生成数量/);
    await userEvent.clear(count);
    await userEvent.type(count, '3');
    await userEvent.click(within(drawer).getByLabelText(/分组/));
    await userEvent.click(await screen.findByRole('option', { name: 'vip' }));
    await save(drawer);
    await waitFor(() => expect(posted()).toHaveLength(1));
    expect(posted()[0]).toEqual({ name: '新年活动', quota: 5000000, count: 3, group: 'vip', expired_time: 0 });
    const dialog = await screen.findByRole('dialog', { name: '已生成 3 个兑换码' });
    const text = within(dialog).getByLabelText('生成的兑换码') as HTMLTextAreaElement;
    const expected = [0, 1, 2].map((i) => `new${i}${'n'.repeat(28)}`).join('\n');
    expect(text.value).toBe(expected);
    await userEvent.click(within(dialog).getByRole('button', { name: '复制全部' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(expected));
  });

  it('checks name length, quota and count before sending anything', async () => {
    const drawer = await openCreate();
    await userEvent.type(within(drawer).getByLabelText(/名称/), 'x'.repeat(21));
    const quota = within(drawer).getByLabelText(/额度/);
    await userEvent.clear(quota);
    await userEvent.type(quota, '0');
    const count = within(drawer).getByLabelText(/生成数量/);
    await userEvent.clear(count);
    await userEvent.type(count, '101');
    await save(drawer);
    expect(await within(drawer).findByText('兑换码名称长度必须在1-20之间')).toBeTruthy();
    expect(within(drawer).getByText('额度必须是正整数')).toBeTruthy();
    expect(within(drawer).getByText('一次最多生成 100 个兑换码')).toBeTruthy();
    await userEvent.clear(count);
    await userEvent.type(count, '0');
    await save(drawer);
    expect(await within(drawer).findByText('生成数量必须大于0')).toBeTruthy();
    expect(posted()).toHaveLength(0);
  });

  it('shows the server’s refusal and keeps the drawer open', async () => {
    server.use(refuse('post', '/api/redemption/', '分组 gold 不存在'));
    const drawer = await openCreate();
    await userEvent.type(within(drawer).getByLabelText(/名称/), 'gift');
    await save(drawer);
    expect(await screen.findByText('分组 gold 不存在')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: '创建新的兑换码' })).toBeTruthy();
  });
});

describe('edit drawer', () => {
  it('loads the code and saves name, quota and group with its id', async () => {
    renderAt('/redemption/edit/3');
    const drawer = await screen.findByRole('dialog', { name: '更新兑换码信息' });
    await waitFor(() => expect((within(drawer).getByLabelText(/名称/) as HTMLInputElement).value).toBe('spring'), {
      timeout: 5000,
    });
    expect(within(drawer).queryByLabelText(/生成数量/)).toBeNull();
    const name = within(drawer).getByLabelText(/名称/);
    await userEvent.clear(name);
    await save(drawer);
    expect(await within(drawer).findByText('兑换码名称长度必须在1-20之间')).toBeTruthy();
    await userEvent.type(name, 'summer');
    await save(drawer);
    await waitFor(() => expect(callsTo('PUT', '/api/redemption/')).toHaveLength(1));
    expect(callsTo('PUT', '/api/redemption/')[0]?.query).toEqual({});
    expect(callsTo('PUT', '/api/redemption/')[0]?.body).toEqual({
      id: 3,
      name: 'summer',
      quota: 1000000,
      group: 'vip',
      expired_time: 0,
    });
    expect(await screen.findByText('兑换码更新成功！')).toBeTruthy();
  });
});

describe('form helpers', () => {
  it('names an unnamed batch after its quota and trims names', () => {
    expect(toCreateBody({ name: '  ', quota: 500000, count: 2, group: '' })).toEqual({
      name: '$1.00',
      quota: 500000,
      count: 2,
      group: '',
      expired_time: 0,
    });
    expect(toCreateBody({ name: ' gift ', quota: '250000', count: '5' })).toEqual({
      name: 'gift',
      quota: 250000,
      count: 5,
      group: '',
      expired_time: 0,
    });
  });
});
