/**
 * The setup the tokens and redemption-code list tests share: the msw server started for the file
 * and reset after each test, before each test the file's data reset, loaded choices cleared, a user
 * logged in and a clipboard whose `writeText` is recorded; the screen rendered at its route.
 */
import { afterEach, beforeEach, vi } from 'vitest';
import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import type { SetupServer } from 'msw/node';
import { clearLoadedChoices } from '../../src/resources/schema';
import { AdminHarness, logIn, serveDuringTests } from './harness';

/** Registers the hooks; answers the clipboard's `writeText` mock (it resolves unless a test says otherwise). */
export function setUpSelectableList(
  server: SetupServer,
  { user, reset }: { user: Parameters<typeof logIn>[0]; reset: () => void },
) {
  const writeText = vi.fn<(text: string) => Promise<void>>();
  serveDuringTests(server);
  beforeEach(() => {
    reset();
    clearLoadedChoices();
    logIn(user);
    writeText.mockReset();
    writeText.mockImplementation(() => Promise.resolve());
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });
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
