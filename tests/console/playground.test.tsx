/**
 * The playground (/playground) against msw: a streamed answer going loading → incomplete →
 * complete, the request it sends, stop, errors and the expired-session message; the SSE reading
 * as plain functions; the saved chats under Playground in the sidebar.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { render, screen, waitFor, within, fireEvent } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { AdminContext, memoryStore, testDataProvider } from 'react-admin';
import { MemoryRouter } from 'react-router-dom';
import PlaygroundPage from '../../src/customPages/playground/PlaygroundPage';
import { chatBody, deltaOf, sseReader, ChatError } from '../../src/customPages/playground/stream';
import { appendDelta, conversation, type Message } from '../../src/customPages/playground/messages';
import type { PricingAnswer } from '../../src/customPages/pricing/pricing';
import { Sidebar } from '../../src/layout/Sidebar';
import { i18nProvider } from '../../src/i18n';
import { authProvider } from '../../src/authProvider';
import { renderPage } from './pages-harness';

const noMetadata = { description: '', icon: '', tags: '', vendor_id: 0 };
const pricing: PricingAnswer = {
  success: true,
  message: '',
  data: [
    {
      model_name: 'gpt-4o-mini',
      quota_type: 0,
      model_ratio: 0.075,
      completion_ratio: 4,
      model_price: 0,
      enable_groups: ['default', 'vip'],
      ...noMetadata,
    },
    {
      model_name: 'vip-only',
      quota_type: 0,
      model_ratio: 1,
      completion_ratio: 1,
      model_price: 0,
      enable_groups: ['vip'],
      ...noMetadata,
    },
  ],
  vendors: [],
  group_ratio: { default: 1, vip: 1.5 },
  usable_group: { default: { desc: '默认分组', ratio: 1 }, vip: { desc: 'vip分组', ratio: 1.5 } },
};

const encoder = new TextEncoder();
const chunk = (content: string) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content } }] })}\n\n`;

/** A stream the test feeds by hand. */
function controlledStream() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  return {
    stream,
    send: (text: string) => controller.enqueue(encoder.encode(text)),
    close: () => controller.close(),
  };
}

interface Sent {
  body: Record<string, any>;
  userHeader: string | null;
  signal: AbortSignal;
}
const sent: Sent[] = [];
let answer: (sent: Sent) => Response;

const server = setupServer(
  http.get('/api/pricing', () => HttpResponse.json(pricing)),
  http.post('/pg/chat/completions', async ({ request }) => {
    const entry = {
      body: (await request.json()) as Record<string, any>,
      userHeader: request.headers.get('New-Api-User'),
      signal: request.signal,
    };
    sent.push(entry);
    return answer(entry);
  }),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  localStorage.setItem('user', JSON.stringify({ id: 3, role: 1, username: 'vic', group: 'vip' }));
  answer = () =>
    new HttpResponse(chunk('Hel') + chunk('lo!') + 'data: [DONE]\n\n', { headers: { 'content-type': 'text/event-stream' } });
});
afterEach(() => {
  server.resetHandlers();
  sent.length = 0;
});
afterAll(() => server.close());

const answers = () => screen.queryAllByTestId('message-assistant');
const lastAnswer = () => answers().at(-1) as HTMLElement;

async function ask(text: string) {
  const input = screen.getByLabelText('消息');
  await userEvent.type(input, text);
  await userEvent.click(screen.getByRole('button', { name: '发送' }));
}

async function openPage(url = '/playground') {
  renderPage(<PlaygroundPage />, '/playground', url);
  // The groups arrive from /api/pricing; the own group is chosen.
  await waitFor(() => expect(screen.getByRole('combobox', { name: '分组' }).textContent).toContain('vip分组'));
}

