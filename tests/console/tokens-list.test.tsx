import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setupServer } from 'msw/node';
import type { TokenView } from '../../server/tokens/schemas';
import { ResourceList } from '../../src/resources/schema';
import tokenSchema from '../../src/resources/token/schema';
import { api, calls, callsTo, refuse, rowOf } from './harness';
import { renderList, setUpSelectableList } from './selectable-list-harness';

const base: TokenView = {
  id: 0,
  user_id: 7,
  name: '',
  key: '',
  status: 1,
  created_time: 1700000000,
  accessed_time: 0,
  expired_time: -1,
  remain_quota: 500000,
  used_quota: 0,
  unlimited_quota: false,
  model_limits_enabled: false,
  model_limits: '',
  allow_ips: '',
  tpm_limit: 0,
  max_concurrency: 0,
  rpm_limit: 0,
  rpd_limit: 0,
  log_bodies: false,
  group: '',
};

const seed = (): TokenView[] => [
  { ...base, id: 1, name: 'main', key: 'AbCd**********WxYz', remain_quota: 1000000, used_quota: 250000 },
  { ...base, id: 2, name: 'limited', key: 'EfGh**********StUv', model_limits_enabled: true, model_limits: 'gpt-4o' },
  { ...base, id: 3, name: 'paused', key: 'IjKl**********OpQr', status: 2, unlimited_quota: true },
  { ...base, id: 4, name: 'old', key: 'MnOp**********KlMn', status: 3, expired_time: 1700003600 },
  { ...base, id: 5, name: 'empty', key: 'QrSt**********GhIj', status: 4, remain_quota: 0 },
];
let tokens = seed();

/** What the server answers (the key as stored, without `sk-`) and what the person copies. */
const storedKey = (id: string | number) => `full${id}${'x'.repeat(40)}`;
const fullKey = (id: string | number) => `sk-${storedKey(id)}`;
const page = (items: TokenView[]) => ({ items, total: items.length, page: 1, page_size: 10 });

const server = setupServer(
  api('get', '/api/token/search', (call) =>
    page(
      tokens.filter(
        (t) =>
          t.name.includes(call.query.keyword ?? '') &&
          (!call.query.token || t.key.slice(0, 4) === call.query.token.replace(/^sk-/, '').slice(0, 4)),
      ),
    ),
  ),
  api('get', '/api/token/', () => page(tokens)),
  api('post', '/api/token/keys', (call) => (call.body as { ids: number[] }).ids.map((id) => ({ id, key: storedKey(id) }))),
  api('post', '/api/token/:id/key', (call) => ({ key: storedKey(call.path.split('/')[3] ?? '') })),
  api('put', '/api/token/', (call) => {
    const { id, status } = call.body as { id: number; status: number };
    const token = tokens.find((t) => t.id === id);
    if (token && call.query.status_only === 'true') token.status = status;
    return token ?? null;
  }),
  api('delete', '/api/token/:id/', () => null),
);

const writeText = setUpSelectableList(server, { user: { id: 7, role: 1, username: 'amy' }, reset: () => (tokens = seed()) });
const renderTokens = (url = '/token') => renderList(<ResourceList schema={tokenSchema} />, 'token', url);

