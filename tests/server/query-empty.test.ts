/**
 * Empty query values mean "absent": clients of this family send every filter of a list, the unused
 * ones empty (`?p=&page_size=&channel=&group=`). Each list and search route answers such a request
 * exactly as it answers the request without them.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { forEachDatabase } from '../helpers/databases.js';
import { flushWrites, setupRoot, startTestGateway, type ApiClient, type TestGateway } from '../helpers/gateway.js';
import { expectOk, newKey } from '../helpers/channels.js';

const PAGE = ['p', 'page_size'];
const LOG_FILTERS = [
  ...PAGE,
  'type',
  'username',
  'token_name',
  'model_name',
  'start_timestamp',
  'end_timestamp',
  'channel',
  'group',
  'key',
];
const TASK_FILTERS = [...PAGE, 'channel_id', 'username', 'start_timestamp', 'end_timestamp'];
const CHANNEL_FLAGS = [...PAGE, 'id_sort', 'tag_mode'];

/** Each list or search route with every parameter it takes. */
const ROUTES: [path: string, params: string[]][] = [
  ['/api/log/', LOG_FILTERS],
  ['/api/log/self/', LOG_FILTERS],
  ['/api/log/stat', LOG_FILTERS],
  ['/api/log/self/stat', LOG_FILTERS],
  ['/api/data/', ['username', 'start_timestamp', 'end_timestamp', 'default_time']],
  ['/api/data/self', ['start_timestamp', 'end_timestamp', 'default_time']],
  ['/api/data/channelUseData', ['model_name', 'start_timestamp', 'end_timestamp', 'channel_id', 'merge']],
  ['/api/user/', PAGE],
  ['/api/user/search', ['keyword', 'group', ...PAGE]],
  ['/api/token/', [...PAGE, 'size']],
  ['/api/token/search', ['keyword', 'token', ...PAGE, 'size']],
  ['/api/redemption/', PAGE],
  ['/api/redemption/search', ['keyword', ...PAGE]],
  ['/api/channel/', CHANNEL_FLAGS],
  ['/api/channel/search', ['keyword', 'group', 'model', ...CHANNEL_FLAGS]],
  ['/api/channel/new/search', ['keyword', 'group', 'model', 'status', ...CHANNEL_FLAGS]],
  ['/api/task/', [...TASK_FILTERS, 'task_id']],
  ['/api/task/self', [...TASK_FILTERS, 'task_id']],
  ['/api/mj/', [...TASK_FILTERS, 'mj_id']],
  ['/api/mj/self', [...TASK_FILTERS, 'mj_id']],
];

await forEachDatabase('empty query values', (kind) => {
  let tg: TestGateway;
  let root: ApiClient;

  beforeAll(async () => {
    tg = await startTestGateway(kind);
    root = await setupRoot(tg);
    // Something in every list: a channel, a token, a code, a user whose quota change is logged.
    expectOk(await root.post('/api/channel/', { name: 'c', type: 1, key: newKey(), models: ['gpt-4o'] }));
    expect((await root.post('/api/token/', { name: 't', unlimited_quota: true })).body.success).toBe(true);
    expect((await root.post('/api/redemption/', { name: 'r', quota: 10, count: 1 })).body.success).toBe(true);
    expect((await root.post('/api/user/', { username: 'someone', password: 'password-123' })).body.success).toBe(true);
    const users = (await root.get('/api/user/search?keyword=someone')).body.data.items as { id: number }[];
    const id = users[0]?.id;
    expect((await root.put('/api/user/', { id, username: 'someone', quota: 1000 })).body.success).toBe(true);
    await flushWrites(tg);
  });
  afterAll(async () => tg?.close());

  it('answers every list and search with its filters sent empty as it answers without them', async () => {
    for (const [path, params] of ROUTES) {
      const plain = await root.get(path);
      expect(plain.status, path).toBe(200);
      expect(plain.body.success, `${path}: ${plain.body.message}`).toBe(true);
      const empty = `${path}?${params.map((name) => `${name}=`).join('&')}`;
      const res = await root.get(empty);
      expect(res.status, empty).toBe(200);
      expect(res.body, empty).toEqual(plain.body);
    }
  });

  it('still reads a filter that is given, and refuses one that is not a number', async () => {
    const channelOnly = await root.get('/api/log/?p=1&page_size=&channel=999999&group=');
    expect(channelOnly.body).toMatchObject({ success: true, data: { items: [] } });
    const all = await root.get('/api/log/?p=1&page_size=&channel=&group=');
    expect(all.body.data.items.length).toBeGreaterThan(0);
    const bad = await root.get('/api/log/?channel=abc');
    expect(bad.body).toMatchObject({ success: false, code: 'request.invalid_params' });
    expect(bad.body.message).toContain('channel');
  });

  it('treats an empty cleanup timestamp as a missing one', async () => {
    const res = await root.delete('/api/log/?target_timestamp=');
    expect(res.body).toMatchObject({ success: false, code: 'log.cleanup_needs_timestamp' });
  });

  it('keeps an empty value where the parameter is a string (a copy with no suffix)', async () => {
    const source = expectOk(await root.post('/api/channel/', { name: 'plain', type: 1, key: newKey(), models: ['gpt-4o'] }));
    const copy = expectOk(await root.post(`/api/channel/copy/${source.id}?suffix=`));
    expect(copy.name).toBe('plain');
  });
});
