import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { setupServer } from 'msw/node';
import type { TokenView } from '../../server/tokens/schemas';
import ChatPage from '../../src/customPages/chat/ChatPage';
import {
  buildChatLink,
  chatChoices,
  ChatLinkError,
  chatLinkTemplate,
  chatTemplateAt,
  parseChats,
  serverAddress,
} from '../../src/customPages/chat/chatLink';
import { ok, received, renderPage, sentTo, siteStatus } from './pages-harness';

/** The key as the server reveals it (without `sk-`), and as chat links carry it. */
const STORED = 'k'.repeat(48);
const KEY = `sk-${STORED}`;

function token(id: number, status: number): TokenView {
  return {
    id,
    user_id: 7,
    name: `t${id}`,
    key: 'kkkk**********kkkk',
    status,
    created_time: 0,
    accessed_time: 0,
    expired_time: -1,
    remain_quota: 0,
    used_quota: 0,
    unlimited_quota: true,
    model_limits_enabled: false,
    model_limits: '',
    allow_ips: '',
    tpm_limit: 0,
    max_concurrency: 0,
    rpm_limit: 0,
    rpd_limit: 0,
    group: '',
    log_bodies: false,
  };
}

function problemOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return error instanceof ChatLinkError ? error.problem : 'other';
  }
  return undefined;
}

describe('chat link builder', () => {
  it('puts the full key and the server address into the template', () => {
    expect(
      buildChatLink('https://chat.example.com/#/?settings={"key":"{key}","url":"{address}"}', KEY, 'https://gw.example.com'),
    ).toBe(`https://chat.example.com/#/?settings={"key":"${KEY}","url":"https://gw.example.com"}`);
    expect(buildChatLink('opencat://team/join?domain={address}&token={key}', 'sk-a', 'https://gw')).toBe(
      'opencat://team/join?domain=https://gw&token=sk-a',
    );
    expect(buildChatLink('https://c.example/?k={key}&again={key}', 'sk-a', '')).toBe('https://c.example/?k=sk-a&again=sk-a');
  });

  it('refuses templates that make no valid or a script link', () => {
    expect(problemOf(() => buildChatLink('not a url {key}', 'sk-a', 'x'))).toBe('bad_config');
    expect(problemOf(() => buildChatLink('javascript:alert("{key}")', 'sk-a', 'x'))).toBe('bad_config');
  });

  it('picks the template by index, and tells a bad index, bad entry, no config and unparseable data apart', () => {
    const chats = [{ ChatGPT: 'https://a.example/?k={key}' }, { Broken: 42 }];
    expect(chatTemplateAt(chats, 0)).toBe('https://a.example/?k={key}');
    expect(chatTemplateAt(JSON.stringify(chats), 0)).toBe('https://a.example/?k={key}');
    expect(problemOf(() => chatTemplateAt(chats, 5))).toBe('bad_config');
    expect(problemOf(() => chatTemplateAt(chats, -1))).toBe('bad_config');
    expect(problemOf(() => chatTemplateAt(chats, Number('abc')))).toBe('bad_config');
    expect(problemOf(() => chatTemplateAt(chats, 1))).toBe('bad_config');
    expect(problemOf(() => chatTemplateAt([], 0))).toBe('not_configured');
    expect(problemOf(() => chatTemplateAt(undefined, 0))).toBe('not_configured');
    expect(problemOf(() => chatTemplateAt('{not json', 0))).toBe('parse_failed');
    expect(problemOf(() => parseChats({ a: 1 }))).toBe('parse_failed');
  });

  it('uses chat_link for /chat2link, else the first chat', () => {
    expect(chatLinkTemplate({ chat_link: 'https://link/?{key}', chats: [{ A: 'https://a/' }] })).toBe('https://link/?{key}');
    expect(chatLinkTemplate({ chat_link: '', chats: [{ A: 'https://a/' }] })).toBe('https://a/');
    expect(problemOf(() => chatLinkTemplate({ chat_link: '', chats: [] }))).toBe('not_configured');
    expect(chatChoices({ chat_link: 'https://link/', chats: [] })).toEqual([{ name: '', template: 'https://link/' }]);
  });

  it('takes the configured server address, else the page origin, without a trailing slash', () => {
    expect(serverAddress({ server_address: 'https://gw.example.com/' }, 'http://localhost')).toBe('https://gw.example.com');
    expect(serverAddress({ server_address: '' }, 'http://localhost:3000')).toBe('http://localhost:3000');
  });
});

