/**
 * The low-code promise: a resource declared only by its definition — what a new folder's index.ts
 * exports, added as one line of the registry — appears in the sidebar and gets its list, filters,
 * create and edit drawers from the generic console, with its role rules applied. No translation,
 * route, endpoint table or menu file is touched: react-admin's own conventions name everything.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { MemoryRouter } from 'react-router-dom';
import { ROLE_ADMIN, ROLE_ROOT } from '../../src/authProvider/roles';
import type { Gadget } from './fixtures/gadget';
import { api, calls, callsTo, logIn } from './harness';
import { siteStatus } from './pages-harness';

// The one line of the registry.
vi.mock('../../src/resources/registry', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/resources/registry')>();
  const { default: gadget } = await import('./fixtures/gadget');
  return { resources: [...real.resources, gadget] };
});

const { Console } = await import('../../src/App');

const gadgets: Gadget[] = [
  { id: 1, title: 'sprocket', color: 'red', secret: 's-1' },
  { id: 2, title: 'widget', color: 'blue', secret: 's-2' },
];

const server = setupServer(
  api('get', '/api/status', siteStatus({})),
  api('get', '/api/gadget/', (call) => {
    const items = gadgets.filter(
      (g) => g.title.includes(call.query.title ?? '') && (!call.query.color || g.color === call.query.color),
    );
    return { items, total: items.length };
  }),
  api('get', '/api/gadget/:id', (call) => gadgets.find((g) => call.path.endsWith(`/${g.id}`)) ?? null),
  api('post', '/api/gadget/', (call) => ({ ...(call.body as object), id: 3 })),
  api('put', '/api/gadget/', (call) => call.body as object),
  http.all('/api/*', () => HttpResponse.json({ success: true, message: '', data: null })),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'bypass' }));
afterEach(() => {
  server.resetHandlers();
  calls.length = 0;
});
afterAll(() => server.close());

function renderAt(url: string) {
  return render(
    <MemoryRouter initialEntries={[url]}>
      <Console />
    </MemoryRouter>,
  );
}

const sidebar = () => screen.getByRole('navigation', { name: '控制台' });

describe('a resource declared only by its definition', () => {
  it('shows an admin its sidebar entry, list and filters, without the root-only column or create', async () => {
    logIn({ id: 5, role: ROLE_ADMIN, username: 'admin' });
    renderAt('/gadget');
    expect(await screen.findByText('sprocket', {}, { timeout: 5000 })).toBeTruthy();
    // Named by react-admin's convention (no translation declared): "Gadgets", "Title", "Color".
    expect(within(sidebar()).getByRole('link', { name: 'Gadgets' }).getAttribute('href')).toBe('/gadget');
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent?.trim());
    expect(headers).toEqual(expect.arrayContaining(['Id', 'Title', 'Color']));
    expect(headers).not.toContain('Secret');
    expect(screen.queryByText('s-1')).toBeNull();
    expect(screen.queryByRole('link', { name: '新建' })).toBeNull();

    await userEvent.type(screen.getByLabelText('Title'), 'wid');
    await waitFor(() => expect(callsTo('GET', '/api/gadget/').at(-1)?.query).toMatchObject({ title: 'wid' }), { timeout: 3000 });
    await waitFor(() => expect(screen.queryByText('sprocket')).toBeNull());
    // The second filter waits behind "more filters".
    await userEvent.click(screen.getByRole('button', { name: '更多筛选' }));
    expect(screen.getByLabelText('Color')).toBeTruthy();
  });

  it('lets root create and edit through the generic drawers, with the secret field', async () => {
    logIn({ id: 1, role: ROLE_ROOT, username: 'root' });
    renderAt('/gadget');
    expect(await screen.findByText('s-1', {}, { timeout: 5000 })).toBeTruthy();
    await userEvent.click(screen.getByRole('link', { name: '新建' }));
    const create = await screen.findByRole('dialog', { name: '新建' });
    await userEvent.click(within(create).getByRole('button', { name: '保存' }));
    expect(await within(create).findByText('必填')).toBeTruthy();
    expect(callsTo('POST', '/api/gadget/')).toHaveLength(0);
    await userEvent.type(within(create).getByLabelText(/Title/), 'gizmo');
    await userEvent.click(within(create).getByRole('button', { name: '保存' }));
    await waitFor(() => expect(callsTo('POST', '/api/gadget/').map((c) => c.body)).toEqual([{ title: 'gizmo' }]));

    renderAt('/gadget/edit/2');
    const edit = await screen.findByRole('dialog', { name: '编辑' });
    const secret = await within(edit).findByLabelText('Secret', {}, { timeout: 5000 });
    expect((secret as HTMLInputElement).value).toBe('s-2');
    const title = within(edit).getByLabelText(/Title/);
    await userEvent.clear(title);
    await userEvent.type(title, 'widget 2');
    await userEvent.click(within(edit).getByRole('button', { name: '保存' }));
    await waitFor(() =>
      expect(callsTo('PUT', '/api/gadget/').map((c) => c.body)).toEqual([
        { id: 2, title: 'widget 2', color: 'blue', secret: 's-2' },
      ]),
    );
  });

  it('keeps an ordinary user out: no sidebar entry', async () => {
    logIn({ id: 7, role: 1, username: 'alice' });
    renderAt('/token');
    await screen.findByRole('navigation', { name: '控制台' }, { timeout: 5000 });
    expect(within(sidebar()).queryByRole('link', { name: 'Gadgets' })).toBeNull();
  });
});
