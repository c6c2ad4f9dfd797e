/**
 * The /setting page's system and other tabs against an msw stand-in of /api/option: loading, saving
 * only what changed (one PUT per key), the save messages, the password-login confirm, the whitelist
 * editor, trailing slashes, OIDC discovery and write-only secrets.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { OPTION_REGISTRY } from '../../server/options/registry';
import SettingPage from '../../src/customPages/setting/SettingPage';
import { SECRET_KEYS } from '../../src/customPages/setting/system/systemForm';
import { ok, received, renderPage, sentTo, siteStatus } from './pages-harness';

const INITIAL: Record<string, string> = {
  ServerAddress: 'https://gw.example.com',
  WorkerUrl: '',
  WorkerAllowHttpImageRequestEnabled: 'false',
  PayAddress: 'https://pay.example.com',
  EpayId: '1001',
  Price: '7.3',
  MinTopUp: '1',
  TopupGroupRatio: '{"default":1,"vip":1,"svip":1}',
  CustomCallbackAddress: '',
  PasswordLoginEnabled: 'true',
  PasswordRegisterEnabled: 'true',
  EmailVerificationEnabled: 'false',
  RegisterEnabled: 'true',
  GitHubOAuthEnabled: 'false',
  'oidc.enabled': 'false',
  LinuxDOOAuthEnabled: 'false',
  WeChatAuthEnabled: 'false',
  TelegramOAuthEnabled: 'false',
  TurnstileCheckEnabled: 'false',
  EmailDomainRestrictionEnabled: 'false',
  EmailAliasRestrictionEnabled: 'false',
  EmailDomainWhitelist: 'gmail.com,qq.com',
  SMTPServer: 'smtp.example.com',
  SMTPPort: '587',
  SMTPAccount: 'mailer',
  SMTPFrom: 'noreply@example.com',
  SMTPSSLEnabled: 'false',
  'oidc.well_known': '',
  'oidc.client_id': '',
  'oidc.authorization_endpoint': '',
  'oidc.token_endpoint': '',
  'oidc.user_info_endpoint': '',
  GitHubClientId: 'gh-client',
  LinuxDOClientId: '',
  WeChatServerAddress: '',
  WeChatAccountQRCodeImageURL: '',
  TelegramBotName: '',
  TurnstileSiteKey: '',
  Notice: 'Welcome **all**',
  SystemName: 'My Gateway',
  Logo: '/logo.png',
  HomePageContent: '',
  About: '',
  Footer: '',
  'general_setting.docs_link': '',
  SupportLink: '',
  UpdateCheckUrl: '',
};

const DISCOVERED = {
  authorization_endpoint: 'https://id.example.com/authorize',
  token_endpoint: 'https://id.example.com/token',
  user_info_endpoint: 'https://id.example.com/userinfo',
};
const WELL_KNOWN = 'https://id.example.com/.well-known/openid-configuration';

/** What GET /api/option/ lists; a test may add a value the real server would never send. */
let listed: Record<string, string> = {};
/** Keys whose PUT the server refuses, with its message. */
let refused: Record<string, string> = {};

const server = setupServer(
  ok('get', '/api/status', siteStatus({ version: 'v9.8.7', start_time: 1_700_000_000 })),
  http.get('/api/option/', () =>
    HttpResponse.json({ success: true, message: '', data: Object.entries(listed).map(([key, value]) => ({ key, value })) }),
  ),
  http.put('/api/option/', async ({ request }) => {
    const body = (await request.json()) as { key: string; value: string };
    received.push({ method: 'PUT', path: '/api/option/', search: '', body });
    const message = refused[body.key];
    return HttpResponse.json(message ? { success: false, message } : { success: true, message: '' });
  }),
  http.post('/api/option/oidc_discovery', async ({ request }) => {
    const body = (await request.json()) as { url: string };
    received.push({ method: 'POST', path: '/api/option/oidc_discovery', search: '', body });
    return HttpResponse.json(
      body.url === WELL_KNOWN
        ? { success: true, message: '', data: DISCOVERED }
        : { success: false, message: '获取 OIDC 配置失败，请检查网络状况和 Well-Known URL 是否正确（HTTP 404）' },
    );
  }),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  listed = { ...INITIAL };
  refused = {};
  localStorage.setItem('user', JSON.stringify({ id: 1, username: 'root', role: 100 }));
});
afterEach(() => {
  server.resetHandlers();
  received.length = 0;
});
afterAll(() => server.close());