describe('chat page', () => {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  beforeEach(() => {
    localStorage.setItem('user', JSON.stringify({ id: 7, username: 'amy', role: 1 }));
  });
  afterEach(() => {
    server.resetHandlers();
    received.length = 0;
    vi.unstubAllGlobals();
  });
  afterAll(() => server.close());

  const chats = [{ One: 'https://one.example/?key={key}' }, { Two: 'https://two.example/?key={key}&url={address}' }];

  it('shows chat {id} in a frame with the first enabled token’s full key', async () => {
    server.use(
      ok('get', '/api/status', siteStatus({ chats, server_address: 'https://gw.example.com' })),
      ok('get', '/api/token/', { items: [token(3, 2), token(4, 1), token(5, 1)], total: 3, page: 1, page_size: 100 }),
      ok('post', '/api/token/4/key', { key: STORED }),
    );
    renderPage(<ChatPage />, '/chat/:id?', '/chat/1');
    const frame = await screen.findByTitle('聊天');
    expect(frame.getAttribute('src')).toBe(`https://two.example/?key=${KEY}&url=https://gw.example.com`);
    expect(screen.getByText(/正在跳转/)).toBeTruthy();
    expect(sentTo('GET', '/api/token/')[0]?.search).toBe('?p=1&size=100');
    expect(sentTo('POST', '/api/token/4/key')).toHaveLength(1);
  });

  it('says so and goes to /token after 1.5 s when no token is enabled', async () => {
    server.use(
      ok('get', '/api/status', siteStatus({ chats })),
      ok('get', '/api/token/', { items: [token(3, 2), token(6, 3)], total: 2, page: 1, page_size: 100 }),
    );
    renderPage(<ChatPage />, '/chat/:id?', '/chat/0');
    expect(await screen.findByText('没有可用的已启用令牌，请先创建或启用一个令牌')).toBeTruthy();
    expect(screen.queryByText('now at /token')).toBeNull();
    const shown = Date.now();
    expect(await screen.findByText('now at /token', {}, { timeout: 4000 })).toBeTruthy();
    expect(Date.now() - shown).toBeGreaterThanOrEqual(1000);
    expect(received.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('explains a bad index, a missing configuration and unparseable chat data', async () => {
    server.use(ok('get', '/api/status', siteStatus({ chats })));
    const first = renderPage(<ChatPage />, '/chat/:id?', '/chat/7');
    expect(await screen.findByText('聊天链接配置错误，请联系管理员')).toBeTruthy();
    first.unmount();

    server.use(ok('get', '/api/status', siteStatus({ chats: [] })));
    const second = renderPage(<ChatPage />, '/chat2link', '/chat2link');
    expect(await screen.findByText('请联系管理员配置聊天链接')).toBeTruthy();
    second.unmount();

    server.use(ok('get', '/api/status', { ...siteStatus(), chats: '{oops' }));
    renderPage(<ChatPage />, '/chat/:id?', '/chat/0');
    expect(await screen.findByText('聊天数据解析失败')).toBeTruthy();
    expect(sentTo('GET', '/api/token/')).toHaveLength(0);
  });

  it('/chat2link navigates to the chat_link built with the key', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, origin: 'http://console.local', assign });
    server.use(
      ok('get', '/api/status', siteStatus({ chat_link: 'https://link.example/?k={key}&a={address}', chats })),
      ok('get', '/api/token/', { items: [token(4, 1)], total: 1, page: 1, page_size: 100 }),
      ok('post', '/api/token/4/key', { key: STORED }),
    );
    renderPage(<ChatPage />, '/chat2link');
    await waitFor(() => expect(assign).toHaveBeenCalledWith(`https://link.example/?k=${KEY}&a=http://console.local`));
    expect(screen.getByText(/正在跳转/)).toBeTruthy();
  });

  it('sends a visitor who is not logged in to /login', async () => {
    localStorage.removeItem('user');
    renderPage(<ChatPage />, '/chat/:id?', '/chat/0');
    expect(await screen.findByText('now at /login')).toBeTruthy();
    expect(received).toHaveLength(0);
  });
});
