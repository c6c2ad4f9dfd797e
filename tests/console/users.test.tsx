import { beforeEach, describe, expect, it } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setupServer } from 'msw/node';
import userSchema from '../../src/resources/user/schema';
import { clearLoadedChoices, ResourceList } from '../../src/resources/schema';
import { AdminHarness, api, callsTo, logIn, refuse, rowOf, serveDuringTests } from './harness';

const base = {
  display_name: '',
  email: '',
  github_id: '',
  oidc_id: '',
  wechat_id: '',
  telegram_id: '',
  linux_do_id: '',
  group: 'default',
  aff_code: 'ABCD',
  aff_quota: 0,
  setting: '',
  remark: '',
  create_time: 0,
  last_use_time: 0,
  DeletedAt: 0,
};
const seed = () => [
  {
    ...base,
    id: 1,
    username: 'root',
    role: 100,
    status: 1,
    quota: 500000,
    used_quota: 0,
    request_count: 0,
    aff_count: 0,
    aff_history_quota: 0,
    inviter_id: 0,
  },
  {
    ...base,
    id: 2,
    username: 'alice',
    role: 1,
    status: 1,
    quota: 1000000,
    used_quota: 250000,
    request_count: 42,
    aff_count: 3,
    aff_history_quota: 1500000,
    inviter_id: 1,
    email: 'alice@example.com',
    github_id: 'alice-gh',
  },
  {
    ...base,
    id: 3,
    username: 'bob',
    role: 10,
    status: 2,
    quota: 0,
    used_quota: 0,
    request_count: 0,
    aff_count: 0,
    aff_history_quota: 0,
    inviter_id: 0,
  },
  {
    ...base,
    id: 4,
    username: 'ghost',
    role: 1,
    status: 1,
    quota: 0,
    used_quota: 0,
    request_count: 0,
    aff_count: 0,
    aff_history_quota: 0,
    inviter_id: 0,
    DeletedAt: 1700000000,
  },
  {
    ...base,
    id: 5,
    username: 'odd',
    role: 5,
    status: 3,
    quota: 0,
    used_quota: 0,
    request_count: 0,
    aff_count: 0,
    aff_history_quota: 0,
    inviter_id: 0,
  },
];
let users = seed();

/** A small stand-in for the user API: the manage call changes the stored rows like the server. */
const server = setupServer(
  api('get', '/api/user/', () => ({ items: users, total: users.length, page: 1, page_size: 10 })),
  api('get', '/api/user/search', (call) => {
    const items = users.filter(
      (u) => u.username.includes(call.query.keyword ?? '') && (!call.query.group || u.group === call.query.group),
    );
    return { items, total: items.length, page: 1, page_size: 10 };
  }),
  api('get', '/api/group/', ['default', 'vip']),
  api('get', '/api/user/:id', (call) => users.find((u) => `/api/user/${u.id}` === call.path) ?? null),
  api('put', '/api/user/', (call) => call.body as object),
  api('post', '/api/user/', undefined),
  api('post', '/api/user/manage', (call) => {
    const { id, action } = call.body as { id: number; action: string };
    const user = users.find((u) => u.id === id);
    if (!user) return null;
    if (action === 'disable') user.status = 2;
    if (action === 'enable') user.status = 1;
    if (action === 'promote') user.role = 10;
    if (action === 'demote') user.role = 1;
    return { status: user.status, role: user.role };
  }),
);

serveDuringTests(server);
beforeEach(() => {
  users = seed();
  clearLoadedChoices();
  logIn({ id: 1, role: 100, username: 'root' });
});

function renderUsers(url = '/user') {
  return render(
    <AdminHarness url={url} path="/user/*">
      <ResourceList schema={userSchema} />
    </AdminHarness>,
  );
}