describe('tokens list', () => {
  it('shows the warning, masked keys with sk-, quotas, expiry and status labels', async () => {
    renderTokens();
    expect(screen.getByText(/令牌仅供本人使用/)).toBeTruthy();
    const main = await rowOf('main');
    expect(within(main).getByText('sk-AbCd**********WxYz')).toBeTruthy();
    expect(within(main).getByText('已启用')).toBeTruthy();
    expect(within(main).getByText('$2.00')).toBeTruthy();
    expect(within(main).getByText('$0.50')).toBeTruthy();
    expect(within(main).getByText('永不过期')).toBeTruthy();
    expect(within(await rowOf('limited')).getByText('已启用（模型限制）')).toBeTruthy();
    const paused = await rowOf('paused');
    expect(within(paused).getByText('已禁用')).toBeTruthy();
    expect(within(paused).getByText('无限制')).toBeTruthy();
    const old = await rowOf('old');
    expect(within(old).getByText('已过期')).toBeTruthy();
    expect(within(old).queryByText('永不过期')).toBeNull();
    expect(within(await rowOf('empty')).getByText('已耗尽')).toBeTruthy();
    expect(callsTo('GET', '/api/token/')[0]?.query).toEqual({ p: '1', size: '10' });
  });

  it('greys every token that is not enabled', async () => {
    renderTokens();
    expect(getComputedStyle(await rowOf('main')).opacity).not.toBe('0.5');
    expect(getComputedStyle(await rowOf('limited')).opacity).not.toBe('0.5');
    for (const name of ['paused', 'old', 'empty']) expect(getComputedStyle(await rowOf(name)).opacity).toBe('0.5');
  });

  it('searches by name keyword and by key through /api/token/search', async () => {
    renderTokens();
    await rowOf('main');
    await userEvent.type(screen.getByLabelText('搜索令牌名称'), 'mai');
    await waitFor(() =>
      expect(callsTo('GET', '/api/token/search').at(-1)?.query).toMatchObject({ keyword: 'mai', p: '1', size: '10' }),
    );
    await waitFor(() => expect(screen.queryByText('paused')).toBeNull());
    await userEvent.clear(screen.getByLabelText('搜索令牌名称'));
    await userEvent.type(screen.getByLabelText('搜索令牌（完整 key）'), 'sk-IjKl');
    await waitFor(() => expect(callsTo('GET', '/api/token/search').at(-1)?.query).toMatchObject({ token: 'sk-IjKl' }));
    await waitFor(() => expect(screen.queryByText('main')).toBeNull());
    expect(screen.getByText('paused')).toBeTruthy();
  });

  it('disables and enables a token with status_only', async () => {
    renderTokens();
    const main = await rowOf('main');
    await userEvent.click(within(main).getByRole('button', { name: '禁用' }));
    await waitFor(() => expect(within(main).getByText('已禁用')).toBeTruthy());
    const puts = callsTo('PUT', '/api/token/');
    expect(puts.map((c) => [c.query, c.body])).toEqual([[{ status_only: 'true' }, { id: 1, status: 2 }]]);
    expect(await screen.findByText('操作成功完成！')).toBeTruthy();
    await userEvent.click(within(main).getByRole('button', { name: '启用' }));
    await waitFor(() => expect(callsTo('PUT', '/api/token/').at(-1)?.body).toEqual({ id: 1, status: 1 }));
  });

  it('shows why the server refuses to enable an expired token', async () => {
    const message = '令牌已过期，无法启用，请先修改令牌过期时间，或者设置为永不过期';
    server.use(refuse('put', '/api/token/', message));
    renderTokens();
    await userEvent.click(within(await rowOf('old')).getByRole('button', { name: '启用' }));
    expect(await screen.findByText(message)).toBeTruthy();
    expect(within(await rowOf('old')).getByText('已过期')).toBeTruthy();
  });

  it('copies a row’s full key through the reveal endpoint', async () => {
    renderTokens();
    await userEvent.click(within(await rowOf('limited')).getByRole('button', { name: '复制' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(fullKey(2)));
    expect(callsTo('POST', '/api/token/2/key')).toHaveLength(1);
    expect(await screen.findByText('已复制')).toBeTruthy();
  });

  it('shows the key in a dialog when the clipboard refuses', async () => {
    writeText.mockImplementation(() => Promise.reject(new Error('denied')));
    renderTokens();
    await userEvent.click(within(await rowOf('main')).getByRole('button', { name: '复制' }));
    const dialog = await screen.findByRole('dialog', { name: '无法复制到剪贴板，请手动复制' });
    expect(dialog.querySelector('textarea')?.value).toBe(fullKey(1));
  });

  it('asks for a selection before copying selected tokens', async () => {
    renderTokens();
    await rowOf('main');
    await userEvent.click(screen.getByRole('button', { name: '复制所选令牌' }));
    expect(await screen.findByText('请至少选择一个令牌！')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    expect(writeText).not.toHaveBeenCalled();
  });

  it('copies the selected tokens’ full keys, one a line, in one reveal call', async () => {
    renderTokens();
    await userEvent.click(within(await rowOf('main')).getByRole('checkbox'));
    await userEvent.click(within(await rowOf('paused')).getByRole('checkbox'));
    await userEvent.click(screen.getByRole('button', { name: '复制所选令牌' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(`${fullKey(1)}\n${fullKey(3)}`));
    const posts = calls.filter((c) => c.method === 'POST');
    expect(posts.map((c) => c.path)).toEqual(['/api/token/keys']);
    expect(posts[0]!.body).toEqual({ ids: [1, 3] });
  });

  it('asks before deleting, then sends DELETE /api/token/{id}/', async () => {
    renderTokens();
    await userEvent.click(within(await rowOf('paused')).getByRole('button', { name: '删除' }));
    expect(await screen.findByText('确定要删除令牌 paused 吗？')).toBeTruthy();
    expect(callsTo('DELETE', '/api/token/3/')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: /确认/ }));
    await waitFor(() => expect(callsTo('DELETE', '/api/token/3/')).toHaveLength(1));
    expect(await screen.findByText('令牌已删除')).toBeTruthy();
  });

  it('opens the chat client with this row’s full key in a new tab', async () => {
    localStorage.setItem(
      'status',
      JSON.stringify({
        chats: [{ Web: 'https://chat.example/?k={key}&a={address}' }],
        chat_link: '',
        server_address: 'https://gw',
      }),
    );
    const tab = { opener: {} as unknown, location: { href: '' }, close: vi.fn() };
    const open = vi.fn(() => tab);
    vi.stubGlobal('open', open);
    renderTokens();
    await userEvent.click(within(await rowOf('paused')).getByRole('button', { name: '聊天' }));
    await waitFor(() => expect(tab.location.href).toBe(`https://chat.example/?k=${fullKey(3)}&a=https://gw`));
    expect(tab.opener).toBeNull();
    expect(callsTo('POST', '/api/token/3/key')).toHaveLength(1);
  });

  it('says so when no chat link is configured', async () => {
    localStorage.setItem('status', JSON.stringify({ chats: [], chat_link: '', server_address: '' }));
    renderTokens();
    await userEvent.click(within(await rowOf('main')).getByRole('button', { name: '聊天' }));
    expect(await screen.findByText('请联系管理员配置聊天链接')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('remembers the chosen page size and sends it as size', async () => {
    localStorage.setItem('page-size', '50');
    renderTokens();
    await rowOf('main');
    expect(callsTo('GET', '/api/token/')[0]?.query.size).toBe('50');
  });
});
