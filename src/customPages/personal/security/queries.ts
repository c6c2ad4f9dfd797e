/** The personal page's security queries, by one key each so a change refetches what shows it. */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useGateway } from '../../../api/customMethods';

export const TWOFA_KEY = ['security', 'twofa'] as const;
export const PASSKEYS_KEY = ['security', 'passkeys'] as const;

export function useTwoFaStatus() {
  const gateway = useGateway();
  return useQuery({ queryKey: TWOFA_KEY, queryFn: () => gateway.twoFaStatus() });
}

export function usePasskeys() {
  const gateway = useGateway();
  return useQuery({ queryKey: PASSKEYS_KEY, queryFn: () => gateway.passkeys() });
}

/** Refetches both after a change (a passkey or 2FA change alters what verification offers). */
export function useRefreshSecurity(): () => void {
  const client = useQueryClient();
  return () => void client.invalidateQueries({ queryKey: ['security'] });
}
