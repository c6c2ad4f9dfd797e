/**
 * The audit log screen (/audit) in the whole console against msw: root's sidebar entry, the list
 * (actor, subject, action, changed fields, outcome), its filters as the API receives them, the
 * detail drawer with each field before and after (secrets as the server masked them), phone cards,
 * and no entry for an admin.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { MemoryRouter } from 'react-router-dom';
import type { AuditItem, AuditListItem } from '../../server/audit/schemas';
import { ROLE_ADMIN, ROLE_ROOT } from '../../src/authProvider/roles';
import { clearLoadedChoices } from '../../src/resources/schema';
import { api, calls, callsTo, logIn } from './harness';
import { siteStatus } from './pages-harness';

const { Console } = await import('../../src/App');

const base = {
  created_at: 1700000000,
  actor_id: 1,
  actor_username: 'root',
  actor_role: 100,
  ip: '203.0.113.9',
  outcome: 'ok',
  detail: {},
};

const entries: AuditItem[] = [
  {
    ...base,
    id: 12,
    request_id: '20250101120000abcdef012345',
    route: 'PUT /api/user/',
    subject: 'user',
    subject_id: '7',
    action: 'update',
    changes: [{ field: 'quota', before: 0, after: 500000 }],
  },
  {
    ...base,
    id: 11,
    request_id: '20250101110000aaaaaaaaaaaa',
    route: 'PUT /api/channel/',
    subject: 'channel',
    subject_id: '3',
    action: 'update',
    changes: [
      { field: 'key', before: '••••••AAAA', after: '••••••BBBB' },
      { field: 'name', before: 'old', after: 'new' },
    ],
  },
  {
    ...base,
    id: 10,
    request_id: '20250101100000bbbbbbbbbbbb',
    route: 'POST /api/channel/',
    subject: 'channel',
    subject_id: '3',
    action: 'create',
    actor_username: 'ada',
    actor_id: 2,
    actor_role: 10,
    changes: [{ field: 'name', after: 'old' }],
  },
];

const listed = (e: AuditItem): AuditListItem => {
  const { changes, ...rest } = e;
  return { ...rest, fields: changes.filter((c) => 'before' in c && 'after' in c).map((c) => c.field) };
};

const server = setupServer(
  api('get', '/api/status', siteStatus({})),
  api('get', '/api/audit/', (call) => {
    const items = entries
      .filter((e) => !call.query.subject || e.subject === call.query.subject)
      .filter((e) => !call.query.actor || e.actor_username.includes(call.query.actor))
      .map(listed);
    return { items, total: items.length, page: 1, page_size: 10 };
  }),
  api('get', '/api/audit/:id', (call) => entries.find((e) => call.path.endsWith(`/${e.id}`)) ?? null),
  http.all('/api/*', () => HttpResponse.json({ success: true, message: '', data: null })),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'bypass' }));
afterEach(() => {
  server.resetHandlers();
  calls.length = 0;
  clearLoadedChoices();
  vi.unstubAllGlobals();
});
afterAll(() => server.close());

function renderAt(url: string) {
  return render(
    <MemoryRouter initialEntries={[url]}>
      <Console />
    </MemoryRouter>,
  );
}

async function rowOf(text: string): Promise<HTMLElement> {
  const cell = await screen.findByText(text, {}, { timeout: 15000 });
  const row = cell.closest('tr');
  if (!row) throw new Error(`no row for ${text}`);
  return row;
}

const sidebar = () => screen.getByRole('navigation', { name: '控制台' });

describe('the audit log screen', () => {
  it('lists the changes for root, with who, what, which fields and the outcome', async () => {
    logIn({ id: 1, role: ROLE_ROOT, username: 'root' });
    renderAt('/audit');
    const row = await rowOf('20250101120000abcdef012345');
    expect(within(sidebar()).getByRole('link', { name: '审计日志' }).getAttribute('href')).toBe('/audit');
    expect(within(row).getByText('root #1')).toBeTruthy();
    expect(within(row).getByText('超级管理员')).toBeTruthy();
    expect(within(row).getByText('用户 #7')).toBeTruthy();
    expect(within(row).getByText('修改')).toBeTruthy();
    expect(within(row).getByText('quota')).toBeTruthy();
    expect(within(row).getByText('成功')).toBeTruthy();
    const created = await rowOf('20250101100000bbbbbbbbbbbb');
    expect(within(created).getByText('ada #2')).toBeTruthy();
    expect(within(created).getByText('管理员')).toBeTruthy();
    expect(within(created).getByText('创建')).toBeTruthy();
    // Read-only: no create link.
    expect(screen.queryByRole('link', { name: '新建' })).toBeNull();
  });

  it('sends each filter as the API names it', async () => {
    logIn({ id: 1, role: ROLE_ROOT, username: 'root' });
    renderAt('/audit');
    await rowOf('20250101120000abcdef012345');
    await userEvent.type(screen.getByLabelText('操作人（用户名或 ID）'), 'ad');
    await waitFor(() => expect(callsTo('GET', '/api/audit/').at(-1)?.query).toMatchObject({ actor: 'ad' }), { timeout: 3000 });
    await waitFor(() => expect(screen.queryByText('20250101120000abcdef012345')).toBeNull());

    await userEvent.click(screen.getByRole('combobox', { name: '对象' }));
    await userEvent.click(await screen.findByRole('option', { name: '渠道' }));
    await waitFor(() => expect(callsTo('GET', '/api/audit/').at(-1)?.query).toMatchObject({ actor: 'ad', subject: 'channel' }));
    await userEvent.click(screen.getByRole('combobox', { name: '操作' }));
    await userEvent.click(await screen.findByRole('option', { name: '创建' }));
    await waitFor(() => expect(callsTo('GET', '/api/audit/').at(-1)?.query).toMatchObject({ action: 'create' }));

    await userEvent.click(screen.getByRole('button', { name: '更多筛选' }));
    await userEvent.type(screen.getByLabelText('对象 ID（选项为键名）'), '3');
    await userEvent.click(screen.getByLabelText('请求 ID'));
    await userEvent.paste('20250101100000bbbbbbbbbbbb');
    await waitFor(
      () =>
        expect(callsTo('GET', '/api/audit/').at(-1)?.query).toMatchObject({
          subject_id: '3',
          request_id: '20250101100000bbbbbbbbbbbb',
        }),
      { timeout: 3000 },
    );
    expect(screen.getByLabelText('起始时间')).toBeTruthy();
    expect(screen.getByLabelText('结束时间')).toBeTruthy();
    expect(screen.getByRole('combobox', { name: '结果' })).toBeTruthy();
    // The whole console re-renders on each change: a busy machine needs the time.
  }, 60_000);

  it('opens the detail of a row: each field before and after, secrets as masked by the server', async () => {
    logIn({ id: 1, role: ROLE_ROOT, username: 'root' });
    const list = renderAt('/audit');
    const row = await rowOf('20250101110000aaaaaaaaaaaa');
    await userEvent.click(within(row).getByRole('link', { name: '查看' }));
    const drawer = await screen.findByRole('dialog', { name: '审计详情' });
    const changes = await within(drawer).findByRole('table', { name: '变更内容' });
    const key = within(changes).getByText('key').closest('tr') as HTMLElement;
    expect(within(key).getByText('••••••AAAA')).toBeTruthy();
    expect(within(key).getByText('••••••BBBB')).toBeTruthy();
    expect(within(drawer).getByText('PUT /api/channel/')).toBeTruthy();
    expect(within(drawer).getByText('203.0.113.9')).toBeTruthy();
    expect(within(drawer).getByText('20250101110000aaaaaaaaaaaa')).toBeTruthy();
    expect(callsTo('GET', '/api/audit/11')).toHaveLength(1);

    // A created subject has only "after": its "before" is a dash.
    list.unmount();
    renderAt('/audit/show/10');
    const created = await screen.findByRole('dialog', { name: '审计详情' }, { timeout: 5000 });
    const name = await within(created).findByText('old', {}, { timeout: 5000 });
    expect(within(name.closest('tr') as HTMLElement).getByText('—')).toBeTruthy();
  });

  it('shows cards with a detail button on a phone', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query.includes('max-width'),
      media: query,
      onchange: null,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      addListener: () => undefined,
      removeListener: () => undefined,
      dispatchEvent: () => false,
    }));
    logIn({ id: 1, role: ROLE_ROOT, username: 'root' });
    renderAt('/audit');
    const text = await screen.findByText('20250101120000abcdef012345', {}, { timeout: 5000 });
    expect(text.closest('tr')).toBeNull();
    const card = text.closest('[data-id="12"]') as HTMLElement;
    expect(within(card).getByText('quota')).toBeTruthy();
    await userEvent.click(within(card).getByRole('link', { name: '查看' }));
    const drawer = await screen.findByRole('dialog', { name: '审计详情' });
    expect(await within(drawer).findByText('500000')).toBeTruthy();
  });

  it('gives an admin no entry', async () => {
    logIn({ id: 2, role: ROLE_ADMIN, username: 'ada' });
    renderAt('/token');
    await screen.findByRole('navigation', { name: '控制台' }, { timeout: 5000 });
    expect(within(sidebar()).queryByRole('link', { name: '审计日志' })).toBeNull();
  });
});
