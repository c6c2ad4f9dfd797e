/** Starts the real gateway on a random loopback port against a real database, for tests. */
import type { AddressInfo } from 'node:net';
import { buildGateway, type Gateway } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { createTestDatabase, type DbName, type TestDatabase } from './databases.js';

export interface TestGateway {
  url: string;
  gateway: Gateway;
  database: TestDatabase;
  /** The database of LOG_SQL_DSN, when the gateway was started with one. */
  logDatabase: TestDatabase | null;
  client(): ApiClient;
  close(): Promise<void>;
}

/** `logs`: keep log rows in a database of that kind of their own (LOG_SQL_DSN). */
export async function startTestGateway(
  kind: DbName = 'sqlite',
  env: Record<string, string> = {},
  logs?: DbName,
): Promise<TestGateway> {
  const database = await createTestDatabase(kind);
  const logDatabase = logs ? await createTestDatabase(logs) : null;
  // Tests log in far more often than a person: limits are lifted unless a test sets them.
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    CONSOLE_DIR: '',
    HOST: '127.0.0.1',
    PORT: '0',
    GLOBAL_API_RATE_LIMIT: '100000',
    CRITICAL_RATE_LIMIT: '100000',
    SEARCH_RATE_LIMIT: '100000',
    LOGIN_FAILURE_LIMIT: '100000',
    // bcrypt at its cheapest: hashing at the production cost was two fifths of the suite's CPU.
    PASSWORD_HASH_COST: '4',
    ...env,
  });
  config.db = database.target;
  config.logDb = logDatabase?.target ?? null;
  const gateway = await buildGateway(config);
  await gateway.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = gateway.app.server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    gateway,
    database,
    logDatabase,
    client: () => new ApiClient(url),
    async close() {
      await gateway.close();
      await database.drop();
      await logDatabase?.drop();
    },
  };
}

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** The answer's data; throws with the server's message when the call did not succeed (set-up steps of tests). */
export function must<T = any>(res: ApiResponse, what: string): T {
  if (res.status !== 200 || !res.body?.success) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data as T;
}

/** Cookies besides the session's that a client keeps like a browser (others, e.g. OAuth's state, tests pass by hand). */
const KEPT_COOKIES = new Set(['twofa_login']);

/** A console client: keeps the session cookie and sends New-Api-User like the console does. */
export class ApiClient {
  /** The session cookie (`session=…`), or '' when logged out. */
  cookie = '';
  /** Cookies of a pending two-factor sign-in (KEPT_COOKIES), sent along with the session's. */
  jar = new Map<string, string>();
  userId: number | null = null;
  /** Extra headers for every call (e.g. Authorization with an access token). */
  headers: Record<string, string> = {};

  constructor(readonly baseUrl: string) {}

  async request<T = any>(
    method: string,
    path: string,
    body?: unknown,
    extra: Record<string, string> = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...this.headers, ...extra };
    const cookies = [this.cookie, ...[...this.jar].map(([name, value]) => `${name}=${value}`)].filter(Boolean);
    if (cookies.length > 0) headers.cookie = cookies.join('; ');
    if (this.userId !== null && !('New-Api-User' in headers)) headers['New-Api-User'] = String(this.userId);
    let payload: string | undefined;
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = typeof body === 'string' ? body : JSON.stringify(body);
    }
    const res = await fetch(this.baseUrl + path, { method, headers, body: payload });
    const setCookie = res.headers.getSetCookie();
    for (const c of setCookie) {
      const pair = c.split(';')[0] ?? '';
      if (pair.startsWith('session=')) this.cookie = pair.endsWith('=') ? '' : pair;
      else if (KEPT_COOKIES.has(pair.split('=')[0] ?? '')) {
        const [name = '', ...rest] = pair.split('=');
        const value = rest.join('=');
        if (value && !/max-age=0|expires=thu, 01 jan 1970/i.test(c)) this.jar.set(name, value);
        else this.jar.delete(name);
      }
    }
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed as T, headers: res.headers };
  }

  get<T = any>(path: string, extra?: Record<string, string>) {
    return this.request<T>('GET', path, undefined, extra);
  }
  post<T = any>(path: string, body?: unknown, extra?: Record<string, string>) {
    return this.request<T>('POST', path, body ?? {}, extra);
  }
  put<T = any>(path: string, body?: unknown, extra?: Record<string, string>) {
    return this.request<T>('PUT', path, body ?? {}, extra);
  }
  delete<T = any>(path: string, extra?: Record<string, string>) {
    return this.request<T>('DELETE', path, undefined, extra);
  }

  /** Logs in and remembers the user id for New-Api-User. */
  async login(username: string, password: string): Promise<ApiResponse> {
    const res = await this.post('/api/user/login', { username, password });
    if (res.body?.success && typeof res.body.data?.id === 'number') this.userId = res.body.data.id;
    return res;
  }
}

/**
 * Waits until what the gateway has queued (quota movements, log rows, hourly totals) is written,
 * and the log rows are in LOG_SQL_DSN's database when there is one.
 */
export async function flushWrites(tg: TestGateway): Promise<void> {
  await tg.gateway.ctx.journal.flush();
  await tg.gateway.ctx.totals.flush();
  await tg.gateway.ctx.logShipper?.ship();
}

export const ROOT = { username: 'root', password: 'root-pass-123' };

/** Completes the setup wizard and returns a client logged in as root. */
export async function setupRoot(tg: TestGateway): Promise<ApiClient> {
  const client = tg.client();
  const setup = await client.post('/api/setup', { ...ROOT, confirmPassword: ROOT.password });
  if (!setup.body.success) throw new Error(`setup failed: ${setup.body.message}`);
  const login = await client.login(ROOT.username, ROOT.password);
  if (!login.body.success) throw new Error(`root login failed: ${login.body.message}`);
  return client;
}
