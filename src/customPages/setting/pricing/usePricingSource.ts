/** Hooks shared by the pricing editor and the unset-models list: the stored price options and a row selection. */
import { useCallback, useMemo, useState } from 'react';
import type { OptionValues } from '../useOptions';
import type { PricingOptions } from './pricing';

/** The three stored price options; a new object only when one of them changes. */
export function usePricingSource(values: OptionValues): PricingOptions {
  const { ModelPrice = '', ModelRatio = '', CompletionRatio = '' } = values;
  return useMemo(() => ({ ModelPrice, ModelRatio, CompletionRatio }), [ModelPrice, ModelRatio, CompletionRatio]);
}

export interface Selection {
  selected: ReadonlySet<string>;
  toggle(names: readonly string[], checked: boolean): void;
  clear(): void;
}

export function useSelection(): Selection {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const toggle = useCallback((names: readonly string[], checked: boolean) => {
    setSelected((old) => {
      const next = new Set(old);
      for (const name of names) {
        if (checked) next.add(name);
        else next.delete(name);
      }
      return next;
    });
  }, []);
  const clear = useCallback(() => setSelected(new Set()), []);
  return { selected, toggle, clear };
}
