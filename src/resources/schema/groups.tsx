/**
 * Group rows of a list: the records of the page, as the server answered them, folded into the
 * schema's group rows (e.g. one row per channel tag) for the table or the cards below.
 */
import { useMemo, type ReactNode } from 'react';
import { ListContextProvider, useListContext, type RaRecord } from 'react-admin';

export function FoldedRows({ fold, children }: { fold: (records: RaRecord[]) => RaRecord[]; children: ReactNode }) {
  const list = useListContext();
  // Only `data` changes: whatever state the list is in (pending, loaded, failed) stays as it was,
  // which the context's union type cannot follow through a spread.
  const value = useMemo(() => ({ ...list, data: list.data && fold(list.data) }) as typeof list, [list, fold]);
  return <ListContextProvider value={value}>{children}</ListContextProvider>;
}
