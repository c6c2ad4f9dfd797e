/**
 * Empties the page's emotion styles after each test. MUI inserts one <style> per rule into
 * document.head and never removes them; files share their worker's document, so the head grew to
 * thousands of rules and every getComputedStyle (which testing-library's role queries call on each
 * element and its ancestors) matched all of them. The next render inserts what it needs again.
 */
import { createElement } from 'react';
import { render } from '@testing-library/react';
import { __unsafe_useEmotionCache, type EmotionCache } from '@emotion/react';

let cache: EmotionCache | null = null;

function defaultCache(): EmotionCache | null {
  if (!cache) {
    const Probe = () => {
      cache = __unsafe_useEmotionCache() as EmotionCache | null;
      return null;
    };
    render(createElement(Probe)).unmount();
  }
  return cache;
}

export function resetEmotionStyles(): void {
  const c = defaultCache();
  if (!c) return;
  c.sheet.flush();
  for (const key of Object.keys(c.inserted)) delete c.inserted[key];
}
