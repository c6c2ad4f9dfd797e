import { createContext, useContext } from 'react';
import type { Identifier } from 'react-admin';

/** What a row can open: the extend detail of a log, the lookup of its user (admins). */
export interface LogActions {
  openExtend: (id: Identifier) => void;
  lookUpUser: (userId: number) => void;
}

export const LogActionsContext = createContext<LogActions>({
  openExtend: () => undefined,
  lookUpUser: () => undefined,
});

export const useLogActions = () => useContext(LogActionsContext);
