import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setupServer } from 'msw/node';
import type { TokenView } from '../../server/tokens/schemas';
import { ResourceList } from '../../src/resources/schema';
import tokenSchema from '../../src/resources/token/schema';
import { batchNames, expiryFromNow, parseExpiry, toTokenBody } from '../../src/resources/token/tokenForm';
import { clearLoadedChoices } from '../../src/resources/schema';
import { AdminHarness, api, calls, callsTo, logIn, refuse } from './harness';

const existing: TokenView = {
  id: 9,
  user_id: 7,
  name: 'ci',
  key: 'AbCd**********WxYz',
  status: 1,
  created_time: 1700000000,
  accessed_time: 0,
  expired_time: Math.floor(new Date(2031, 5, 7, 8, 9, 10).getTime() / 1000),
  remain_quota: 1500000,
  used_quota: 0,
  unlimited_quota: false,
  model_limits_enabled: true,
  model_limits: 'gpt-4o,claude-3',
  allow_ips: '10.0.0.1',
  group: 'vip',
  tpm_limit: 5000,
  max_concurrency: 2,
  rpm_limit: 60,
  rpd_limit: 0,
  log_bodies: false,
};

const server = setupServer(
  api('get', '/api/token/', { items: [existing], total: 1, page: 1, page_size: 10 }),
  api('get', '/api/token/:id', existing),
  api('post', '/api/token/', (call) => ({ ...existing, ...(call.body as object), id: calls.length })),
  api('put', '/api/token/', (call) => ({ ...existing, ...(call.body as object) })),
  api('get', '/api/user/models', ['gpt-4o', 'gpt-4o-mini', 'claude-3']),
  api('get', '/api/user/self/groups', { default: { desc: '默认分组', ratio: 1 }, vip: { desc: 'VIP', ratio: 2 } }),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  clearLoadedChoices();
  logIn({ id: 7, role: 1, username: 'amy' });
});
afterEach(() => {
  server.resetHandlers();
  calls.length = 0;
});
afterAll(() => server.close());

function renderAt(url: string) {
  return render(
    <AdminHarness url={url} path="/token/*">
      <ResourceList schema={tokenSchema} />
    </AdminHarness>,
  );
}

async function openCreate() {
  renderAt('/token/create');
  return screen.findByRole('dialog', { name: '创建新的令牌' });
}

const save = (drawer: HTMLElement) => userEvent.click(within(drawer).getByRole('button', { name: /保存/ }));
const posted = () => callsTo('POST', '/api/token/').map((c) => c.body as Record<string, unknown>);

