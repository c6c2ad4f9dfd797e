/**
 * Shared set-up of the shell and resource tests: an msw server whose requests are recorded, a
 * logged-in user in localStorage, a react-admin context with the real providers, and a table row
 * found by its text.
 */
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { ReactNode } from 'react';
import { screen } from '@testing-library/react';
import { AdminContext, Notification, memoryStore } from 'react-admin';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { http, HttpResponse, type JsonBodyType } from 'msw';
import type { SetupServer } from 'msw/node';
import type { StoredUser } from '../../src/api/client';
import { authProvider } from '../../src/authProvider';
import { dataProvider } from '../../src/dataProvider';
import { i18nProvider } from '../../src/i18n';

export interface Call {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
}

export const calls: Call[] = [];

async function record(request: Request): Promise<void> {
  const url = new URL(request.url);
  const text = request.method === 'GET' ? '' : await request.text();
  calls.push({
    method: request.method,
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    body: text ? JSON.parse(text) : undefined,
  });
}

/** Answers `{success:true, message:'', data}` (or what `answer` computes) and records the call. */
export function api(
  method: 'get' | 'post' | 'put' | 'delete',
  path: string,
  answer: JsonBodyType | ((call: Call) => JsonBodyType),
) {
  return http[method](path, async ({ request }) => {
    await record(request.clone());
    const call = calls[calls.length - 1] as Call;
    const data = typeof answer === 'function' ? answer(call) : answer;
    return HttpResponse.json({ success: true, message: '', data });
  });
}

/** Answers `{success:false, message}` and records the call. */
export function refuse(method: 'get' | 'post' | 'put' | 'delete', path: string, message: string) {
  return http[method](path, async ({ request }) => {
    await record(request.clone());
    return HttpResponse.json({ success: false, message });
  });
}

export function callsTo(method: string, path: string): Call[] {
  return calls.filter((c) => c.method === method && c.path === path);
}

/**
 * Starts `server` for the file (an unknown request fails the test); after each test drops the
 * handlers the test added and the recorded calls.
 */
export function serveDuringTests(server: SetupServer): void {
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => {
    server.resetHandlers();
    calls.length = 0;
  });
  afterAll(() => server.close());
}

export function logIn(user: Partial<StoredUser> & { id: number; role: number }): void {
  localStorage.setItem('user', JSON.stringify({ username: `user${user.id}`, display_name: '', ...user }));
}

function WhereAmI() {
  const location = useLocation();
  return <p>{`now at ${location.pathname}`}</p>;
}

/** Renders `element` at `path` (a route pattern) from `url`, inside react-admin with the real providers. */
export function AdminHarness({ url, path, children }: { url: string; path: string; children: ReactNode }) {
  return (
    <MemoryRouter initialEntries={[url]}>
      <AdminContext dataProvider={dataProvider} authProvider={authProvider} i18nProvider={i18nProvider} store={memoryStore()}>
        <Routes>
          <Route path={path} element={children} />
          <Route path="*" element={<WhereAmI />} />
        </Routes>
        <Notification />
      </AdminContext>
    </MemoryRouter>
  );
}

/** The table row that shows `text`, once it is there. */
export async function rowOf(text: string): Promise<HTMLElement> {
  // The first render of a file loads the whole list screen: give a busy machine time.
  const cell = await screen.findByText(text, {}, { timeout: 5000 });
  const row = cell.closest('tr');
  if (!row) throw new Error(`no row for ${text}`);
  return row;
}
