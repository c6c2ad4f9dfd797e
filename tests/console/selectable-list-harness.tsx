/**
 * The setup the tokens and redemption-code list tests share: the msw server started for the file
 * and reset after each test, before each test the file's data reset, loaded choices cleared, a user
 * logged in and a clipboard whose `writeText` is recorded; the screen rendered at its route, and a
 * row found by a text in it.
 */
import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';
import type { ReactNode } from 'react';
import { render, screen } from '@testing-library/react';
import type { SetupServer } from 'msw/node';
import { clearLoadedChoices } from '../../src/resources/schema';
import { AdminHarness, calls, logIn } from './harness';

/** Registers the hooks; answers the clipboard's `writeText` mock (it resolves unless a test says otherwise). */
export function setUpSelectableList(
  server: SetupServer,
  { user, reset }: { user: Parameters<typeof logIn>[0]; reset: () => void },
) {
  const writeText = vi.fn<(text: string) => Promise<void>>();
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  beforeEach(() => {
    reset();
    clearLoadedChoices();
    logIn(user);
    writeText.mockReset();
    writeText.mockImplementation(() => Promise.resolve());
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
  });
  afterEach(() => {
    server.resetHandlers();
    calls.length = 0;
    vi.unstubAllGlobals();
  });
  afterAll(() => server.close());
  return writeText;
}

/** Renders `list` at `url`, routed under `/<route>/*` so its drawers open from their paths. */
export function renderList(list: ReactNode, route: string, url = `/${route}`) {
  return render(
    <AdminHarness url={url} path={`/${route}/*`}>
      {list}
    </AdminHarness>,
  );
}

/** The table row that shows `text`, once it is there. */
export async function rowOf(text: string): Promise<HTMLElement> {
  const cell = await screen.findByText(text);
  const row = cell.closest('tr');
  if (!row) throw new Error(`no row for ${text}`);
  return row;
}
