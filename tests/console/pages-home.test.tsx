import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setupServer } from 'msw/node';
import HomePage from '../../src/customPages/home/HomePage';
import AboutPage from '../../src/customPages/home/AboutPage';
import NotFoundPage from '../../src/customPages/home/NotFoundPage';
import { ok, received, renderPage, siteStatus } from './pages-harness';

const HOSTILE = [
  '# Welcome aboard',
  '',
  'Some **bold** words.',
  '',
  '<img src=x onerror=alert(1)>',
  '<script>window.hacked = true</script>',
  '<a href="javascript:alert(3)">click</a>',
].join('\n');

const server = setupServer(
  ok('get', '/api/status', siteStatus({ system_name: 'Acme Relay', version: 'v9.8.7' })),
  ok('get', '/api/notice', ''),
  ok('get', '/api/home_page_content', HOSTILE),
  ok('get', '/api/about', ''),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  received.length = 0;
});
afterAll(() => server.close());

describe('home page', () => {
  it('renders the markdown and strips script, event handlers and javascript: links', async () => {
    const { container } = renderPage(<HomePage />, '/');
    expect(await screen.findByRole('heading', { name: 'Welcome aboard' })).toBeTruthy();
    expect(screen.getByText('bold').tagName).toBe('STRONG');
    expect(container.querySelector('img')).not.toBeNull();
    expect(container.querySelector('[onerror]')).toBeNull();
    expect(container.querySelector('script')).toBeNull();
    expect(container.innerHTML).not.toContain('javascript:');
    expect((window as { hacked?: boolean }).hacked).toBeUndefined();
  });

  it('shows an https:// address in an iframe', async () => {
    server.use(ok('get', '/api/home_page_content', 'https://example.com/landing'));
    renderPage(<HomePage />, '/');
    const frame = (await screen.findByTitle('首页')) as HTMLIFrameElement;
    expect(frame.tagName).toBe('IFRAME');
    expect(frame.getAttribute('src')).toBe('https://example.com/landing');
  });

  it('welcomes with the system name and version when there is no content', async () => {
    server.use(ok('get', '/api/home_page_content', ''));
    renderPage(<HomePage />, '/');
    expect(await screen.findByRole('heading', { name: '欢迎使用 Acme Relay' })).toBeTruthy();
    expect(await screen.findByText('版本 v9.8.7')).toBeTruthy();
  });

  it('shows the notice, sanitised, until it is closed', async () => {
    server.use(ok('get', '/api/notice', 'Maintenance **tonight** <img src=x onerror=alert(1)>'));
    const { container } = renderPage(<HomePage />, '/');
    expect(await screen.findByText('tonight')).toBeTruthy();
    expect(container.querySelector('[onerror]')).toBeNull();
    await userEvent.click(screen.getByTitle('关闭'));
    expect(screen.queryByText('tonight')).toBeNull();
  });
});

describe('about page', () => {
  it('falls back to a default text', async () => {
    renderPage(<AboutPage />, '/about');
    expect(await screen.findByText(/管理员尚未设置关于页面的内容/)).toBeTruthy();
  });

  it('sanitises HTML content', async () => {
    server.use(ok('get', '/api/about', '<h2>Our team</h2><script>window.hacked = true</script><img src=x onerror=alert(1)>'));
    const { container } = renderPage(<AboutPage />, '/about');
    expect(await screen.findByRole('heading', { name: 'Our team' })).toBeTruthy();
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('[onerror]')).toBeNull();
  });
});

describe('not found page', () => {
  it('says the page does not exist', async () => {
    renderPage(<NotFoundPage />, '*', '/no/such/page');
    expect(await screen.findByText('页面不存在')).toBeTruthy();
    expect(screen.getByText('请检查你的浏览器地址是否正确')).toBeTruthy();
  });
});