describe('create-token drawer', () => {
  it('posts the defaults: quota 500000, never expires, no limits, the user’s group', async () => {
    const drawer = await openCreate();
    expect((within(drawer).getByLabelText(/剩余额度/) as HTMLInputElement).value).toBe('500000');
    expect((within(drawer).getByLabelText(/过期时间/) as HTMLInputElement).value).toBe('-1');
    await userEvent.type(within(drawer).getByLabelText(/名称/), 'laptop');
    await save(drawer);
    await waitFor(() => expect(posted()).toHaveLength(1));
    expect(posted()[0]).toEqual({
      name: 'laptop',
      remain_quota: 500000,
      expired_time: -1,
      unlimited_quota: false,
      model_limits_enabled: false,
      model_limits: '',
      allow_ips: '',
      group: '',
      tpm_limit: 0,
      max_concurrency: 0,
      rpm_limit: 0,
      rpd_limit: 0,
      log_bodies: false,
    });
    expect(await screen.findByText('成功创建 1 个令牌')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '创建新的令牌' })).toBeNull());
  });

  it('converts the typed expiry to Unix seconds, takes a quota preset and the unlimited switch', async () => {
    const drawer = await openCreate();
    await userEvent.type(within(drawer).getByLabelText(/名称/), 'server');
    await userEvent.click(within(drawer).getByText('$10.00'));
    expect((within(drawer).getByLabelText(/剩余额度/) as HTMLInputElement).value).toBe('5000000');
    const expiry = within(drawer).getByLabelText(/过期时间/);
    await userEvent.clear(expiry);
    await userEvent.type(expiry, '2030-01-02 03:04:05');
    await userEvent.click(within(drawer).getByLabelText('无限额度'));
    expect((within(drawer).getByLabelText(/剩余额度/) as HTMLInputElement).disabled).toBe(true);
    await userEvent.type(within(drawer).getByLabelText('IP 白名单'), '10.0.0.1{enter}192.168.0.0/24');
    await save(drawer);
    await waitFor(() => expect(posted()).toHaveLength(1));
    expect(posted()[0]).toMatchObject({
      name: 'server',
      remain_quota: 5000000,
      unlimited_quota: true,
      expired_time: Math.floor(new Date(2030, 0, 2, 3, 4, 5).getTime() / 1000),
      allow_ips: '10.0.0.1\n192.168.0.0/24',
    });
  });

  it('requires a name and a valid expiry, and sends nothing until then', async () => {
    const drawer = await openCreate();
    const expiry = within(drawer).getByLabelText(/过期时间/);
    await userEvent.clear(expiry);
    await userEvent.type(expiry, 'next tuesday');
    await save(drawer);
    expect(await within(drawer).findByText('请输入令牌名称！')).toBeTruthy();
    expect(within(drawer).getByText('过期时间格式错误！')).toBeTruthy();
    await userEvent.type(within(drawer).getByLabelText(/名称/), 'x');
    await userEvent.clear(expiry);
    await userEvent.type(expiry, '2030-02-30 00:00:00');
    await save(drawer);
    expect(await within(drawer).findByText('过期时间格式错误！')).toBeTruthy();
    expect(posted()).toHaveLength(0);
  });

  it('fills the expiry from a shortcut', async () => {
    const drawer = await openCreate();
    const before = Math.floor(Date.now() / 1000);
    await userEvent.click(within(drawer).getByText('一天'));
    const value = (within(drawer).getByLabelText(/过期时间/) as HTMLInputElement).value;
    expect(value).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const seconds = parseExpiry(value) ?? 0;
    expect(seconds - before).toBeGreaterThanOrEqual(86400 - 1);
    expect(seconds - before).toBeLessThanOrEqual(86400 + 5);
    await userEvent.click(within(drawer).getByText('永不过期'));
    expect((within(drawer).getByLabelText(/过期时间/) as HTMLInputElement).value).toBe('-1');
  });

  it('creates a batch: one POST per token, the extra ones named with a 6-character suffix', async () => {
    const drawer = await openCreate();
    await userEvent.type(within(drawer).getByLabelText(/名称/), 'team');
    const count = within(drawer).getByLabelText(/新建数量/);
    await userEvent.clear(count);
    await userEvent.type(count, '3');
    await save(drawer);
    await waitFor(() => expect(posted()).toHaveLength(3));
    const names = posted().map((b) => b.name as string);
    expect(names[0]).toBe('team');
    expect(names[1]).toMatch(/^team-[A-Za-z0-9]{6}$/);
    expect(names[2]).toMatch(/^team-[A-Za-z0-9]{6}$/);
    expect(names[1]).not.toBe(names[2]);
    for (const body of posted()) expect(body).not.toHaveProperty('count');
    expect(await screen.findByText('成功创建 3 个令牌')).toBeTruthy();
  });

  it('refuses a count that is not a positive integer; the presets fill it', async () => {
    const drawer = await openCreate();
    await userEvent.type(within(drawer).getByLabelText(/名称/), 'team');
    const count = within(drawer).getByLabelText(/新建数量/);
    await userEvent.clear(count);
    await userEvent.type(count, '0');
    await save(drawer);
    expect(await within(drawer).findByText('新建数量必须是正整数')).toBeTruthy();
    await userEvent.click(within(drawer).getByText('20 个'));
    expect((count as HTMLInputElement).value).toBe('20');
    expect(posted()).toHaveLength(0);
  });

  it('stops a batch at the first refusal and shows the server message', async () => {
    server.use(refuse('post', '/api/token/', '令牌名称过长'));
    const drawer = await openCreate();
    await userEvent.type(within(drawer).getByLabelText(/名称/), 'team');
    const count = within(drawer).getByLabelText(/新建数量/);
    await userEvent.clear(count);
    await userEvent.type(count, '5');
    await save(drawer);
    expect(await screen.findByText('令牌名称过长')).toBeTruthy();
    expect(posted()).toHaveLength(1);
    expect(screen.getByRole('dialog', { name: '创建新的令牌' })).toBeTruthy();
  });
});

