/** Channel rows and a small stand-in for the channel API, shared by the channel tests. */
import { render } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { ChannelView } from '../../server/channels/schemas';
import { ResourceList } from '../../src/resources/schema';
import channelSchema from '../../src/resources/channel/schema';
import { AdminHarness, api, calls } from './harness';

export function channel(overrides: Partial<ChannelView> & { id: number; name: string }): ChannelView {
  return {
    type: 1,
    openai_organization: '',
    test_model: '',
    status: 1,
    weight: 0,
    priority: 0,
    created_time: 1_700_000_000,
    test_time: 0,
    response_time: 0,
    base_url: '',
    other: '',
    balance: 0,
    balance_updated_time: 0,
    models: 'gpt-4o',
    group: 'default',
    used_quota: 0,
    model_mapping: '',
    status_code_mapping: '',
    auto_ban: 1,
    other_info: '',
    tag: '',
    setting: '',
    param_override: '',
    max_input_tokens: 0,
    expired_time: 0,
    multi_key_mode: '',
    rpm_limit: 0,
    max_concurrency: 0,
    remark: '',
    settings: '',
    header_override: '',
    ...overrides,
  };
}

export const seedChannels = (): ChannelView[] => [
  channel({
    id: 1,
    name: 'alpha',
    type: 1,
    response_time: 800,
    models: 'gpt-4o,gpt-4o-mini',
    group: 'default,vip',
    used_quota: 1_000_000,
    balance: 12.5,
    weight: 2,
  }),
  channel({ id: 2, name: 'beta', type: 14, status: 2, response_time: 2500, models: 'claude-3-5-sonnet', tag: 'team' }),
  channel({
    id: 3,
    name: 'gamma',
    type: 3,
    status: 3,
    response_time: 9000,
    other_info: JSON.stringify({ status_reason: 'upstream said 401', status_time: 1_700_000_000 }),
    tag: 'team',
  }),
  channel({ id: 4, name: 'delta', type: 99, response_time: 0 }),
  channel({ id: 5, name: 'epsilon', type: 43, response_time: 4500 }),
];

export let channels = seedChannels();

export function resetChannels(): void {
  channels = seedChannels();
}

function page(items: unknown[]) {
  return { items, total: items.length, page: 1, page_size: 10 };
}

/** In tag mode the server answers the tagged channels of the page's tags, flat (untagged ones left out). */
function listed(tagMode: boolean): unknown[] {
  return tagMode ? channels.filter((c) => c.tag) : channels;
}

export const channelHandlers = [
  api('get', '/api/group/', ['default', 'vip']),
  api('get', '/api/channel/models', [{ id: 'gpt-4o' }, { id: 'claude-3-5-sonnet' }]),
  api('get', '/api/models', { '1': ['gpt-4o', 'gpt-4o-mini', 'o3'], '14': ['claude-3-5-sonnet'] }),
  api('get', '/api/channel/', (call) => page(listed(call.query.tag_mode === 'true'))),
  api('get', '/api/channel/new/search', (call) =>
    page(
      channels.filter(
        (c) =>
          (!call.query.model || c.models.split(',').includes(call.query.model)) &&
          (!call.query.keyword || c.name.includes(call.query.keyword)),
      ),
    ),
  ),
  http.get('/api/channel/test/:id', async ({ request }) => {
    calls.push({
      method: 'GET',
      path: new URL(request.url).pathname,
      query: Object.fromEntries(new URL(request.url).searchParams),
      body: undefined,
    });
    return HttpResponse.json({ success: true, message: '', time: 1.5 });
  }),
  api('get', '/api/channel/update_balance/:id/', () => ({ balance: 20, balance_updated_time: 1_700_000_100 })),
  api('post', '/api/channel/copy/:id', (call) => ({
    ...(channels.find((c) => `/api/channel/copy/${c.id}` === call.path) as ChannelView),
    id: 10,
  })),
  api('post', '/api/channel/fix', { success: 3, fails: 0 }),
  api('get', '/api/channel/:id', (call) => channels.find((c) => `/api/channel/${c.id}` === call.path) ?? null),
  api('put', '/api/channel/', (call) => {
    const body = call.body as Partial<ChannelView> & { id: number };
    const stored = channels.find((c) => c.id === body.id);
    if (stored) Object.assign(stored, body);
    return stored ?? null;
  }),
  api('post', '/api/channel/', (call) => channel({ ...(call.body as object), id: 9, name: 'new' } as ChannelView)),
  api('delete', '/api/channel/disabled', 2),
  api('post', '/api/channel/batch/tag', (call) => (call.body as { ids: number[] }).ids.length),
  api('put', '/api/channel/tag', 2),
  api('delete', '/api/channel/:id/', null),
];

export function renderChannels(url = '/channel') {
  return render(
    <AdminHarness url={url} path="/channel/*">
      <ResourceList schema={channelSchema} />
    </AdminHarness>,
  );
}