const puts = () => sentTo('PUT', '/api/option/').map((r) => r.body);

async function openTab(tab: 'system' | 'other', firstSection: string) {
  renderPage(<SettingPage />, '/setting', `/setting?tab=${tab}`);
  return screen.findByRole('region', { name: firstSection });
}

const section = (name: string) => screen.getByRole('region', { name });
const saveIn = (name: string) => userEvent.click(within(section(name)).getByRole('button', { name: '保存设置' }));
const field = (sectionName: string, label: string) => within(section(sectionName)).getByLabelText(label) as HTMLInputElement;

/** Closes the shown notification, so the next one appears at once. */
async function dismissToast() {
  await userEvent.keyboard('{Escape}');
  await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
}

/** Replaces a field's text (pasted: typing long addresses key by key is slow). */
async function retype(input: HTMLElement, text: string) {
  await userEvent.clear(input);
  if (text) await userEvent.paste(text);
}

describe('system settings tab', () => {
  it('loads every section from /api/option/', async () => {
    await openTab('system', '通用设置');
    expect(field('通用设置', '服务器地址').value).toBe('https://gw.example.com');
    expect(field('支付设置', '易支付商户 ID').value).toBe('1001');
    expect(field('配置 SMTP', 'SMTP 端口').value).toBe('587');
    expect(field('配置 GitHub OAuth App', 'GitHub Client ID').value).toBe('gh-client');
    expect((screen.getByRole('switch', { name: '允许通过密码进行登录' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('switch', { name: '允许通过 GitHub 账户登录 & 注册' }) as HTMLInputElement).checked).toBe(false);
    expect(within(section('配置 GitHub OAuth App')).getByText(/https:\/\/gw\.example\.com\/oauth\/github/)).toBeTruthy();
  });

  it('saves only the changed keys of the section, one PUT each', async () => {
    await openTab('system', '通用设置');
    await retype(field('配置 SMTP', 'SMTP 服务器地址'), 'mail.example.org');
    await retype(field('配置 SMTP', 'SMTP 端口'), '465');
    await userEvent.click(within(section('配置 SMTP')).getByRole('switch', { name: '启用 SMTP SSL' }));
    // An edit in another section is not saved by this one.
    await retype(field('支付设置', '易支付商户 ID'), '2002');
    await saveIn('配置 SMTP');
    expect(await screen.findByText('保存成功')).toBeTruthy();
    expect(puts()).toEqual([
      { key: 'SMTPServer', value: 'mail.example.org' },
      { key: 'SMTPPort', value: '465' },
      { key: 'SMTPSSLEnabled', value: 'true' },
    ]);
  });

  it('says nothing changed when a section is saved as loaded', async () => {
    await openTab('system', '通用设置');
    await saveIn('配置 SMTP');
    expect(await screen.findByText('你似乎并没有修改什么')).toBeTruthy();
    expect(puts()).toEqual([]);
  });

  it('reports a partial failure, and a single failure with the server message', async () => {
    refused = { MinTopUp: 'MinTopUp must be an integer', TelegramBotName: '名称无效' };
    await openTab('system', '通用设置');
    await retype(field('支付设置', '充值价格（x 元/美金）'), '7');
    await retype(field('支付设置', '最低充值美元数量'), '5');
    await saveIn('支付设置');
    expect(await screen.findByText('部分保存失败，请重试')).toBeTruthy();
    expect(puts()).toEqual([
      { key: 'Price', value: '7' },
      { key: 'MinTopUp', value: '5' },
    ]);
    await dismissToast();

    received.length = 0;
    await retype(field('配置 Telegram 登录', 'Telegram Bot 名称'), 'my_bot');
    await saveIn('配置 Telegram 登录');
    expect(await screen.findByText('保存失败: 名称无效')).toBeTruthy();
    expect(puts()).toEqual([{ key: 'TelegramBotName', value: 'my_bot' }]);
  });

  it('asks before turning password login off; cancel keeps it on', async () => {
    await openTab('system', '通用设置');
    const toggle = () => screen.getByRole('switch', { name: '允许通过密码进行登录' }) as HTMLInputElement;
    await userEvent.click(toggle());
    expect(await screen.findByText('确定要关闭密码登录吗？')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: '取消' }));
    await waitFor(() => expect(screen.queryByText('确定要关闭密码登录吗？')).toBeNull());
    // The page stays hidden from the accessibility tree until the dialog's closing transition ends.
    await waitFor(() => expect(toggle().checked).toBe(true));

    await userEvent.click(toggle());
    await userEvent.click(await screen.findByRole('button', { name: '确认' }));
    await waitFor(() => expect(toggle().checked).toBe(false));
    await saveIn('配置登录注册');
    await screen.findByText('保存成功');
    expect(puts()).toEqual([{ key: 'PasswordLoginEnabled', value: 'false' }]);

    // Turning it back on needs no confirmation.
    received.length = 0;
    await userEvent.click(toggle());
    expect(screen.queryByText('确定要关闭密码登录吗？')).toBeNull();
    expect(toggle().checked).toBe(true);
  });

  it('edits the whitelist as a list of checked domains', async () => {
    await openTab('system', '通用设置');
    const list = () => within(section('配置邮箱域名白名单')).getByRole('list', { name: '允许的邮箱域名' });
    expect(
      within(list())
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['gmail.com', 'qq.com']);
    const input = field('配置邮箱域名白名单', '添加域名');
    const add = () => userEvent.click(within(section('配置邮箱域名白名单')).getByRole('button', { name: '添加' }));

    await retype(input, 'not a domain');
    await add();
    expect(await screen.findByText('请输入正确的域名，例如 example.com')).toBeTruthy();
    await dismissToast();
    await retype(input, 'GMAIL.com');
    await add();
    expect(await screen.findByText('该域名已在白名单中')).toBeTruthy();
    expect(within(list()).getAllByRole('listitem')).toHaveLength(2);

    await retype(input, ' Example.ORG ');
    await add();
    expect(input.value).toBe('');
    await userEvent.type(input, 'mail.example.net{Enter}');
    const qq = within(list()).getByText('qq.com').closest('.MuiChip-root') as HTMLElement;
    await userEvent.click(qq.querySelector('.MuiChip-deleteIcon') as Element);
    expect(
      within(list())
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['gmail.com', 'example.org', 'mail.example.net']);
    await userEvent.click(screen.getByRole('switch', { name: '启用邮箱域名白名单' }));
    await saveIn('配置邮箱域名白名单');
    await screen.findByText('保存成功');
    // The whitelist is stored before the switch that needs it.
    expect(puts()).toEqual([
      { key: 'EmailDomainWhitelist', value: 'gmail.com,example.org,mail.example.net' },
      { key: 'EmailDomainRestrictionEnabled', value: 'true' },
    ]);
  });

  it('strips trailing slashes from the server, worker and pay addresses', async () => {
    await openTab('system', '通用设置');
    await retype(field('通用设置', '服务器地址'), 'https://new.example.com///');
    await saveIn('通用设置');
    await screen.findByText('保存成功');
    expect(field('通用设置', '服务器地址').value).toBe('https://new.example.com');
    await retype(field('代理设置', 'Worker 地址'), 'https://worker.example.dev/');
    await saveIn('代理设置');
    await retype(field('支付设置', '支付地址'), 'https://pay2.example.com/');
    await saveIn('支付设置');
    await waitFor(() => expect(puts()).toHaveLength(3));
    expect(puts()).toEqual([
      { key: 'ServerAddress', value: 'https://new.example.com' },
      { key: 'WorkerUrl', value: 'https://worker.example.dev' },
      { key: 'PayAddress', value: 'https://pay2.example.com' },
    ]);
  });

  it('checks the payment section: saved server address, group ratio JSON, numbers', async () => {
    listed.ServerAddress = '';
    await openTab('system', '通用设置');
    await retype(field('支付设置', '易支付商户 ID'), '3003');
    await saveIn('支付设置');
    expect(await screen.findByText('请先填写并保存服务器地址')).toBeTruthy();
    expect(puts()).toEqual([]);
  });

  it('refuses an invalid group ratio JSON and a non-numeric price', async () => {
    await openTab('system', '通用设置');
    const ratio = field('支付设置', '充值分组倍率');
    await retype(ratio, '{"default": 1');
    await saveIn('支付设置');
    expect(await screen.findByText('不是合法的 JSON 字符串')).toBeTruthy();
    await dismissToast();
    await retype(ratio, '{"default": 2}');
    await retype(field('支付设置', '最低充值美元数量'), '-1');
    await saveIn('支付设置');
    expect(await screen.findByText('请检查输入')).toBeTruthy();
    expect(puts()).toEqual([]);
  });

  it('fetches the OIDC endpoints through the gateway and fills the fields', async () => {
    await openTab('system', '通用设置');
    const oidc = '配置 OIDC';
    const fetchButton = () => within(section(oidc)).getByRole('button', { name: '获取配置' });
    await retype(field(oidc, 'Well-Known URL'), 'id.example.com');
    await userEvent.click(fetchButton());
    expect(await screen.findByText('Well-Known URL 必须以 http:// 或 https:// 开头')).toBeTruthy();
    expect(sentTo('POST', '/api/option/oidc_discovery')).toEqual([]);
    await dismissToast();

    await retype(field(oidc, 'Well-Known URL'), 'https://id.example.com/missing');
    await userEvent.click(fetchButton());
    expect(await screen.findByText(/^获取 OIDC 配置失败/)).toBeTruthy();
    expect(field(oidc, '授权端点').value).toBe('');

    await retype(field(oidc, 'Well-Known URL'), WELL_KNOWN);
    await userEvent.click(fetchButton());
    await waitFor(() => expect(field(oidc, '授权端点').value).toBe(DISCOVERED.authorization_endpoint));
    expect(field(oidc, 'Token 端点').value).toBe(DISCOVERED.token_endpoint);
    expect(field(oidc, '用户信息端点').value).toBe(DISCOVERED.user_info_endpoint);
    expect(sentTo('POST', '/api/option/oidc_discovery').at(-1)?.body).toEqual({ url: WELL_KNOWN });
  });

  it('fetches the endpoints on save when the well-known URL changed', async () => {
    await openTab('system', '通用设置');
    const oidc = '配置 OIDC';
    await retype(field(oidc, 'Well-Known URL'), WELL_KNOWN);
    await retype(field(oidc, 'Client ID'), 'oidc-client');
    await saveIn(oidc);
    await screen.findByText('保存成功');
    expect(sentTo('POST', '/api/option/oidc_discovery')).toHaveLength(1);
    expect(puts()).toEqual([
      { key: 'oidc.well_known', value: WELL_KNOWN },
      { key: 'oidc.client_id', value: 'oidc-client' },
      { key: 'oidc.authorization_endpoint', value: DISCOVERED.authorization_endpoint },
      { key: 'oidc.token_endpoint', value: DISCOVERED.token_endpoint },
      { key: 'oidc.user_info_endpoint', value: DISCOVERED.user_info_endpoint },
    ]);
  });

  it('stops the OIDC save when discovery fails', async () => {
    await openTab('system', '通用设置');
    await retype(field('配置 OIDC', 'Well-Known URL'), 'https://id.example.com/missing');
    await saveIn('配置 OIDC');
    expect(await screen.findByText(/^获取 OIDC 配置失败/)).toBeTruthy();
    expect(puts()).toEqual([]);
  });

  it('never shows a secret, sends one only when typed, and forgets it after saving', async () => {
    // Even if an answer carried secret values, the form would not show them.
    listed = { ...listed, SMTPToken: 'leaked-smtp-token', EpayKey: 'leaked-epay-key', 'oidc.client_secret': 'leaked-oidc' };
    await openTab('system', '通用设置');
    expect(document.body.innerHTML).not.toContain('leaked-');
    const token = field('配置 SMTP', 'SMTP 访问凭证');
    expect(token.type).toBe('password');
    expect(token.value).toBe('');
    expect(field('支付设置', '易支付商户密钥').value).toBe('');

    // Saved untouched, the empty secret fields send nothing.
    await saveIn('配置 SMTP');
    expect(await screen.findByText('你似乎并没有修改什么')).toBeTruthy();
    expect(puts()).toEqual([]);
    await dismissToast();

    await retype(field('配置 SMTP', 'SMTP 访问凭证'), 'new-token');
    await saveIn('配置 SMTP');
    expect(await screen.findByText('保存成功')).toBeTruthy();
    expect(puts()).toEqual([{ key: 'SMTPToken', value: 'new-token' }]);
    expect(field('配置 SMTP', 'SMTP 访问凭证').value).toBe('');
    await dismissToast();

    // Saving again with the field empty leaves the stored secret alone.
    received.length = 0;
    await saveIn('配置 SMTP');
    expect(await screen.findByText('你似乎并没有修改什么')).toBeTruthy();
    expect(puts()).toEqual([]);
  });

  it('masks the Stripe and Creem keys, never reads back their secrets, and lowers the currency', async () => {
    listed = {
      ...listed,
      StripeUnitPrice: '8',
      StripeMinTopUp: '1',
      StripeCurrency: 'usd',
      StripeApiSecret: 'leaked-sk',
      StripeWebhookSecret: 'leaked-whsec',
      CreemWebhookSecret: 'leaked-creem',
    };
    await openTab('system', '通用设置');
    expect(document.body.innerHTML).not.toContain('leaked-');
    for (const [name, label] of [
      ['Stripe 设置', 'API 密钥'],
      ['Stripe 设置', 'Webhook 签名密钥'],
      ['Creem 设置', 'API 密钥'],
      ['Creem 设置', 'Webhook 密钥'],
    ] as const) {
      expect(field(name, label).type).toBe('password');
      expect(field(name, label).value).toBe('');
    }
    expect(within(section('Stripe 设置')).getByText(/\/api\/stripe\/webhook/)).toBeTruthy();
    await retype(field('Stripe 设置', 'Webhook 签名密钥'), 'whsec_new');
    await retype(field('Stripe 设置', '币种（如 "usd"）'), 'EUR');
    await saveIn('Stripe 设置');
    expect(await screen.findByText('保存成功')).toBeTruthy();
    expect(puts()).toEqual([
      { key: 'StripeWebhookSecret', value: 'whsec_new' },
      { key: 'StripeCurrency', value: 'eur' },
    ]);
    expect(field('Stripe 设置', 'Webhook 签名密钥').value).toBe('');
  });

  it('treats exactly the registry secrets as write-only', () => {
    const registrySecrets = Object.entries(OPTION_REGISTRY)
      .filter(([, def]) => 'secret' in def)
      .map(([key]) => key)
      .sort();
    expect([...SECRET_KEYS].sort()).toEqual(registrySecrets);
  });
});

