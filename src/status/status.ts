/**
 * The site status (GET /api/status), kept in localStorage as `status` plus the individual flags
 * other pages read (enable_data_export, quota_per_unit, footer_html …) so the sidebar and footer can
 * read them before the first answer arrives.
 */
import { useEffect, useState } from 'react';
import type { SiteStatus } from '../../server/status/schemas';
import { api } from '../api/client';

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

type Listener = (status: SiteStatus) => void;
const listeners = new Set<Listener>();
let inflight: Promise<SiteStatus> | null = null;

/** Fetches the status (one request at a time), stores it and tells every `useStatus` user. */
export function loadStatus(): Promise<SiteStatus> {
  inflight ??= api
    .get<SiteStatus>('/api/status')
    .then((status) => {
      storeStatus(status);
      listeners.forEach((l) => l(status));
      return status;
    })
    .finally(() => {
      inflight = null;
    });
  return inflight;
}

/** The current status: the stored copy at first, refreshed from the server on mount. */
export function useStatus(): { status: SiteStatus | null; error: string | null } {
  const [status, setStatus] = useState<SiteStatus | null>(storedStatus);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    listeners.add(setStatus);
    loadStatus().catch((err: Error) => setError(err.message));
    return () => {
      listeners.delete(setStatus);
    };
  }, []);
  return { status, error };
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
