/**
 * The usage-log screen's own state: the row whose prompt and completion are open (right-click)
 * and the user being looked up (admins, from the username cell), with their dialogs.
 */
import { useMemo, useState, type ReactNode } from 'react';
import type { Identifier } from 'react-admin';
import { currentRole, useAccessPolicy } from '../../authProvider/access';
import { ExtendDialog } from './ExtendDialog';
import { LogActionsContext, useLogActions, type LogActions } from './LogActionsContext';
import type { LogRecord } from './types';
import { UserLookupDialog } from './UserLookupDialog';

export function LogScreen({ children }: { children: ReactNode }) {
  const [extendId, setExtendId] = useState<Identifier | null>(null);
  const [lookupId, setLookupId] = useState<number | null>(null);
  const actions = useMemo<LogActions>(() => ({ openExtend: setExtendId, lookUpUser: setLookupId }), []);
  const may = useAccessPolicy();
  const admin = may(currentRole(), { resource: 'log', action: 'admin_columns' });
  return (
    <LogActionsContext.Provider value={actions}>
      {children}
      <ExtendDialog id={extendId} onClose={() => setExtendId(null)} />
      {admin && <UserLookupDialog userId={lookupId} onClose={() => setLookupId(null)} />}
    </LogActionsContext.Provider>
  );
}

/** A right-click on a row opens its extend detail. */
export function useOpenExtend(): (record: LogRecord) => void {
  const { openExtend } = useLogActions();
  return (record) => openExtend(record.id);
}
