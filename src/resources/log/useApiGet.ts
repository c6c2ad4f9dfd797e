import { useEffect, useState } from 'react';
import { api } from '../../api/client';

export interface ApiGetState<T> {
  data: T | undefined;
  error: string | undefined;
  loading: boolean;
}

interface Answer<T> {
  path: string;
  data?: T;
  error?: string;
}

/**
 * GETs `path` (nothing while it is null) and again whenever it changes. Only the answer of the
 * current path counts: a late answer of an older one never shows.
 */
export function useApiGet<T>(path: string | null): ApiGetState<T> {
  const [answer, setAnswer] = useState<Answer<T> | null>(null);
  useEffect(() => {
    if (path === null) return;
    let current = true;
    api
      .get<T>(path)
      .then((data) => current && setAnswer({ path, data }))
      .catch((err: Error) => current && setAnswer({ path, error: err.message }));
    return () => {
      current = false;
    };
  }, [path]);
  const mine = answer !== null && answer.path === path ? answer : null;
  return { data: mine?.data, error: mine?.error, loading: path !== null && mine === null };
}