describe('edit-token drawer', () => {
  it('shows the stored values and saves them back with the id', async () => {
    renderAt('/token/edit/9');
    const drawer = await screen.findByRole('dialog', { name: '更新令牌信息' });
    await waitFor(() => expect((within(drawer).getByLabelText(/名称/) as HTMLInputElement).value).toBe('ci'), { timeout: 5000 });
    expect((within(drawer).getByLabelText(/过期时间/) as HTMLInputElement).value).toBe('2031-06-07 08:09:10');
    expect(await within(drawer).findByText('gpt-4o')).toBeTruthy();
    expect(within(drawer).getByText('claude-3')).toBeTruthy();
    const name = within(drawer).getByLabelText(/名称/);
    await userEvent.clear(name);
    await userEvent.type(name, 'ci-2');
    await save(drawer);
    await waitFor(() => expect(callsTo('PUT', '/api/token/')).toHaveLength(1));
    expect(callsTo('PUT', '/api/token/')[0]?.query).toEqual({});
    expect(callsTo('PUT', '/api/token/')[0]?.body).toEqual({
      id: 9,
      name: 'ci-2',
      remain_quota: 1500000,
      expired_time: existing.expired_time,
      unlimited_quota: false,
      model_limits_enabled: true,
      model_limits: 'gpt-4o,claude-3',
      allow_ips: '10.0.0.1',
      group: 'vip',
      tpm_limit: 5000,
      max_concurrency: 2,
      rpm_limit: 60,
      rpd_limit: 0,
      log_bodies: false,
    });
    expect(await screen.findByText('令牌更新成功！')).toBeTruthy();
  });
});

describe('edit-token drawer, unlimited token', () => {
  it('keeps the stored quota of an unlimited token while its input is off', async () => {
    server.use(api('get', '/api/token/:id', { ...existing, unlimited_quota: true, remain_quota: 777 }));
    renderAt('/token/edit/9');
    const drawer = await screen.findByRole('dialog', { name: '更新令牌信息' });
    await waitFor(() => expect((within(drawer).getByLabelText(/名称/) as HTMLInputElement).value).toBe('ci'), { timeout: 5000 });
    expect((within(drawer).getByLabelText(/剩余额度/) as HTMLInputElement).disabled).toBe(true);
    await userEvent.type(within(drawer).getByLabelText(/名称/), '-x');
    await save(drawer);
    await waitFor(() => expect(callsTo('PUT', '/api/token/')).toHaveLength(1));
    expect(callsTo('PUT', '/api/token/')[0]?.body).toMatchObject({
      id: 9,
      name: 'ci-x',
      unlimited_quota: true,
      remain_quota: 777,
    });
  });
});

describe('token form helpers', () => {
  it('parses -1, the date-time format, and rejects anything else', () => {
    expect(parseExpiry('-1')).toBe(-1);
    expect(parseExpiry(-1)).toBe(-1);
    expect(parseExpiry(1900000000)).toBe(1900000000);
    expect(parseExpiry('2030-01-02 03:04:05')).toBe(Math.floor(new Date(2030, 0, 2, 3, 4, 5).getTime() / 1000));
    expect(parseExpiry('2030-01-02 03:04')).toBe(Math.floor(new Date(2030, 0, 2, 3, 4, 0).getTime() / 1000));
    for (const bad of ['', 'tomorrow', '2030-13-01 00:00:00', '2030-02-30 00:00:00', '2030-01-01', '-2', 1.5, null]) {
      expect(parseExpiry(bad), String(bad)).toBeNull();
    }
  });

  it('counts shortcuts from now and names batches', () => {
    const now = new Date(2030, 0, 1, 0, 0, 0).getTime();
    expect(expiryFromNow(3600, now)).toBe('2030-01-01 01:00:00');
    expect(expiryFromNow(30 * 86400, now)).toBe('2030-01-31 00:00:00');
    expect(expiryFromNow(null, now)).toBe('-1');
    let n = 0;
    expect(batchNames('k', 3, () => `s${++n}`)).toEqual(['k', 'k-s1', 'k-s2']);
  });

  it('builds the body from form values', () => {
    expect(toTokenBody({ name: ' a ', remain_quota: '42', expired_time: '-1', group: null, allow_ips: null })).toEqual({
      name: 'a',
      remain_quota: 42,
      expired_time: -1,
      unlimited_quota: false,
      model_limits_enabled: false,
      model_limits: '',
      allow_ips: '',
      group: '',
      tpm_limit: 0,
      max_concurrency: 0,
      rpm_limit: 0,
      rpd_limit: 0,
      log_bodies: false,
    });
  });
});