describe('playground: stream reading', () => {
  it('keeps a line cut between chunks until its end arrives', () => {
    const sse = sseReader();
    const full = chunk('a') + chunk('b') + 'data: [DONE]\n\n';
    const pieces = [full.slice(0, 10), full.slice(10, 50), full.slice(50)];
    const items = pieces.flatMap((p) => sse.push(p)).concat(sse.end());
    expect(items.map((d) => (d === '[DONE]' ? d : deltaOf(d)))).toEqual(['a', 'b', '[DONE]']);
    expect(sseReader().end()).toEqual([]);
  });

  it('reads an error chunk as a failure and ignores chunks without text', () => {
    expect(() => deltaOf(JSON.stringify({ error: { message: 'upstream broke' } }))).toThrow(new ChatError('upstream broke'));
    expect(deltaOf(JSON.stringify({ choices: [], usage: { total_tokens: 3 } }))).toBe('');
    expect(deltaOf('not json')).toBe('');
  });

  it('sends max_tokens only when set; the history is the finished messages after the system prompt', () => {
    const base = { model: 'm', group: 'vip', messages: [], temperature: 0, max_tokens: 0 };
    expect(chatBody(base)).toEqual({ model: 'm', group: 'vip', messages: [], stream: true, temperature: 0 });
    expect(chatBody({ ...base, max_tokens: 50 })).toMatchObject({ max_tokens: 50 });
    const messages: Message[] = [
      { id: 1, role: 'user', content: 'hi', status: 'complete' },
      { id: 2, role: 'assistant', content: '', status: 'error', error: 'x' },
      { id: 3, role: 'user', content: 'again', status: 'complete' },
      { id: 4, role: 'assistant', content: '', status: 'loading' },
    ];
    expect(conversation(messages, 'Be brief.')).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'hi' },
      { role: 'user', content: 'again' },
    ]);
    expect(conversation(messages, '  ')).toHaveLength(2);
    expect(appendDelta(messages, 4, 'ok').at(-1)).toMatchObject({ content: 'ok', status: 'incomplete' });
  });
});

