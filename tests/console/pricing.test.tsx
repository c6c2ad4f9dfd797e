/**
 * The pricing page (/pricing) against msw: prices per 1M tokens and per call from the ratios in
 * the chosen group, ratio colours, search and paging, for anonymous visitors and logged-in users;
 * each model's vendor (or "unknown"), description and tags, and the vendor filter.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import PricingPage from '../../src/customPages/pricing/PricingPage';
import {
  ALL_GROUPS,
  callPrice,
  filterItems,
  formatUsd,
  initialGroup,
  inputPrice,
  outputPrice,
  ratioColor,
  vendorsListed,
  type PricingAnswer,
  type PricingItem,
} from '../../src/customPages/pricing/pricing';
import { renderPage } from './pages-harness';

const tokenItem: PricingItem = {
  model_name: 'gpt-4o',
  quota_type: 0,
  model_ratio: 1.25,
  completion_ratio: 4,
  model_price: 0,
  enable_groups: ['default', 'vip'],
  description: 'Omni model for text and images',
  icon: '',
  tags: 'chat,vision',
  vendor_id: -1,
};
const callItem: PricingItem = {
  model_name: 'dall-e-3',
  quota_type: 1,
  model_ratio: 0,
  completion_ratio: 1,
  model_price: 0.04,
  enable_groups: ['vip'],
  description: '',
  icon: '',
  tags: '',
  vendor_id: -1,
};
const secondItem: PricingItem = {
  ...callItem,
  model_name: 'sora-2',
  quota_type: 2,
  model_price: 0.1,
  enable_groups: ['default'],
};
const acmeItem: PricingItem = {
  ...tokenItem,
  model_name: 'acme-large',
  description: 'The big one',
  tags: '长文本',
  vendor_id: 7,
  enable_groups: ['default'],
};
const pricey: PricingItem = { ...tokenItem, model_name: 'o1', model_ratio: 7.5, completion_ratio: 4, enable_groups: ['default'] };
const unset: PricingItem = {
  ...tokenItem,
  model_name: 'mystery',
  model_ratio: 0,
  completion_ratio: 1,
  enable_groups: ['default'],
  description: '',
  tags: '',
  vendor_id: 0,
};

const anonymousAnswer: PricingAnswer = {
  success: true,
  message: '',
  data: [callItem, tokenItem, pricey, unset, acmeItem, secondItem],
  vendors: [
    { id: 7, name: 'Acme', description: 'Makers of models', icon: 'https://acme.test/logo.png' },
    { id: -1, name: 'OpenAI', description: '', icon: 'OpenAI' },
    { id: -2, name: 'Anthropic', description: '', icon: 'Claude.Color' },
  ],
  group_ratio: { default: 1 },
  usable_group: { default: { desc: '默认分组', ratio: 1 } },
};
const vipAnswer: PricingAnswer = {
  ...anonymousAnswer,
  group_ratio: { default: 1, vip: 1.5, svip: 4 },
  usable_group: {
    default: { desc: '默认分组', ratio: 1 },
    vip: { desc: 'vip分组', ratio: 1.5 },
    svip: { desc: '用户分组', ratio: 4 },
  },
};

let answer: PricingAnswer = anonymousAnswer;
const sentUserHeaders: Array<string | null> = [];
const server = setupServer(
  http.get('/api/pricing', ({ request }) => {
    sentUserHeaders.push(request.headers.get('New-Api-User'));
    return HttpResponse.json(answer);
  }),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  answer = anonymousAnswer;
  sentUserHeaders.length = 0;
});
afterAll(() => server.close());

const rowOf = async (model: string) => (await screen.findByText(model)).closest('tr') as HTMLElement;

describe('pricing: pure functions', () => {
  it('prices per 1M tokens as ratio × 2 × group ratio, output × completion ratio, calls × group ratio', () => {
    expect(inputPrice(tokenItem, 1)).toBe(2.5);
    expect(outputPrice(tokenItem, 1)).toBe(10);
    expect(inputPrice(tokenItem, 1.5)).toBe(3.75);
    expect(outputPrice(tokenItem, 1.5)).toBe(15);
    expect(callPrice(callItem, 2)).toBe(0.08);
    expect(formatUsd(0.15)).toBe('$0.15');
    expect(formatUsd(0.0000753)).toBe('$0.000075');
    expect(formatUsd(0.1 + 0.2)).toBe('$0.3');
  });

  it('colours ratios red above 5, orange above 3, blue above 1, else green', () => {
    expect([5.01, 5, 3.01, 3, 1.01, 1, 0.5].map(ratioColor)).toEqual([
      'error',
      'warning',
      'warning',
      'info',
      'info',
      'success',
      'success',
    ]);
  });

  it('searches names, descriptions and tags (trimmed, any case) and filters by group and vendor; opens on the own group', () => {
    const items = [callItem, tokenItem, pricey, acmeItem, unset];
    expect(filterItems(items, ' GPT ', ALL_GROUPS).map((i) => i.model_name)).toEqual(['gpt-4o']);
    expect(filterItems(items, 'VISION', ALL_GROUPS).map((i) => i.model_name)).toEqual(['gpt-4o', 'o1']);
    expect(filterItems(items, '', ALL_GROUPS, 7).map((i) => i.model_name)).toEqual(['acme-large']);
    expect(filterItems(items, '', ALL_GROUPS, 0).map((i) => i.model_name)).toEqual(['mystery']);
    expect(filterItems(items, '', 'vip').map((i) => i.model_name)).toEqual(['dall-e-3', 'gpt-4o']);
    expect(vendorsListed(anonymousAnswer).map((v) => v.name)).toEqual(['Acme', 'OpenAI']);
    expect(initialGroup(vipAnswer, 'vip')).toBe('vip');
    expect(initialGroup(vipAnswer, 'gone')).toBe('default');
    expect(initialGroup({ usable_group: { x: { desc: 'x', ratio: 1 } } }, undefined)).toBe('x');
  });
});

describe('pricing page', () => {
  it('shows anonymous visitors the default group prices without sending a user id', async () => {
    renderPage(<PricingPage />, '/pricing');
    const row = await rowOf('gpt-4o');
    expect(within(row).getByText('按量计费')).toBeTruthy();
    expect(within(row).getByText('输入 $2.5 / 1M tokens')).toBeTruthy();
    expect(within(row).getByText('输出 $10 / 1M tokens')).toBeTruthy();
    expect(within(row).getByText('模型倍率 1.25')).toBeTruthy();
    const call = await rowOf('dall-e-3');
    expect(within(call).getByText('按次计费')).toBeTruthy();
    expect(within(call).getByText('$0.04 / 次')).toBeTruthy();
    expect(within(await rowOf('mystery')).getByText('未设置价格')).toBeTruthy();
    const video = await rowOf('sora-2');
    expect(within(video).getByText('按秒计费')).toBeTruthy();
    expect(within(video).getByText('$0.1 / 秒视频')).toBeTruthy();
    expect(screen.getByText(/未登录，价格按默认分组（倍率 1）显示/)).toBeTruthy();
    expect(sentUserHeaders).toEqual([null]);
  });

  it('colours the ratio labels', async () => {
    renderPage(<PricingPage />, '/pricing');
    const o1 = await rowOf('o1');
    expect(within(o1).getByText('模型倍率 7.5').closest('.MuiChip-root')?.className).toContain('MuiChip-colorError');
    expect(within(o1).getByText('补全倍率 4').closest('.MuiChip-root')?.className).toContain('MuiChip-colorWarning');
    const gpt = await rowOf('gpt-4o');
    expect(within(gpt).getByText('模型倍率 1.25').closest('.MuiChip-root')?.className).toContain('MuiChip-colorInfo');
  });

  it("prices a user's models in their own group and in a chosen group, which also filters", async () => {
    localStorage.setItem('user', JSON.stringify({ id: 7, role: 1, username: 'vic', group: 'vip' }));
    answer = vipAnswer;
    renderPage(<PricingPage />, '/pricing');
    const row = await rowOf('gpt-4o');
    expect(within(row).getByText('输入 $3.75 / 1M tokens')).toBeTruthy();
    expect(screen.getByText(/您的分组：vip（倍率 1.5）/)).toBeTruthy();
    expect(sentUserHeaders).toEqual(['7']);
    const svip = screen.getByRole('button', { name: '用户分组（svip）×4' });
    expect(svip.className).toContain('MuiChip-colorWarning');

    await userEvent.click(screen.getByRole('button', { name: '默认分组（default）×1' }));
    await waitFor(() => expect(screen.queryByText('dall-e-3')).toBeNull());
    expect(within(await rowOf('gpt-4o')).getByText('输入 $2.5 / 1M tokens')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'vip分组（vip）×1.5' }));
    expect(within(await rowOf('dall-e-3')).getByText('$0.06 / 次')).toBeTruthy();
    expect(screen.queryByText('o1')).toBeNull();
  });

  it('searches and pages by 10', async () => {
    answer = {
      ...anonymousAnswer,
      data: Array.from({ length: 23 }, (_, i) => ({ ...tokenItem, model_name: `model-${String(i).padStart(2, '0')}` })),
    };
    renderPage(<PricingPage />, '/pricing');
    expect(await screen.findByText('model-00')).toBeTruthy();
    expect(screen.getByText('model-09')).toBeTruthy();
    expect(screen.queryByText('model-10')).toBeNull();
    expect(screen.getByText('第 1-10 条，共 23 条')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: /next page/i }));
    expect(await screen.findByText('model-10')).toBeTruthy();
    expect(screen.queryByText('model-00')).toBeNull();

    await userEvent.type(screen.getByLabelText('搜索模型名称、描述或标签'), 'MODEL-2');
    await waitFor(() => expect(screen.getByText('第 1-3 条，共 3 条')).toBeTruthy());
    expect(screen.getByText('model-22')).toBeTruthy();
    expect(screen.queryByText('model-10')).toBeNull();
  });

  it("shows each model's vendor, description and tags, and filters by vendor", async () => {
    renderPage(<PricingPage />, '/pricing');
    const gpt = await rowOf('gpt-4o');
    expect(within(gpt).getByText('OpenAI')).toBeTruthy();
    expect(within(gpt).getByText('Omni model for text and images')).toBeTruthy();
    expect(within(gpt).getByText('vision')).toBeTruthy();
    const acme = await rowOf('acme-large');
    expect(within(acme).getByText('Acme')).toBeTruthy();
    // An http(s) icon is shown as an image; an icon name never becomes an address.
    expect(within(acme).getByRole('img', { name: 'Acme' }).getAttribute('src')).toBe('https://acme.test/logo.png');
    expect(within(gpt).queryByRole('img')).toBeNull();
    expect(within(await rowOf('mystery')).getByText('未知')).toBeTruthy();

    // Only vendors some model has are offered; "unknown" since one model has none.
    const vendors = screen.getByRole('group', { name: '供应商' });
    expect(within(vendors).queryByRole('button', { name: /Anthropic/ })).toBeNull();
    await userEvent.click(within(vendors).getByRole('button', { name: /Acme/ }));
    await waitFor(() => expect(screen.queryByText('gpt-4o')).toBeNull());
    expect(screen.getByText('acme-large')).toBeTruthy();
    await userEvent.click(within(vendors).getByRole('button', { name: '未知' }));
    await waitFor(() => expect(screen.queryByText('acme-large')).toBeNull());
    expect(screen.getByText('mystery')).toBeTruthy();
    await userEvent.click(within(vendors).getByRole('button', { name: '全部供应商' }));
    expect(await screen.findByText('gpt-4o')).toBeTruthy();

    // The search reads descriptions and tags too.
    await userEvent.type(screen.getByLabelText('搜索模型名称、描述或标签'), '长文本');
    await waitFor(() => expect(screen.queryByText('gpt-4o')).toBeNull());
    expect(screen.getByText('acme-large')).toBeTruthy();
  });

  it('shows the server message when the call fails', async () => {
    server.use(http.get('/api/pricing', () => HttpResponse.json({ success: false, message: '价格加载失败' })));
    renderPage(<PricingPage />, '/pricing');
    expect(await screen.findByText('价格加载失败')).toBeTruthy();
  });
});