describe('other settings tab', () => {
  it('saves the notice and personalization, and shows the running version', async () => {
    await openTab('other', '公告');
    expect(field('公告', '公告内容').value).toBe('Welcome **all**');
    expect(field('个性化设置', '系统名称').value).toBe('My Gateway');
    expect((await screen.findByLabelText('version')).textContent).toBe('v9.8.7');
    expect(screen.getByLabelText('start_time').textContent).toMatch(/^2023-11-1\d \d\d:\d\d:\d\d$/);

    await retype(field('公告', '公告内容'), '# Maintenance tonight');
    await saveIn('公告');
    await screen.findByText('保存成功');
    expect(puts()).toEqual([{ key: 'Notice', value: '# Maintenance tonight' }]);

    received.length = 0;
    await retype(field('个性化设置', '文档地址'), 'javascript:alert(1)');
    await saveIn('个性化设置');
    expect(await screen.findByText('文档地址必须以 http:// 或 https:// 开头')).toBeTruthy();
    await dismissToast();
    expect(puts()).toEqual([]);

    await retype(field('个性化设置', '文档地址'), 'https://docs.example.com');
    await retype(field('个性化设置', '系统名称'), '  Our Gateway ');
    await saveIn('个性化设置');
    await waitFor(() =>
      expect(puts()).toEqual([
        { key: 'SystemName', value: 'Our Gateway' },
        { key: 'general_setting.docs_link', value: 'https://docs.example.com' },
      ]),
    );
  });

  it('checks for updates through the server and says what the feed said, or that it is unreachable', async () => {
    let update: object = {
      success: false,
      message: '无法访问版本源：无法解析域名 api.github.com',
      code: 'update.unreachable',
      params: { detail: '无法解析域名 api.github.com' },
    };
    server.use(http.get('/api/status/update', () => HttpResponse.json(update)));
    await openTab('other', '公告');
    const version = '系统信息';
    await retype(field(version, '版本源地址'), 'https://feed.example.com/releases/latest');
    await saveIn(version);
    await waitFor(() => expect(puts()).toEqual([{ key: 'UpdateCheckUrl', value: 'https://feed.example.com/releases/latest' }]));

    await userEvent.click(within(section(version)).getByRole('button', { name: '检查更新' }));
    expect(await within(section(version)).findByText(/检查更新失败，请稍后再试: 无法访问版本源/)).toBeTruthy();

    update = {
      success: true,
      message: '',
      data: {
        current_version: 'v9.8.7',
        latest_version: 'v9.9.0',
        update_available: true,
        release_url: 'https://feed.example.com/v9.9.0',
        published_at: '',
      },
    };
    await userEvent.click(within(section(version)).getByRole('button', { name: '检查更新' }));
    expect(await within(section(version)).findByText(/有新版本：v9.9.0/)).toBeTruthy();
    expect(within(section(version)).getByRole('link', { name: '发布说明' }).getAttribute('href')).toBe(
      'https://feed.example.com/v9.9.0',
    );
  });
});
