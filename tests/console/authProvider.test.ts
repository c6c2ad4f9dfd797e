import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { ApiError, setUnauthorizedHandler, storedUser } from '../../src/api/client';
import { authProvider } from '../../src/authProvider';
import { dataProvider } from '../../src/dataProvider';
import { api, calls, callsTo, logIn, refuse } from './harness';

const root = { id: 1, username: 'root', display_name: 'Root', role: 100, status: 1 };
const server = setupServer(api('post', '/api/user/login', root), api('get', '/api/user/logout', undefined));

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  calls.length = 0;
});
afterAll(() => server.close());

describe('authProvider', () => {
  it('logs in with POST /api/user/login and stores the user', async () => {
    await authProvider.login({ username: 'root', password: '12345678' });
    expect(callsTo('POST', '/api/user/login')[0]?.body).toEqual({ username: 'root', password: '12345678' });
    expect(storedUser()).toMatchObject({ id: 1, role: 100 });
    await expect(authProvider.checkAuth()).resolves.toBeUndefined();
    expect(await authProvider.getPermissions()).toBe(100);
    expect(await authProvider.getIdentity()).toEqual({ id: 1, fullName: 'Root' });
  });

  it('passes the login refusal on and stores nothing', async () => {
    server.use(refuse('post', '/api/user/login', '用户名或密码错误，或用户已被封禁'));
    await expect(authProvider.login({ username: 'root', password: 'nope' })).rejects.toThrow('用户名或密码错误，或用户已被封禁');
    expect(storedUser()).toBeNull();
    await expect(authProvider.checkAuth()).rejects.toThrow();
  });

  it('logs out with GET /api/user/logout and forgets the user', async () => {
    logIn({ id: 1, role: 100 });
    await authProvider.logout();
    expect(callsTo('GET', '/api/user/logout')).toHaveLength(1);
    expect(storedUser()).toBeNull();
    expect(await authProvider.getPermissions()).toBe(0);
  });

  it('sends a 401 to /login?expired=true without a second notification; other errors pass', async () => {
    let unauthorized = 0;
    setUnauthorizedHandler(() => {
      unauthorized += 1;
    });
    logIn({ id: 1, role: 100 });
    server.use(http.get('/api/user/5', () => HttpResponse.json({ success: false, message: '未登录' }, { status: 401 })));
    const error = await dataProvider.getOne('user', { id: 5 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(unauthorized).toBe(1);
    await expect(authProvider.checkError(error)).rejects.toEqual({ redirectTo: '/login?expired=true', message: false });
    expect(storedUser()).toBeNull();
    await expect(authProvider.checkError(new ApiError('参数错误', 200))).resolves.toBeUndefined();
  });

  it('answers canAccess from the stored role', async () => {
    logIn({ id: 3, role: 10 });
    expect(await authProvider.canAccess({ resource: 'user', action: 'list' })).toBe(true);
    expect(await authProvider.canAccess({ resource: 'setting', action: 'list' })).toBe(false);
  });
});
