/** Loads one admin-authored text (GET returning a string); `null` while loading, '' on failure. */
import { useEffect, useState } from 'react';
import { api } from '../../api/client';

export function useOptionText(path: string): string | null {
  const [text, setText] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    api
      .get<string>(path)
      .then((value) => live && setText(value ?? ''))
      .catch(() => live && setText(''));
    return () => {
      live = false;
    };
  }, [path]);
  return text;
}
