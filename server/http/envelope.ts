/** The console API's answer shape: `{success, message, data}`. */
export interface Envelope<T> {
  success: boolean;
  message: string;
  data?: T;
  /** A refusal's stable code (server/http/refusals.ts) and the values its message was filled from. */
  code?: string;
  params?: Record<string, string | number>;
}

export function ok<T>(data?: T, message = ''): Envelope<T> {
  return data === undefined ? { success: true, message } : { success: true, message, data };
}

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  page_size: number;
}

/** Reads `p` (1-based) and `page_size` (or `size`): 10 a page unless asked, at most 100. */
export function pageParams(query: { p?: unknown; page_size?: unknown; size?: unknown }): {
  page: number;
  pageSize: number;
  offset: number;
} {
  const p = Math.max(1, Math.trunc(Number(query.p)) || 1);
  const size = Math.min(100, Math.max(1, Math.trunc(Number(query.page_size ?? query.size)) || 10));
  return { page: p, pageSize: size, offset: (p - 1) * size };
}
