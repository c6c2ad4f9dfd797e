/**
 * The personal page's settings tabs and e-mail binding against msw: the bodies the tabs save, the
 * client checks, the code button's 30 s countdown, the bot check and the bind call.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import type { SelfUser } from '../../server/users/schemas';
import PersonalPage from '../../src/customPages/personal/PersonalPage';
import { ok, received, renderPage, selfUser, sentTo, serveDuringTests, siteStatus, securityHandlers } from './pages-harness';

const baseSelf = selfUser({
  id: 7,
  username: 'dave',
  display_name: 'Dave',
  aff_code: 'DAVE01',
  setting: '{"notify_type":"webhook"}',
  settings: {
    notify_type: 'webhook',
    quota_warning_threshold: 500_000,
    webhook_url: 'https://hooks.example.com/old',
    webhook_secret_set: true,
    notification_email: '',
    accept_unset_model_ratio_model: false,
  },
});

let self: SelfUser = baseSelf;

const server = setupServer(
  ...securityHandlers(),
  ok('get', '/api/status', siteStatus()),
  http.get('/api/user/self', () => HttpResponse.json({ success: true, message: '', data: self })),
  ok('get', '/api/user/models', []),
  ok('get', '/api/user/aff', 'DAVE01'),
  ok('put', '/api/user/setting', baseSelf.settings, '设置已更新'),
  ok('get', '/api/verification'),
);

serveDuringTests(server);
beforeEach(() => {
  self = baseSelf;
  localStorage.setItem('user', JSON.stringify({ id: 7, username: 'dave', role: 1, email: '' }));
});
afterEach(() => {
  vi.useRealTimers();
  localStorage.clear();
});

const openPage = async () => {
  renderPage(<PersonalPage />, '/personal');
  await screen.findByText('个人设置');
  return within(screen.getByRole('region', { name: '其他设置' }));
};

const settingBodies = () => sentTo('PUT', '/api/user/setting').map((r) => r.body);

describe('notification settings tab', () => {
  it('starts from the saved values and sends the secret only when typed', async () => {
    const settings = await openPage();
    expect((settings.getByLabelText('额度预警阈值') as HTMLInputElement).value).toBe('500000');
    expect((settings.getByLabelText('Webhook 地址') as HTMLInputElement).value).toBe('https://hooks.example.com/old');
    expect(settings.getByText('已设置；留空则保持不变')).toBeTruthy();

    await userEvent.click(settings.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('设置已保存')).toBeTruthy();
    await userEvent.type(settings.getByLabelText('Webhook 密钥'), 'new-secret');
    await userEvent.click(settings.getByRole('button', { name: '保存' }));
    await vi.waitFor(() => expect(settingBodies()).toHaveLength(2));
    const common = {
      notify_type: 'webhook',
      quota_warning_threshold: 500_000,
      webhook_url: 'https://hooks.example.com/old',
      notification_email: '',
      accept_unset_model_ratio_model: false,
    };
    expect(settingBodies()).toEqual([common, { ...common, webhook_secret: 'new-secret' }]);
  });

  it('saves the e-mail type with a preset threshold and a notification address', async () => {
    const settings = await openPage();
    await userEvent.click(settings.getByRole('radio', { name: '邮件通知' }));
    await userEvent.click(settings.getByRole('button', { name: /^5,000,000/ }));
    await userEvent.type(settings.getByLabelText('通知邮箱'), ' alerts@example.com ');
    await userEvent.click(settings.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('设置已保存')).toBeTruthy();
    expect(settingBodies()).toEqual([
      {
        notify_type: 'email',
        quota_warning_threshold: 5_000_000,
        webhook_url: 'https://hooks.example.com/old',
        notification_email: 'alerts@example.com',
        accept_unset_model_ratio_model: false,
      },
    ]);
  });

  it('checks the threshold, the webhook URL and the e-mail before sending', async () => {
    const settings = await openPage();
    const threshold = settings.getByLabelText('额度预警阈值');
    const url = settings.getByLabelText('Webhook 地址');
    const save = settings.getByRole('button', { name: '保存' });

    await userEvent.clear(threshold);
    await userEvent.click(save);
    expect(await screen.findByText('额度预警阈值必须大于0')).toBeTruthy();
    await userEvent.type(threshold, '200000');

    await userEvent.clear(url);
    await userEvent.click(save);
    expect(await screen.findByText('请输入 Webhook 地址')).toBeTruthy();
    for (const bad of ['http://hooks.example.com/x', 'https://user:pw@hooks.example.com/x']) {
      await userEvent.clear(url);
      await userEvent.type(url, bad);
      await userEvent.click(save);
      expect(await screen.findByText('Webhook 地址必须以 https:// 开头')).toBeTruthy();
    }

    await userEvent.clear(url);
    await userEvent.click(settings.getByRole('radio', { name: '邮件通知' }));
    await userEvent.type(settings.getByLabelText('通知邮箱'), 'nobody-at-example');
    await userEvent.click(save);
    expect(await screen.findByText('通知邮箱地址无效')).toBeTruthy();
    expect(settingBodies()).toHaveLength(0);
  });

  it("shows the server's refusal", async () => {
    server.use(http.put('/api/user/setting', () => HttpResponse.json({ success: false, message: 'Webhook地址必须以https开头' })));
    const settings = await openPage();
    await userEvent.click(settings.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('Webhook地址必须以https开头')).toBeTruthy();
    expect(screen.queryByText('设置已保存')).toBeNull();
  });
});

describe('price settings tab', () => {
  it('sends accept_unset_model_ratio_model with the rest of the setting', async () => {
    const settings = await openPage();
    await userEvent.click(settings.getByRole('tab', { name: '价格设置' }));
    const box = settings.getByRole('checkbox', { name: '接受未设置价格的模型' });
    expect((box as HTMLInputElement).checked).toBe(false);
    await userEvent.click(box);
    await userEvent.click(settings.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('设置已保存')).toBeTruthy();
    expect(settingBodies()).toEqual([
      {
        notify_type: 'webhook',
        quota_warning_threshold: 500_000,
        webhook_url: 'https://hooks.example.com/old',
        notification_email: '',
        accept_unset_model_ratio_model: true,
      },
    ]);
  });
});

describe('e-mail binding', () => {
  const openDialog = async () => {
    await openPage();
    const account = screen.getByText('账户与安全').closest('.MuiCard-root') as HTMLElement;
    expect((within(account).getByLabelText('邮箱') as HTMLInputElement).value).toBe('未绑定');
    await userEvent.click(within(account).getByRole('button', { name: '绑定邮箱' }));
    const dialog = within(await screen.findByRole('dialog'));
    expect(dialog.getByText('绑定邮箱地址')).toBeTruthy();
    return dialog;
  };

  it('sends the code, counts 30 s down with the button disabled, then binds and shows the address', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    server.use(
      http.post('/api/oauth/email/bind', async ({ request }) => {
        const url = new URL(request.url);
        const body = (await request.json()) as { email: string; code: string };
        received.push({ method: 'POST', path: url.pathname, search: url.search, body });
        self = { ...baseSelf, email: body.email };
        return HttpResponse.json({ success: true, message: '绑定成功！', data: self.email });
      }),
    );
    const dialog = await openDialog();

    await user.click(dialog.getByRole('button', { name: '获取验证码' }));
    expect(await screen.findByText('请输入邮箱地址')).toBeTruthy();
    expect(sentTo('GET', '/api/verification')).toHaveLength(0);

    await user.type(dialog.getByLabelText('邮箱地址'), 'dave@example.com');
    await user.click(dialog.getByRole('button', { name: '获取验证码' }));
    expect(await screen.findByText('验证码发送成功，请检查邮箱！')).toBeTruthy();
    const first = sentTo('GET', '/api/verification');
    expect(first).toHaveLength(1);
    expect(new URLSearchParams(first[0]!.search).get('email')).toBe('dave@example.com');

    const counting = await dialog.findByRole('button', { name: /^重新发送 \(\d+\)$/ });
    expect(counting.textContent).toMatch(/^重新发送 \((30|29)\)$/);
    expect((counting as HTMLButtonElement).disabled).toBe(true);
    // Each second re-renders and schedules the next tick.
    const tick = async (seconds: number) => {
      for (let i = 0; i < seconds; i++) {
        await act(async () => {
          await vi.advanceTimersByTimeAsync(1000);
        });
      }
    };
    await tick(10);
    const later = dialog.getByRole('button', { name: /^重新发送 \(\d+\)$/ });
    expect(Number(/\((\d+)\)/.exec(later.textContent ?? '')?.[1])).toBeLessThanOrEqual(20);
    expect((later as HTMLButtonElement).disabled).toBe(true);
    await tick(21);
    const again = dialog.getByRole('button', { name: '获取验证码' });
    expect((again as HTMLButtonElement).disabled).toBe(false);
    expect(sentTo('GET', '/api/verification')).toHaveLength(1);

    await user.click(dialog.getByRole('button', { name: '绑定' }));
    expect(await screen.findByText('请输入邮箱地址和验证码')).toBeTruthy();
    expect(sentTo('POST', '/api/oauth/email/bind')).toHaveLength(0);

    await user.type(dialog.getByLabelText('验证码'), ' ab12cd ');
    await user.click(dialog.getByRole('button', { name: '绑定' }));
    expect(await screen.findByText('绑定成功！')).toBeTruthy();
    const bound = sentTo('POST', '/api/oauth/email/bind');
    expect(bound.map((r) => [r.search, r.body])).toEqual([['', { email: 'dave@example.com', code: 'ab12cd' }]]);

    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const account = screen.getByText('账户与安全').closest('.MuiCard-root') as HTMLElement;
    await vi.waitFor(() => expect((within(account).getByLabelText('邮箱') as HTMLInputElement).value).toBe('dave@example.com'));
    expect(within(account).getByRole('button', { name: '修改绑定' })).toBeTruthy();
    expect(JSON.parse(localStorage.getItem('user') ?? '{}').email).toBe('dave@example.com');
  });

  it("keeps the dialog open and shows the server's refusal", async () => {
    server.use(http.post('/api/oauth/email/bind', () => HttpResponse.json({ success: false, message: '验证码错误或已过期' })));
    const dialog = await openDialog();
    await userEvent.type(dialog.getByLabelText('邮箱地址'), 'dave@example.com');
    await userEvent.type(dialog.getByLabelText('验证码'), 'WRONG1');
    await userEvent.click(dialog.getByRole('button', { name: '绑定' }));
    expect(await screen.findByText('验证码错误或已过期')).toBeTruthy();
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('shows a refused code request and does not start the countdown', async () => {
    server.use(
      http.get('/api/verification', () =>
        HttpResponse.json({ success: false, message: '管理员启用了邮箱域名白名单，您的邮箱地址的域名不在白名单中' }),
      ),
    );
    const dialog = await openDialog();
    await userEvent.type(dialog.getByLabelText('邮箱地址'), 'dave@elsewhere.test');
    await userEvent.click(dialog.getByRole('button', { name: '获取验证码' }));
    expect(await screen.findByText('管理员启用了邮箱域名白名单，您的邮箱地址的域名不在白名单中')).toBeTruthy();
    expect((dialog.getByRole('button', { name: '获取验证码' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('waits for the bot check when it is on and sends its token with the code request', async () => {
    server.use(ok('get', '/api/status', siteStatus({ turnstile_check: true, turnstile_site_key: 'site-key-1' })));
    const dialog = await openDialog();
    await userEvent.type(dialog.getByLabelText('邮箱地址'), 'dave@example.com');
    await userEvent.click(dialog.getByRole('button', { name: '获取验证码' }));
    expect(await screen.findByText('请稍后几秒重试，人机验证正在检查用户环境！')).toBeTruthy();
    expect(sentTo('GET', '/api/verification')).toHaveLength(0);

    // The widget script "loads" and the widget hands over its token.
    const script = document.head.querySelector<HTMLScriptElement>('script[src*="challenges.cloudflare.com/turnstile"]');
    expect(script).toBeTruthy();
    window.turnstile = {
      render: (_el, options) => {
        options.callback('turnstile-token-1');
        return 'widget-1';
      },
      remove: () => undefined,
    };
    await act(async () => {
      script!.dispatchEvent(new Event('load'));
    });
    await userEvent.click(dialog.getByRole('button', { name: '获取验证码' }));
    expect(await screen.findByText('验证码发送成功，请检查邮箱！')).toBeTruthy();
    const sent = sentTo('GET', '/api/verification');
    expect(sent).toHaveLength(1);
    expect(new URLSearchParams(sent[0]!.search).get('turnstile')).toBe('turnstile-token-1');
    delete window.turnstile;
  });
});
