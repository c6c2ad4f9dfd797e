import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { dataProvider } from '../../src/dataProvider';
import { api, calls, callsTo, refuse } from './harness';

const alice = { id: 2, username: 'alice', role: 1, status: 1, quota: 100 };
const server = setupServer(
  api('get', '/api/user/', { items: [alice], total: 31, page: 2, page_size: 20 }),
  api('get', '/api/user/search', { items: [alice], total: 1, page: 1, page_size: 10 }),
  api('get', '/api/user/2', alice),
  api('post', '/api/user/', (call) => ({ id: 9, ...(call.body as object) })),
  api('put', '/api/user/', (call) => call.body as object),
  api('post', '/api/user/manage', (call) =>
    (call.body as { action: string }).action === 'disable' ? { status: 2, role: 1 } : undefined,
  ),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  calls.length = 0;
});
afterAll(() => server.close());

describe('dataProvider', () => {
  it('maps getList onto p and page_size and reads {items,total}', async () => {
    const result = await dataProvider.getList('user', {
      pagination: { page: 2, perPage: 20 },
      sort: { field: 'id', order: 'ASC' },
      filter: {},
    });
    expect(result).toEqual({ data: [alice], total: 31 });
    expect(callsTo('GET', '/api/user/')[0]?.query).toEqual({ p: '2', page_size: '20' });
  });

  it('switches to the search endpoint when a keyword or group is set, trimming the keyword', async () => {
    await dataProvider.getList('user', {
      pagination: { page: 1, perPage: 10 },
      sort: { field: 'id', order: 'ASC' },
      filter: { keyword: ' ali ', group: 'vip' },
    });
    expect(callsTo('GET', '/api/user/search')[0]?.query).toEqual({ keyword: 'ali', group: 'vip', p: '1', page_size: '10' });
    await dataProvider.getList('user', {
      pagination: { page: 1, perPage: 10 },
      sort: { field: 'id', order: 'ASC' },
      filter: { q: 'bob', group: '' },
    });
    expect(callsTo('GET', '/api/user/search')[1]?.query).toEqual({ keyword: 'bob', p: '1', page_size: '10' });
    expect(callsTo('GET', '/api/user/')).toHaveLength(0);
  });

  it('gets one record by id', async () => {
    expect(await dataProvider.getOne('user', { id: 2 })).toEqual({ data: alice });
  });

  it('creates with POST and the sent fields', async () => {
    const body = { username: 'bob', display_name: 'Bob', password: 'password1' };
    const result = await dataProvider.create('user', { data: body });
    expect(callsTo('POST', '/api/user/')[0]?.body).toEqual(body);
    expect(result.data).toMatchObject({ id: 9, username: 'bob' });
  });

  it('updates with PUT and the id in the body, keeping the numeric id of the record', async () => {
    await dataProvider.update('user', { id: '2', data: { ...alice, quota: 500 }, previousData: alice });
    expect(callsTo('PUT', '/api/user/')[0]?.body).toEqual({ ...alice, quota: 500, id: 2 });
  });

  it('deletes a user through POST /api/user/manage {id, action: delete}', async () => {
    await dataProvider.delete('user', { id: 2, previousData: alice });
    expect(callsTo('POST', '/api/user/manage')[0]?.body).toEqual({ id: 2, action: 'delete' });
  });

  it('runs a manage action as an update and merges the answered status and role', async () => {
    const result = await dataProvider.update('user', { id: 2, data: {}, previousData: alice, meta: { manage: 'disable' } });
    expect(callsTo('POST', '/api/user/manage')[0]?.body).toEqual({ id: 2, action: 'disable' });
    expect(result.data).toEqual({ ...alice, status: 2, role: 1 });
  });

  it('rejects with the server message when success is false', async () => {
    server.use(refuse('put', '/api/user/', '无权更新同权限等级或更高权限等级的用户信息'));
    await expect(dataProvider.update('user', { id: 2, data: alice, previousData: alice })).rejects.toThrow(
      '无权更新同权限等级或更高权限等级的用户信息',
    );
  });

  it('rejects with the generic message keys for 429, 500 and 405', async () => {
    server.use(http.get('/api/user/2', () => new HttpResponse(null, { status: 429 })));
    await expect(dataProvider.getOne('user', { id: 2 })).rejects.toThrow('app.error.too_many_requests');
    server.use(http.get('/api/user/2', () => new HttpResponse(null, { status: 500 })));
    await expect(dataProvider.getOne('user', { id: 2 })).rejects.toThrow('app.error.server_error');
    server.use(http.get('/api/user/2', () => new HttpResponse(null, { status: 405 })));
    await expect(dataProvider.getOne('user', { id: 2 })).rejects.toThrow('app.error.demo_site');
  });

  it('refuses resources without declared endpoints', async () => {
    await expect(dataProvider.getOne('nothing', { id: 1 })).rejects.toThrow(/No API endpoints/);
  });
});
