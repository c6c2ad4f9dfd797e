import { afterAll, afterEach, vi } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import { resetEmotionStyles } from './emotion-reset';
import { installJsdomShortcuts } from './jsdom-shortcuts';

installJsdomShortcuts();

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
