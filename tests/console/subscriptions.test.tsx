/**
 * Subscriptions in the console against msw: the admin's plans resource (/subscription_plan: the
 * rows unwrapped from the family's `{plan}`, a create drawer sending `{plan: {...}}` with exact
 * fields) and the wallet's subscriptions section (what the period has left, when it resets and
 * ends, and the billing preference saved by PUT).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setupServer } from 'msw/node';
import type { PlanView, SelfView } from '../../server/subscriptions/schemas';
import type { SelfUser } from '../../server/users/schemas';
import { ResourceList } from '../../src/resources/schema';
import planSchema from '../../src/resources/subscription_plan/schema';
import { SubscriptionsCard } from '../../src/customPages/topup/SubscriptionsCard';
import { UserSubscriptionsButton } from '../../src/resources/subscription_plan/UserSubscriptionsButton';
import { SpendCapButton } from '../../src/resources/subscription_plan/SpendCapButton';
import { RecordContextProvider } from 'react-admin';
import { formatTimestamp } from '../../src/resources/schema';
import { api, callsTo } from './harness';
import { renderList, setUpSelectableList } from './selectable-list-harness';
import { ok, received, renderPage, sentTo, siteStatus } from './pages-harness';

vi.setConfig({ testTimeout: 120_000 });
const SLOW = { timeout: 15_000 };

const plan = (id: number, title: string, fields: Partial<PlanView> = {}): PlanView => ({
  id,
  title,
  subtitle: '',
  price_amount: 20,
  currency: 'USD',
  duration_unit: 'month',
  duration_value: 1,
  custom_seconds: 0,
  enabled: true,
  sort_order: 0,
  stripe_price_id: '',
  creem_product_id: '',
  max_purchase_per_user: 0,
  total_amount: 5_000_000,
  upgrade_group: 'vip',
  quota_reset_period: 'daily',
  quota_reset_custom_seconds: 0,
  created_at: 1700000000,
  updated_at: 1700000000,
  ...fields,
});

describe('plans resource', () => {
  let plans: PlanView[] = [];
  const server = setupServer(
    api('get', '/api/subscription/admin/plans/', () => plans.map((p) => ({ plan: p }))),
    api('post', '/api/subscription/admin/plans/', (call) => {
      const created = plan(10, '', (call.body as { plan: Partial<PlanView> }).plan);
      plans.unshift(created);
      return created;
    }),
  );
  setUpSelectableList(server, {
    user: { id: 1, role: 10, username: 'admin' },
    reset: () => {
      plans = [plan(1, 'Pro'), plan(2, 'Old', { enabled: false, quota_reset_period: 'never' })];
    },
  });
  const renderPlans = (url = '/subscription_plan') => renderList(<ResourceList schema={planSchema} />, 'subscription_plan', url);

  it('lists the plans unwrapped, with their reset period and upgrade group', async () => {
    renderPlans();
    const row = (await screen.findByText('Pro', {}, SLOW)).closest('tr') as HTMLElement;
    expect(within(row).getByText('每天')).toBeTruthy();
    expect(within(row).getByText('vip')).toBeTruthy();
    const old = (await screen.findByText('Old', {}, SLOW)).closest('tr') as HTMLElement;
    expect(within(old).getByText('不重置')).toBeTruthy();
  });

  it('creates a plan with the family’s wrapped body', async () => {
    renderPlans('/subscription_plan/create');
    const drawer = await screen.findByRole('dialog', { name: '新建套餐' }, SLOW);
    await userEvent.type(await within(drawer).findByLabelText(/^标题/, {}, SLOW), 'Team');
    const price = within(drawer).getByLabelText(/^价格/);
    await userEvent.clear(price);
    await userEvent.type(price, '30');
    await userEvent.click(within(drawer).getByRole('button', { name: /保存/ }));
    await waitFor(() => expect(callsTo('POST', '/api/subscription/admin/plans/')).toHaveLength(1), SLOW);
    expect(callsTo('POST', '/api/subscription/admin/plans/')[0]?.body).toEqual({
      plan: {
        title: 'Team',
        subtitle: '',
        price_amount: 30,
        currency: 'USD',
        duration_unit: 'month',
        duration_value: 1,
        custom_seconds: 0,
        total_amount: 0,
        quota_reset_period: 'never',
        quota_reset_custom_seconds: 0,
        upgrade_group: '',
        max_purchase_per_user: 0,
        sort_order: 0,
        enabled: true,
      },
    });
  });
});

describe('wallet subscriptions', () => {
  const now = Math.floor(Date.now() / 1000);
  const self: SelfView = {
    billing_preference: 'subscription_first',
    subscriptions: [
      {
        subscription: {
          id: 7,
          user_id: 5,
          plan_id: 1,
          amount_total: 1_000_000,
          amount_used: 250_000,
          used_total: 900_000,
          start_time: now - 86400,
          end_time: now + 30 * 86400,
          status: 'active',
          source: 'order',
          quota_reset_period: 'daily',
          last_reset_time: now - 3600,
          next_reset_time: now + 3600,
          upgrade_group: 'vip',
          created_at: now - 86400,
          updated_at: now,
        },
        plan: plan(1, 'Pro'),
      },
    ],
    all_subscriptions: [],
  };
  const server = setupServer(
    ok('get', '/api/status', siteStatus()),
    ok('get', '/api/user/self', { id: 5, username: 'carol', role: 1, quota: 0, group: 'vip' } as SelfUser),
    ok('get', '/api/subscription/self', self),
    ok('put', '/api/subscription/self/preference', { billing_preference: 'wallet_first' }),
  );
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  beforeEach(() => localStorage.setItem('user', JSON.stringify({ id: 5, username: 'carol', role: 1 })));
  afterEach(() => {
    server.resetHandlers();
    received.length = 0;
  });
  afterAll(() => server.close());

  it('shows what the period has left, when it resets and ends, and saves the billing preference', async () => {
    renderPage(<SubscriptionsCard quotaPerUnit={500000} />, '/topup');
    const pro = await screen.findByLabelText('Pro', {}, SLOW);
    expect(within(pro).getByText(/本周期剩余: \$1\.50 \/ \$2\.00/)).toBeTruthy();
    expect(within(pro).getByText(new RegExp(formatTimestamp(now + 3600)))).toBeTruthy();
    expect(within(pro).getByText(new RegExp(formatTimestamp(now + 30 * 86400)))).toBeTruthy();
    await userEvent.click(screen.getByRole('combobox', { name: '扣费方式' }));
    await userEvent.click(await screen.findByRole('option', { name: '优先钱包，其次订阅' }));
    await waitFor(() =>
      expect(sentTo('PUT', '/api/subscription/self/preference').map((r) => r.body)).toEqual([
        { billing_preference: 'wallet_first' },
      ]),
    );
  });
});

describe('an admin on a user: subscriptions and spend cap', () => {
  const now = Math.floor(Date.now() / 1000);
  const sub = {
    id: 9,
    user_id: 5,
    plan_id: 1,
    amount_total: 1_000_000,
    amount_used: 0,
    used_total: 0,
    start_time: now,
    end_time: now + 86400,
    status: 'active',
    source: 'admin',
    quota_reset_period: 'never',
    last_reset_time: now,
    next_reset_time: null,
    upgrade_group: '',
    created_at: now,
    updated_at: now,
  };
  const server = setupServer(
    ok('get', '/api/status', siteStatus()),
    ok('get', '/api/user/self', { id: 1, username: 'root', role: 100, quota: 0, group: 'default' } as SelfUser),
    ok('get', '/api/subscription/admin/users/5/subscriptions', [{ subscription: sub, plan: plan(1, 'Pro') }]),
    ok('get', '/api/subscription/admin/plans', [{ plan: plan(1, 'Pro') }, { plan: plan(3, 'Team') }]),
    ok('post', '/api/subscription/admin/user_subscriptions/9/invalidate', null),
    ok('post', '/api/subscription/admin/users/5/subscriptions', { id: 10 }),
    ok('get', '/api/spend_cap/user/5', { period: 'weekly', limit: 300 }),
    ok('put', '/api/spend_cap/user/5', { period: 'monthly', limit: 300 }),
  );
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  beforeEach(() => localStorage.setItem('user', JSON.stringify({ id: 1, username: 'root', role: 100 })));
  afterEach(() => {
    server.resetHandlers();
    received.length = 0;
  });
  afterAll(() => server.close());

  it('lists, invalidates and binds a user’s subscriptions', async () => {
    renderPage(
      <RecordContextProvider value={{ id: 5 }}>
        <UserSubscriptionsButton />
      </RecordContextProvider>,
      '/user',
    );
    await userEvent.click(await screen.findByRole('button', { name: '该用户的订阅' }, SLOW));
    const dialog = await screen.findByRole('dialog', {}, SLOW);
    expect(await within(dialog).findByText('Pro', {}, SLOW)).toBeTruthy();
    expect(within(dialog).getByText('管理员')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: '作废' }));
    await waitFor(() => expect(sentTo('POST', '/api/subscription/admin/user_subscriptions/9/invalidate')).toHaveLength(1));
    await userEvent.click(within(dialog).getByRole('combobox', { name: '要绑定的套餐' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Team' }));
    await userEvent.click(within(dialog).getByRole('button', { name: '绑定套餐' }));
    await waitFor(() =>
      expect(sentTo('POST', '/api/subscription/admin/users/5/subscriptions').map((r) => r.body)).toEqual([{ plan_id: 3 }]),
    );
  });

  it('reads and saves a user’s spend cap', async () => {
    renderPage(
      <RecordContextProvider value={{ id: 5 }}>
        <SpendCapButton subject="user" />
      </RecordContextProvider>,
      '/user',
    );
    await userEvent.click(await screen.findByRole('button', { name: '消费上限' }, SLOW));
    const dialog = await screen.findByRole('dialog', {}, SLOW);
    await waitFor(() => expect((within(dialog).getByLabelText(/上限/) as HTMLInputElement).value).toBe('300'));
    await userEvent.click(within(dialog).getByRole('combobox', { name: '周期' }));
    await userEvent.click(await screen.findByRole('option', { name: '每月' }));
    await userEvent.click(within(dialog).getByRole('button', { name: '保存上限' }));
    await waitFor(() =>
      expect(sentTo('PUT', '/api/spend_cap/user/5').map((r) => r.body)).toEqual([{ period: 'monthly', limit: 300 }]),
    );
  });
});
