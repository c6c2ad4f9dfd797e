/**
 * The site status (GET /api/status), kept in localStorage as `status` plus the individual flags
 * other pages read (enable_data_export, quota_per_unit, footer_html …) so the sidebar and footer can
 * read them before the first answer arrives. Fetched by the dataProvider's `getStatus` through
 * react-query, so every screen shares one cached answer.
 */
import { useCallback } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { SiteStatus } from '../../server/status/schemas';
import { useGateway, type GatewayDataProvider } from '../api/customMethods';

export type { SiteStatus };

export const STATUS_KEY = 'status';

export function storedStatus(): SiteStatus | null {
  try {
    const raw = localStorage.getItem(STATUS_KEY);
    return raw ? (JSON.parse(raw) as SiteStatus) : null;
  } catch {
    return null;
  }
}

function storeStatus(status: SiteStatus): void {
  localStorage.setItem(STATUS_KEY, JSON.stringify(status));
  localStorage.setItem('enable_data_export', String(status.enable_data_export));
  localStorage.setItem('enable_drawing', String(status.enable_drawing));
  localStorage.setItem('enable_task', String(status.enable_task));
  localStorage.setItem('quota_per_unit', String(status.quota_per_unit));
  localStorage.setItem('footer_html', status.footer_html);
  localStorage.setItem('chats', JSON.stringify(status.chats));
  if (localStorage.getItem('default_collapse_sidebar') === null) {
    localStorage.setItem('default_collapse_sidebar', String(status.default_collapse_sidebar));
  }
}

/** The status query: the custom method's answer, also stored for reads outside React. */
function statusQuery(gateway: GatewayDataProvider) {
  return {
    queryKey: STATUS_QUERY_KEY,
    queryFn: async () => {
      const status = await gateway.getStatus();
      storeStatus(status);
      return status;
    },
  };
}

/** react-query's key of the status; every `useStatus` user shares it. */
export const STATUS_QUERY_KEY = ['gateway', 'status'] as const;

/**
 * The current status: the stored copy at first (as stale, so each mount asks the server again),
 * then the server's. A failed answer shows at once: a setup gate waits on it.
 */
export function useStatus(): { status: SiteStatus | null; error: string | null } {
  const gateway = useGateway();
  const { data, error } = useQuery({
    ...statusQuery(gateway),
    initialData: () => storedStatus() ?? undefined,
    initialDataUpdatedAt: 0,
    retry: false,
  });
  return { status: data ?? null, error: error ? error.message : null };
}

/** Asks the server for the status now; every `useStatus` user gets the answer. */
export function useReloadStatus(): () => Promise<SiteStatus> {
  const gateway = useGateway();
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.fetchQuery({ ...statusQuery(gateway), staleTime: 0 }), [gateway, queryClient]);
}

/**
 * Dollars with cents; an amount that is not zero but under a cent keeps two significant digits
 * ($0.000021), so a cheap call never reads as free.
 */
export function formatDollars(dollars: number): string {
  if (dollars === 0 || !Number.isFinite(dollars) || Math.abs(dollars) >= 0.01) return `$${dollars.toFixed(2)}`;
  const decimals = Math.min(20, 1 - Math.floor(Math.log10(Math.abs(dollars))));
  return `$${dollars.toFixed(decimals).replace(/0+$/, '')}`;
}

/** Dollars from quota: quota ÷ quota_per_unit (see formatDollars). */
export function formatQuota(quota: number, quotaPerUnit = Number(localStorage.getItem('quota_per_unit')) || 500000): string {
  return formatDollars(quota / quotaPerUnit);
}