describe('playground page', () => {
  it('starts from the spec defaults and streams an answer: loading, incomplete, then complete', async () => {
    const feed = controlledStream();
    answer = () => new HttpResponse(feed.stream, { headers: { 'content-type': 'text/event-stream' } });
    await openPage();
    expect((screen.getByRole('combobox', { name: '模型' }) as HTMLInputElement).value).toBe('gpt-4o-mini');
    expect((screen.getByLabelText('最大 Token 数') as HTMLInputElement).value).toBe('0');
    expect((screen.getByLabelText('系统提示词') as HTMLTextAreaElement).value).toBe('You are a helpful assistant.');
    expect(screen.getByText('温度：0')).toBeTruthy();
    const slider = screen.getByRole('slider');
    expect([slider.getAttribute('min'), slider.getAttribute('max'), slider.getAttribute('step')]).toEqual(['0.1', '1', '0.1']);

    await ask('Hi there');
    await waitFor(() => expect(lastAnswer().dataset.status).toBe('loading'));
    expect(within(lastAnswer()).getByText('正在思考…')).toBeTruthy();
    expect(screen.getByRole('button', { name: '停止' })).toBeTruthy();

    feed.send(chunk('Hel'));
    await waitFor(() => expect(lastAnswer().dataset.status).toBe('incomplete'));
    expect(within(lastAnswer()).getByText('Hel')).toBeTruthy();
    feed.send(chunk('lo!').slice(0, 12));
    feed.send(chunk('lo!').slice(12) + 'data: [DONE]\n\n');
    await waitFor(() => expect(lastAnswer().dataset.status).toBe('complete'));
    expect(within(lastAnswer()).getByText('Hello!')).toBeTruthy();
    expect(screen.getByRole('button', { name: '发送' })).toBeTruthy();
    feed.close();

    expect(sent).toHaveLength(1);
    expect(sent[0]?.userHeader).toBe('3');
    expect(sent[0]?.body).toEqual({
      model: 'gpt-4o-mini',
      group: 'vip',
      messages: [
        { role: 'system', content: 'You are a helpful assistant.' },
        { role: 'user', content: 'Hi there' },
      ],
      stream: true,
      temperature: 0,
    });
  });

  it('sends the chosen settings and the conversation so far', async () => {
    await openPage();
    await ask('first');
    await waitFor(() => expect(lastAnswer().dataset.status).toBe('complete'));

    await userEvent.click(screen.getByRole('combobox', { name: '分组' }));
    await userEvent.click(await screen.findByRole('option', { name: '默认分组（default）×1' }));
    const maxTokens = screen.getByLabelText('最大 Token 数');
    await userEvent.clear(maxTokens);
    await userEvent.type(maxTokens, '256');
    await userEvent.clear(screen.getByLabelText('系统提示词'));
    fireEvent.keyDown(screen.getByRole('slider'), { key: 'End' });
    await userEvent.type(screen.getByLabelText('消息'), 'second{Enter}');

    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]?.body).toEqual({
      model: 'gpt-4o-mini',
      group: 'default',
      messages: [
        { role: 'user', content: 'first' },
        { role: 'assistant', content: 'Hello!' },
        { role: 'user', content: 'second' },
      ],
      stream: true,
      temperature: 1,
      max_tokens: 256,
    });
    await waitFor(() => expect(answers()).toHaveLength(2));
  });

  it('stops a running answer, keeping what arrived', async () => {
    const feed = controlledStream();
    answer = () => new HttpResponse(feed.stream, { headers: { 'content-type': 'text/event-stream' } });
    await openPage();
    await ask('tell me a long story');
    feed.send(chunk('Once upon'));
    await waitFor(() => expect(lastAnswer().dataset.status).toBe('incomplete'));
    await userEvent.click(screen.getByRole('button', { name: '停止' }));
    await waitFor(() => expect(lastAnswer().dataset.status).toBe('complete'));
    expect(within(lastAnswer()).getByText('Once upon')).toBeTruthy();
    expect(within(lastAnswer()).getByText('已停止生成')).toBeTruthy();
    expect(sent[0]?.signal.aborted).toBe(true);
    expect(screen.getByRole('button', { name: '发送' })).toBeTruthy();
  });

  it('shows the expired-session message on a 401, and from ?expired=true', async () => {
    answer = () => HttpResponse.json({ error: { message: 'unauthorized', type: 'new_api_error' } }, { status: 401 });
    await openPage();
    expect(screen.queryByText('未登录或登录已过期，请重新登录！')).toBeNull();
    await ask('hello?');
    await waitFor(() => expect(lastAnswer().dataset.status).toBe('error'));
    expect(within(lastAnswer()).getByText('未登录或登录已过期，请重新登录！')).toBeTruthy();
    // The page's own alert shows too (the address gets ?expired=true).
    await waitFor(() => expect(screen.getAllByText('未登录或登录已过期，请重新登录！')).toHaveLength(2));
    expect(screen.getByRole('link', { name: '重新登录' }).getAttribute('href')).toBe('/login?expired=true');
  });

  it('shows the alert when opened with ?expired=true', async () => {
    await openPage('/playground?expired=true');
    expect(screen.getByText('未登录或登录已过期，请重新登录！')).toBeTruthy();
  });

  it("shows the gateway's error message and marks the answer as failed", async () => {
    answer = () =>
      HttpResponse.json(
        { error: { message: '当前分组 vip 下对于模型 gpt-4o-mini 无可用渠道', type: 'new_api_error' } },
        { status: 503 },
      );
    await openPage();
    await ask('anyone?');
    await waitFor(() => expect(lastAnswer().dataset.status).toBe('error'));
    expect(within(lastAnswer()).getByText('当前分组 vip 下对于模型 gpt-4o-mini 无可用渠道')).toBeTruthy();
    // A failed answer is not sent back as history.
    answer = () => new HttpResponse('data: [DONE]\n\n', { headers: { 'content-type': 'text/event-stream' } });
    await ask('retry');
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]?.body.messages.map((m: { content: string }) => m.content)).toEqual([
      'You are a helpful assistant.',
      'anyone?',
      'retry',
    ]);
  });

  it('offers the models of the chosen group', async () => {
    await openPage();
    await userEvent.clear(screen.getByRole('combobox', { name: '模型' }));
    await userEvent.click(screen.getByRole('combobox', { name: '模型' }));
    expect(await screen.findByRole('option', { name: 'vip-only' })).toBeTruthy();
  });
});

describe('sidebar', () => {
  it('lists the saved chats under Playground', () => {
    render(
      <MemoryRouter initialEntries={['/playground']}>
        <AdminContext
          i18nProvider={i18nProvider}
          authProvider={authProvider}
          dataProvider={testDataProvider()}
          store={memoryStore()}
        >
          <Sidebar
            role={1}
            chats={[{ 'Next Chat': 'https://chat.example.com/#/?key={key}' }, { 'Lobe Chat': 'https://lobe.example.com' }]}
          />
        </AdminContext>
      </MemoryRouter>,
    );
    expect(screen.getByRole('link', { name: '操练场' }).getAttribute('href')).toBe('/playground');
    expect(screen.getByRole('link', { name: 'Next Chat' }).getAttribute('href')).toBe('/chat/0');
    expect(screen.getByRole('link', { name: 'Lobe Chat' }).getAttribute('href')).toBe('/chat/1');
  });
});
