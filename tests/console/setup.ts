import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';

// The suite runs several jsdom workers on a two-core machine beside the server tests: a render
// and a debounced filter can take seconds there, so find*/waitFor wait up to 5 s (not 1 s) before
// they fail.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  cleanup();
  localStorage.clear();
});
