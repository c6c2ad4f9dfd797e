/**
 * The setup the Drawing log and Task log screen tests share: an msw server answering the admin
 * list (`<api>/`) and the own list (`<api>/self/`, the same rows without owner names and channels)
 * with one page, logins as an admin or as alice, the screen rendered at its route, and lookups of a
 * row by its task id, the column headers and the last query sent to a path.
 */
import type { ComponentType } from 'react';
import { render, screen } from '@testing-library/react';
import { setupServer } from 'msw/node';
import { AdminHarness, api, callsTo, logIn, serveDuringTests } from './harness';

interface ListedRow {
  channel_id: number;
  channel_name: string;
  username: string;
}

export function setUpTaskLog<R extends ListedRow>(opts: {
  /** The list API without its trailing slash, e.g. `/api/mj`. */
  api: string;
  /** The screen's route, e.g. `/midjourney`. */
  route: string;
  List: ComponentType;
  adminRows: () => R[];
}) {
  const selfRows = (): R[] => opts.adminRows().map((r) => ({ ...r, channel_id: 0, channel_name: '', username: '' }));
  const page = (items: R[]) => ({ items, total: items.length, page: 1, page_size: 10, total_capped: false });
  const server = setupServer(
    api('get', `${opts.api}/`, () => page(opts.adminRows())),
    api('get', `${opts.api}/self/`, () => page(selfRows())),
  );
  serveDuringTests(server);

  const { List } = opts;
  return {
    asAdmin: () => logIn({ id: 1, role: 10, username: 'admin' }),
    asUser: () => logIn({ id: 2, role: 1, username: 'alice' }),
    renderList: () =>
      render(
        <AdminHarness url={opts.route} path={`${opts.route}/*`}>
          <List />
        </AdminHarness>,
      ),
    /** The table row showing this task id. */
    rowOf: async (taskId: string): Promise<HTMLElement> => {
      const cell = await screen.findByText(taskId, {}, { timeout: 5000 });
      return cell.closest('tr') as HTMLElement;
    },
    headers: () => screen.getAllByRole('columnheader').map((h) => h.textContent?.trim()),
    lastQuery: (path: string) => callsTo('GET', path).at(-1)?.query,
  };
}
