import { afterAll, afterEach, vi } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import { resetEmotionStyles } from './emotion-reset';
import { installJsdomShortcuts } from './jsdom-shortcuts';

installJsdomShortcuts();

// Files share their worker's modules: the console's module graph is loaded here, in the first
// file's set-up, rather than piecemeal by whichever test first reaches a module. A load still
// running when a file ends is refused by vitest (the file's environment is gone) and failed the
// next file.
await Promise.all([
  import('react-admin'),
  import('../../src/authProvider'),
  import('../../src/dataProvider'),
  import('../../src/i18n'),
  import('../../src/resources/registry'),
  import('../../src/customPages'),
]);

// The suite runs several jsdom workers on a two-core machine beside the server tests: a render
// and a debounced filter can take seconds there, so find*/waitFor wait up to 5 s (not 1 s) before
// they fail.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  cleanup();
  localStorage.clear();
  resetEmotionStyles();
});

// Console files share their worker's modules (no isolation): what a file changes process-wide is
// put back when it ends.
afterAll(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});
