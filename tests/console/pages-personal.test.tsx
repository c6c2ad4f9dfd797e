import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setupServer } from 'msw/node';
import PersonalPage from '../../src/customPages/personal/PersonalPage';
import { ok, renderPage, selfUser, sentTo, serveDuringTests, siteStatus, securityHandlers } from './pages-harness';

const self = selfUser({
  email: 'carol@example.com',
  used_quota: 250_000,
  request_count: 42,
  aff_count: 3,
  aff_quota: 600_000,
  aff_history_quota: 900_000,
});
const models = Array.from({ length: 12 }, (_, i) => `model-${i + 1}`);

const server = setupServer(
  ...securityHandlers(),
  ok('get', '/api/status', siteStatus()),
  ok('get', '/api/user/self', self),
  ok('get', '/api/user/models', models),
  ok('get', '/api/user/aff', 'CAROL1'),
  ok('delete', '/api/user/self', undefined, '账户已删除'),
  ok('get', '/api/user/logout'),
  ok('put', '/api/user/self', self),
  ok('put', '/api/user/setting', self.settings),
  ok('post', '/api/user/aff_transfer', { quota: 1_600_000, aff_quota: 0 }),
);

serveDuringTests(server);
beforeEach(() => {
  localStorage.setItem('user', JSON.stringify({ id: 5, username: 'carol', role: 1 }));
  vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText: () => Promise.resolve() } });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const openPage = async () => {
  renderPage(<PersonalPage />, '/personal');
  await screen.findByText('个人设置');
};

describe('personal page', () => {
  it('shows balance, usage and request count in dollars', async () => {
    await openPage();
    expect(screen.getByLabelText('当前余额').textContent).toBe('$2.00');
    expect(screen.getByLabelText('历史消耗').textContent).toBe('$0.50');
    expect(screen.getByLabelText('请求次数').textContent).toBe('42');
  });

  it('collapses the models after 10 and remembers the expansion', async () => {
    await openPage();
    expect(await screen.findByText('model-10')).toBeTruthy();
    expect(screen.queryByText('model-11')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: '展开更多 (2)' }));
    expect(screen.getByText('model-12')).toBeTruthy();
    expect(localStorage.getItem('modelsExpanded')).toBe('true');
  });

  it('copies the invitation link', async () => {
    await openPage();
    const link = (await screen.findByLabelText('邀请链接')) as HTMLInputElement;
    await vi.waitFor(() => expect(link.value).toBe(`${window.location.origin}/register?aff=CAROL1`));
    const card = link.closest('.MuiCard-root') as HTMLElement;
    await userEvent.click(within(card).getByRole('button', { name: '复制' }));
    expect(await screen.findByText('邀请链接已复制')).toBeTruthy();
  });

  it('refuses a transfer below one quota unit', async () => {
    await openPage();
    await userEvent.click(screen.getByRole('button', { name: '划转到余额' }));
    const amount = screen.getByLabelText('划转额度');
    await userEvent.clear(amount);
    await userEvent.type(amount, '1000');
    await userEvent.click(screen.getByRole('button', { name: '确定' }));
    expect(await screen.findByText('划转金额最低为$1.00')).toBeTruthy();
    expect(sentTo('POST', '/api/user/aff_transfer')).toHaveLength(0);
    await userEvent.clear(amount);
    await userEvent.type(amount, '500000');
    await userEvent.click(screen.getByRole('button', { name: '确定' }));
    expect(await screen.findByText('划转成功')).toBeTruthy();
    expect(sentTo('POST', '/api/user/aff_transfer').map((r) => r.body)).toEqual([{ quota: 500000 }]);
  });

  it('checks the password change and sends original and new password', async () => {
    await openPage();
    await userEvent.click(screen.getByRole('button', { name: '修改密码' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('原密码'), 'old-password');
    await userEvent.type(within(dialog).getByLabelText('新密码'), 'old-password');
    await userEvent.click(within(dialog).getByRole('button', { name: '确定' }));
    expect(await screen.findByText('新密码需要和原密码不一致！')).toBeTruthy();
    await userEvent.clear(within(dialog).getByLabelText('新密码'));
    await userEvent.type(within(dialog).getByLabelText('新密码'), 'new-password');
    await userEvent.type(within(dialog).getByLabelText('确认新密码'), 'new-password');
    await userEvent.click(within(dialog).getByRole('button', { name: '确定' }));
    expect(await screen.findByText('密码修改成功！')).toBeTruthy();
    expect(sentTo('PUT', '/api/user/self').map((r) => r.body)).toEqual([
      { original_password: 'old-password', password: 'new-password' },
    ]);
  });

  it('refuses to delete the account on a wrong name and deletes it on the right one', async () => {
    await openPage();
    await userEvent.click(screen.getByRole('button', { name: '删除个人账户' }));
    const dialog = await screen.findByRole('dialog');
    const input = within(dialog).getByLabelText('输入你的账户名 carol 以确认删除');
    await userEvent.type(input, 'Carol');
    await userEvent.click(within(dialog).getByRole('button', { name: '确认删除' }));
    expect(await screen.findByText('请输入你的账户名以确认删除！')).toBeTruthy();
    expect(sentTo('DELETE', '/api/user/self')).toHaveLength(0);

    await userEvent.clear(input);
    await userEvent.type(input, 'carol');
    await userEvent.click(within(dialog).getByRole('button', { name: '确认删除' }));
    expect(await screen.findByText('now at /login')).toBeTruthy();
    expect(sentTo('DELETE', '/api/user/self')).toHaveLength(1);
    expect(localStorage.getItem('user')).toBeNull();
  });

  it('saves notification settings with an https webhook only', async () => {
    await openPage();
    const settings = within(screen.getByRole('region', { name: '其他设置' }));
    expect((settings.getByLabelText('额度预警阈值') as HTMLInputElement).value).toBe('100000');
    await userEvent.click(settings.getByRole('radio', { name: 'Webhook 通知' }));
    await userEvent.type(settings.getByLabelText('Webhook 地址'), 'http://hooks.example.com/x');
    await userEvent.click(settings.getByRole('button', { name: /^1,000,000/ }));
    await userEvent.click(settings.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('Webhook 地址必须以 https:// 开头')).toBeTruthy();
    expect(sentTo('PUT', '/api/user/setting')).toHaveLength(0);

    const url = settings.getByLabelText('Webhook 地址');
    await userEvent.clear(url);
    await userEvent.type(url, 'https://hooks.example.com/x');
    await userEvent.click(settings.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('设置已保存')).toBeTruthy();
    expect(sentTo('PUT', '/api/user/setting').map((r) => r.body)).toEqual([
      {
        notify_type: 'webhook',
        quota_warning_threshold: 1_000_000,
        webhook_url: 'https://hooks.example.com/x',
        notification_email: '',
        accept_unset_model_ratio_model: false,
      },
    ]);
  });

  it('saves the price setting from its tab', async () => {
    await openPage();
    const settings = within(screen.getByRole('region', { name: '其他设置' }));
    await userEvent.click(settings.getByRole('tab', { name: '价格设置' }));
    await userEvent.click(settings.getByRole('checkbox', { name: '接受未设置价格的模型' }));
    await userEvent.click(settings.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('设置已保存')).toBeTruthy();
    expect(sentTo('PUT', '/api/user/setting')[0]?.body).toMatchObject({
      notify_type: 'email',
      accept_unset_model_ratio_model: true,
    });
  });
});