describe('users list', () => {
  it('shows each user with quota in dollars, invite info, and role and status labels', async () => {
    renderUsers();
    const alice = await rowOf('alice');
    expect(within(alice).getByText('普通用户')).toBeTruthy();
    expect(within(alice).getByText('已激活')).toBeTruthy();
    expect(within(alice).getByText('$2.00')).toBeTruthy();
    expect(within(alice).getByText('$0.50')).toBeTruthy();
    expect(within(alice).getByText('42')).toBeTruthy();
    expect(within(alice).getByText('$3.00')).toBeTruthy();
    expect(within(alice).getByText('邀请人：1')).toBeTruthy();
    expect(within(await rowOf('root')).getByText('超级管理员')).toBeTruthy();
    expect(within(await rowOf('root')).getByText('无邀请人')).toBeTruthy();
    const bob = await rowOf('bob');
    expect(within(bob).getByText('管理员')).toBeTruthy();
    expect(within(bob).getByText('已封禁')).toBeTruthy();
    const odd = await rowOf('odd');
    expect(within(odd).getByText('未知')).toBeTruthy();
    expect(within(odd).getByText('未知状态')).toBeTruthy();
    expect(callsTo('GET', '/api/user/')[0]?.query).toEqual({ p: '1', page_size: '10' });
  });

  it('shows a deregistered user as such, with no actions; status 3 cannot be enabled', async () => {
    renderUsers();
    const ghost = await rowOf('ghost');
    expect(within(ghost).getByText('已注销')).toBeTruthy();
    expect(within(ghost).queryAllByRole('button')).toHaveLength(0);
    const odd = await rowOf('odd');
    expect((within(odd).getByRole('button', { name: '启用' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('disables a user through POST /api/user/manage and updates the row from the answer', async () => {
    renderUsers();
    const alice = await rowOf('alice');
    await userEvent.click(within(alice).getByRole('button', { name: '禁用' }));
    await waitFor(() => expect(within(alice).getByText('已封禁')).toBeTruthy());
    expect(callsTo('POST', '/api/user/manage').map((c) => c.body)).toEqual([{ id: 2, action: 'disable' }]);
    expect(within(alice).getByRole('button', { name: '启用' })).toBeTruthy();
    expect(await screen.findByText('操作成功完成！')).toBeTruthy();
  });

  it('promotes a user and shows the new role', async () => {
    renderUsers();
    const alice = await rowOf('alice');
    await userEvent.click(within(alice).getByRole('button', { name: '提升' }));
    await waitFor(() => expect(within(alice).getByText('管理员')).toBeTruthy());
    expect(callsTo('POST', '/api/user/manage').map((c) => c.body)).toEqual([{ id: 2, action: 'promote' }]);
  });

  it('shows the server message when a manage action is refused', async () => {
    server.use(refuse('post', '/api/user/manage', '无法禁用超级管理员用户'));
    renderUsers();
    const alice = await rowOf('alice');
    await userEvent.click(within(alice).getByRole('button', { name: '禁用' }));
    expect(await screen.findByText('无法禁用超级管理员用户')).toBeTruthy();
    expect(within(alice).getByText('已激活')).toBeTruthy();
  });

  it('asks before deregistering, then sends the delete action', async () => {
    renderUsers();
    const alice = await rowOf('alice');
    await userEvent.click(within(alice).getByRole('button', { name: '注销' }));
    expect(await screen.findByText('确定是否要注销此用户？')).toBeTruthy();
    expect(callsTo('POST', '/api/user/manage')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: /确认/ }));
    await waitFor(() => expect(callsTo('POST', '/api/user/manage').map((c) => c.body)).toEqual([{ id: 2, action: 'delete' }]));
  });

  it('searches by keyword through /api/user/search', async () => {
    renderUsers();
    await rowOf('alice');
    await userEvent.type(screen.getByLabelText('搜索用户的 ID、用户名、显示名称或邮箱'), 'bo');
    await waitFor(() => expect(callsTo('GET', '/api/user/search').at(-1)?.query).toMatchObject({ keyword: 'bo', p: '1' }));
    await waitFor(() => expect(screen.queryByText('alice')).toBeNull());
    expect(screen.getByText('bob')).toBeTruthy();
  });

  it('remembers the chosen page size as page-size', async () => {
    localStorage.setItem('page-size', '20');
    renderUsers();
    await rowOf('alice');
    expect(callsTo('GET', '/api/user/')[0]?.query.page_size).toBe('20');
    await userEvent.click(screen.getByRole('combobox', { name: /每页行数/ }));
    await userEvent.click(await screen.findByRole('option', { name: '50' }));
    await waitFor(() => expect(callsTo('GET', '/api/user/').at(-1)?.query.page_size).toBe('50'));
    expect(localStorage.getItem('page-size')).toBe('50');
  });
});

describe('add-user drawer', () => {
  it('needs username and password, then posts the fields with the remark', async () => {
    renderUsers('/user/create');
    const drawer = await screen.findByRole('dialog', { name: '创建新用户' });
    await userEvent.click(within(drawer).getByRole('button', { name: /保存/ }));
    expect((await within(drawer).findAllByText('用户名和密码不能为空')).length).toBeGreaterThan(0);
    expect(callsTo('POST', '/api/user/')).toHaveLength(0);
    await userEvent.type(within(drawer).getByLabelText(/用户名/), 'carol');
    await userEvent.type(within(drawer).getByLabelText(/显示名称/), 'Carol');
    await userEvent.type(within(drawer).getByLabelText(/^密码/, { selector: 'input' }), 'password1');
    await userEvent.type(within(drawer).getByLabelText(/备注/), 'vip');
    await userEvent.click(within(drawer).getByRole('button', { name: /保存/ }));
    await waitFor(() =>
      expect(callsTo('POST', '/api/user/').map((c) => c.body)).toEqual([
        { username: 'carol', display_name: 'Carol', password: 'password1', remark: 'vip' },
      ]),
    );
    expect(await screen.findByText('用户账户创建成功！')).toBeTruthy();
  });
});

describe('edit-user drawer', () => {
  it('shows bound accounts read-only and refuses a quota change that would go below zero', async () => {
    renderUsers('/user/edit/2');
    const drawer = await screen.findByRole('dialog', { name: '编辑用户信息' });
    // The inputs are mounted again once the record has arrived.
    await waitFor(() => expect((within(drawer).getByLabelText(/用户名/) as HTMLInputElement).value).toBe('alice'));
    const github = within(drawer).getByLabelText('已绑定的 GitHub 账户');
    expect((github as HTMLInputElement).value).toBe('alice-gh');
    expect((github as HTMLInputElement).readOnly).toBe(true);
    const quota = within(drawer).getByLabelText(/剩余额度/);
    expect((quota as HTMLInputElement).value).toBe('1000000');

    await userEvent.click(within(drawer).getByRole('button', { name: '添加额度' }));
    const dialog = await screen.findByRole('dialog', { name: '添加额度' });
    await userEvent.type(within(dialog).getByLabelText(/要添加的额度/), '-1500000');
    expect(within(dialog).getByText('$2.00 + $-3.00 = $-1.00')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: '确定' }));
    expect(within(dialog).getByText('无效输入')).toBeTruthy();
    expect(within(dialog).getByText('剩余额度不能小于0')).toBeTruthy();
    expect((quota as HTMLInputElement).value).toBe('1000000');

    await userEvent.clear(within(dialog).getByLabelText(/要添加的额度/));
    await userEvent.type(within(dialog).getByLabelText(/要添加的额度/), '-400000');
    expect(within(dialog).getByText('$2.00 + $-0.80 = $1.20')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: '确定' }));
    await waitFor(() => expect((quota as HTMLInputElement).value).toBe('600000'));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '添加额度' })).toBeNull());

    await userEvent.click(within(drawer).getByRole('button', { name: /保存/ }));
    await waitFor(() => expect(callsTo('PUT', '/api/user/')).toHaveLength(1));
    expect(callsTo('PUT', '/api/user/')[0]?.body).toMatchObject({ id: 2, username: 'alice', quota: 600000, group: 'default' });
    expect(callsTo('PUT', '/api/user/')[0]?.body).not.toHaveProperty('password');
    expect(await screen.findByText('用户信息更新成功！')).toBeTruthy();
  });

  it('rejects a new password shorter than 8 characters', async () => {
    renderUsers('/user/edit/2');
    const drawer = await screen.findByRole('dialog', { name: '编辑用户信息' });
    await waitFor(() => expect((within(drawer).getByLabelText(/用户名/) as HTMLInputElement).value).toBe('alice'));
    await userEvent.type(within(drawer).getByLabelText(/^密码/, { selector: 'input' }), 'short');
    await userEvent.click(within(drawer).getByRole('button', { name: /保存/ }));
    expect(await within(drawer).findByText('密码长度至少为8个字符')).toBeTruthy();
    expect(callsTo('PUT', '/api/user/')).toHaveLength(0);
  });

  it('offers no group or quota editing on one’s own account', async () => {
    renderUsers('/user/edit/1');
    const drawer = await screen.findByRole('dialog', { name: '编辑用户信息' });
    await within(drawer).findByLabelText('已绑定的 GitHub 账户');
    await waitFor(() => expect((within(drawer).getByLabelText(/用户名/) as HTMLInputElement).value).toBe('root'));
    expect(within(drawer).queryByLabelText(/剩余额度/)).toBeNull();
    expect(within(drawer).queryByRole('button', { name: '添加额度' })).toBeNull();
  });
});
